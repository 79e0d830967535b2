package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

import io.mdhub.common.test.MdTests;

/**
 * A hand-driven RIPC peer on a plain socket, for sending exactly the bytes a test wants (good or bad).
 */
final class RawRipcPeer implements AutoCloseable
{
    /**
     * ETA 3.9.1.0's real RIPC14 ConnectReq (protocol facts §1.2); byte 10 is the requested ping timeout.
     */
    static final String ETA_CONNECT_REQ = "00 32 00 00 00 00 17 08 1c 00 3c 00 00 0e 01 02 76 6d 09 31 32 37 2e 30 " +
        "2e 30 2e 31 15 14 65 74 61 6a 33 2e 39 2e 31 2e 4c 31 2e 61 6c 6c 2e 72 72 67";

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean isClosedByPeer;

    RawRipcPeer(final int port) throws IOException
    {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(5);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    static byte[] connectReq(final int pingTimeoutSeconds)
    {
        final byte[] req = hex(ETA_CONNECT_REQ);
        req[10] = (byte)pingTimeoutSeconds;
        return req;
    }

    /**
     * RIPC14 handshake as ETA does it; returns the ConnectAck.
     */
    byte[] handshake(final int pingTimeoutSeconds) throws IOException
    {
        send(connectReq(pingTimeoutSeconds));
        final byte[] ack = readMessage();
        send(hex("00 04 08 00"));
        return ack;
    }

    void send(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    byte[] readMessage() throws IOException
    {
        final byte[] header = readFully(2);
        final int length = ((header[0] & 0xFF) << 8) | (header[1] & 0xFF);
        final byte[] message = new byte[length];
        message[0] = header[0];
        message[1] = header[1];
        System.arraycopy(readFully(length - 2), 0, message, 2, length - 2);
        return message;
    }

    private byte[] readFully(final int length) throws IOException
    {
        final byte[] bytes = new byte[length];
        int read = 0;
        while (read < length)
        {
            try
            {
                final int n = in.read(bytes, read, length - read);
                if (n < 0)
                {
                    throw new IOException("closed by the server");
                }
                read += n;
            }
            catch (final SocketTimeoutException ex)
            {
                MdTests.checkInterrupted("bytes from the server");
            }
        }
        return bytes;
    }

    /**
     * Non-blocking-ish check: drains what the server sent (pings) and reports whether it closed the connection.
     */
    boolean isClosedByServer()
    {
        if (isClosedByPeer)
        {
            return true;
        }
        try
        {
            final byte[] sink = new byte[256];
            while (true)
            {
                final int n = in.read(sink);
                if (n < 0)
                {
                    isClosedByPeer = true;
                    return true;
                }
            }
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            isClosedByPeer = true; // connection reset
            return true;
        }
    }

    void assertAckIsRipc14(final byte[] ack)
    {
        assertEquals(0x01, ack[2]);
        assertEquals(0x01, ack[3]);
        assertEquals(9, ack[9]);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
