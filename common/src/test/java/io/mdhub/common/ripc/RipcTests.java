package io.mdhub.common.ripc;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.mdhub.common.test.MdTests;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

/**
 * Helpers for RIPC tests: settings over an in-memory CountersManager, hand-built frames, a tracking allocator.
 */
final class RipcTests
{
    static final int MAX_USER_MSG_SIZE = 6144;

    private RipcTests()
    {
    }

    static CountersManager newCountersManager()
    {
        return new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(64 * CountersManager.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(64 * CountersManager.COUNTER_LENGTH)));
    }

    static RipcChannelSettings settings(final boolean pack, final int maxReassembled)
    {
        return settings(pack, maxReassembled, Math.max(maxReassembled, 8 << 20));
    }

    static RipcChannelSettings settings(final boolean pack, final int maxReassembled, final int maxReassemblyBytes)
    {
        final RipcCounters counters = new RipcCounters(newCountersManager(), "test");
        return new RipcChannelSettings("test", counters, 10_000_000_000L, 10_000_000_000L, maxReassembled,
            maxReassemblyBytes, pack);
    }

    /**
     * A first fragment announcing {@code totalLength} that carries only {@code dataLength} bytes.
     */
    static byte[] firstFragment(final int fragId, final int totalLength, final int dataLength)
    {
        final ByteBuffer frame = ByteBuffer.allocate(10 + dataLength);
        frame.putShort((short)(10 + dataLength)).put((byte)0x03).put((byte)0x08).putInt(totalLength)
            .putShort((short)fragId).put(message(dataLength, fragId));
        return frame.array();
    }

    /**
     * A continuation fragment with {@code dataLength} bytes.
     */
    static byte[] nextFragment(final int fragId, final int dataLength)
    {
        final ByteBuffer frame = ByteBuffer.allocate(6 + dataLength);
        frame.putShort((short)(6 + dataLength)).put((byte)0x03).put((byte)0x04).putShort((short)fragId)
            .put(message(dataLength, fragId));
        return frame.array();
    }

    static RipcSession session(final int maxUserMsgSize)
    {
        return new RipcSession(RipcVersion.RIPC14, maxUserMsgSize, 60, 0, 14, 1, "peer", "", "", 0);
    }

    static byte[] message(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed + i * 31);
        }
        return bytes;
    }

    static byte[] normalFrame(final byte[] message)
    {
        final ByteBuffer frame = ByteBuffer.allocate(3 + message.length);
        frame.putShort((short)(3 + message.length)).put((byte)0x02).put(message);
        return frame.array();
    }

    static byte[] packedFrame(final byte[]... messages)
    {
        int length = 3;
        for (final byte[] message : messages)
        {
            length += 2 + message.length;
        }
        final ByteBuffer frame = ByteBuffer.allocate(length);
        frame.putShort((short)length).put((byte)0x12);
        for (final byte[] message : messages)
        {
            frame.putShort((short)message.length).put(message);
        }
        return frame.array();
    }

    /**
     * Fragments laid out as ETA does: frames of at most maxUserMsgSize + 3 bytes.
     */
    static List<byte[]> fragmentFrames(final byte[] message, final int fragId, final int maxUserMsgSize)
    {
        final List<byte[]> frames = new ArrayList<>();
        final int maxFrame = maxUserMsgSize + 3;
        int position = 0;
        boolean first = true;
        while (position < message.length)
        {
            final int header = first ? 10 : 6;
            final int data = Math.min(message.length - position, maxFrame - header);
            final ByteBuffer frame = ByteBuffer.allocate(header + data);
            frame.putShort((short)(header + data)).put((byte)0x03);
            if (first)
            {
                frame.put((byte)0x08).putInt(message.length).putShort((short)fragId);
            }
            else
            {
                frame.put((byte)0x04).putShort((short)fragId);
            }
            frame.put(message, position, data);
            frames.add(frame.array());
            position += data;
            first = false;
        }
        return frames;
    }

    /**
     * A ConnectAck as a server would send it; {@code keyBlock} is the RIPC14 key-exchange block (flag, type,
     * length, key bytes), null for RIPC13.
     */
    static byte[] connectAck(
        final int ripcVersion,
        final int maxUserMsgSize,
        final int sessionFlags,
        final int pingTimeoutSeconds,
        final byte[] keyBlock,
        final String component)
    {
        final byte[] componentBytes = component.getBytes(StandardCharsets.US_ASCII);
        final int length = 19 + (null == keyBlock ? 0 : keyBlock.length) + 2 + componentBytes.length;
        final ByteBuffer ack = ByteBuffer.allocate(length);
        ack.putShort((short)length).put((byte)0x01).put((byte)0x01).put((byte)0x0a).put((byte)0)
            .putInt(ripcVersion).putShort((short)maxUserMsgSize).put((byte)sessionFlags).put((byte)pingTimeoutSeconds)
            .put((byte)14).put((byte)1).putShort((short)0).put((byte)0);
        if (null != keyBlock)
        {
            ack.put(keyBlock);
        }
        ack.put((byte)(componentBytes.length + 1)).put((byte)componentBytes.length).put(componentBytes);
        return ack.array();
    }

    /**
     * A TR_SL1_64 key-exchange block offering prime P, generator G and server public key.
     */
    static byte[] keyExchangeBlock(final long prime, final long generator, final long serverPublic)
    {
        return ByteBuffer.allocate(27).put((byte)0x08).put((byte)0x01).put((byte)24)
            .putLong(prime).putLong(generator).putLong(serverPublic).array();
    }

    static Socket accept(final ServerSocket serverSocket) throws IOException
    {
        serverSocket.setSoTimeout(20);
        while (true)
        {
            try
            {
                final Socket socket = serverSocket.accept();
                socket.setSoTimeout(5_000);
                return socket;
            }
            catch (final SocketTimeoutException ex)
            {
                MdTests.checkInterrupted("a connection from the RIPC client");
            }
        }
    }

    static byte[] readMessage(final InputStream in) throws IOException
    {
        final int high = in.read();
        final int low = in.read();
        if (high < 0 || low < 0)
        {
            throw new IOException("closed");
        }
        final int length = (high << 8) | low;
        final byte[] message = new byte[length];
        message[0] = (byte)high;
        message[1] = (byte)low;
        int read = 2;
        while (read < length)
        {
            final int n = in.read(message, read, length - read);
            if (n < 0)
            {
                throw new IOException("closed");
            }
            read += n;
        }
        return message;
    }

    static byte[] concat(final List<byte[]> parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final ByteBuffer all = ByteBuffer.allocate(length);
        for (final byte[] part : parts)
        {
            all.put(part);
        }
        return all.array();
    }

    static byte[] bytes(final ByteBuf buf)
    {
        final byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return bytes;
    }

    static byte[] hex(final String hex)
    {
        final String clean = hex.replaceAll("\\s+", "");
        final byte[] bytes = new byte[clean.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    /**
     * An allocator that remembers every buffer it hands out, so a test can prove all were released.
     */
    static final class TrackingAllocator extends AbstractByteBufAllocator
    {
        final List<ByteBuf> allocated = new ArrayList<>();

        TrackingAllocator()
        {
            super(false);
        }

        @Override
        public boolean isDirectBufferPooled()
        {
            return false;
        }

        @Override
        protected ByteBuf newHeapBuffer(final int initialCapacity, final int maxCapacity)
        {
            final ByteBuf buf = Unpooled.buffer(initialCapacity, maxCapacity);
            allocated.add(buf);
            return buf;
        }

        @Override
        protected ByteBuf newDirectBuffer(final int initialCapacity, final int maxCapacity)
        {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        long unreleasedCapacity()
        {
            long capacity = 0;
            for (final ByteBuf buf : allocated)
            {
                if (buf.refCnt() != 0)
                {
                    capacity += buf.capacity();
                }
            }
            return capacity;
        }

        boolean allReleased()
        {
            for (final ByteBuf buf : allocated)
            {
                if (buf.refCnt() != 0)
                {
                    return false;
                }
            }
            return true;
        }
    }
}
