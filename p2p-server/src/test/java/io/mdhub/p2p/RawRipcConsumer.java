package io.mdhub.p2p;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * A consumer on a plain blocking socket with a tiny receive buffer: it completes the RIPC14 handshake (the bytes
 * ETA 3.9.1.0 sends, facts §1.2), logs in, opens items, and then never reads, like Artio's SlowConsumerTest peer.
 */
final class RawRipcConsumer implements AutoCloseable
{
    private static final byte[] CONNECT_REQ = hex(
        "0032000000001708" + "1c003c00000e0102766d093132372e302e302e3115146574616a332e392e312e4c312e616c6c2e727267");
    private static final byte[] CLIENT_KEY = {0x00, 0x04, 0x08, 0x00};

    private final Socket socket = new Socket();
    private final OutputStream out;

    RawRipcConsumer(final int port) throws IOException
    {
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        out = socket.getOutputStream();
        out.write(CONNECT_REQ);
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        final int ackLength = in.readUnsignedShort();
        in.readFully(new byte[ackLength - 2]);
        out.write(CLIENT_KEY);
    }

    void login(final String user) throws IOException
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(1);
        request.userName().data(user);
        final ByteBuffer data = ByteBuffer.allocate(1024);
        final EncodeIterator it = iterator(data);
        check(request.encode(it));
        writeFrame(data);
    }

    void requestItem(final int streamId, final int serviceId, final String name) throws IOException
    {
        final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(DomainTypes.MARKET_PRICE);
        request.streamId(streamId);
        request.containerType(DataTypes.NO_DATA);
        request.flags(RequestMsgFlags.STREAMING);
        request.msgKey().applyHasServiceId();
        request.msgKey().serviceId(serviceId);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        final ByteBuffer data = ByteBuffer.allocate(1024);
        check(request.encode(iterator(data)));
        writeFrame(data);
    }

    /**
     * @return true once the server has closed the connection (reads whatever is buffered to find out).
     */
    boolean isClosedByServer()
    {
        try
        {
            socket.setSoTimeout(1);
            final byte[] sink = new byte[64 * 1024];
            while (true)
            {
                if (socket.getInputStream().read(sink) < 0)
                {
                    return true;
                }
            }
        }
        catch (final java.net.SocketTimeoutException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    private void writeFrame(final ByteBuffer data) throws IOException
    {
        final int length = data.position();
        final byte[] frame = new byte[length + 3];
        frame[0] = (byte)((length + 3) >> 8);
        frame[1] = (byte)(length + 3);
        frame[2] = 0x02;
        data.get(0, frame, 3, length);
        out.write(frame);
        out.flush();
    }

    private static EncodeIterator iterator(final ByteBuffer data)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(data);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        return it;
    }

    private static void check(final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException(CodecReturnCodes.toString(result));
        }
    }

    private static byte[] hex(final String hex)
    {
        final byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
