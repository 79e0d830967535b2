package io.mdhub.benchmarks.rwf;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * RWF messages captured between real ETA 3.9.1.0 applications (shared protocol dumps), RIPC header removed. Shared
 * by the benchmarks of every layer that carries them (RIPC framing, fan-out, backbone), so all measure the same bytes.
 */
public final class BenchmarkMessages
{
    /** Level-1 MarketPrice update, stream 5, 7 fields (57 bytes). */
    public static final byte[] LEVEL1_UPDATE = hex(
        "00 09 04 06 00 00 00 05 00 04 01 08 00 07 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e 03"
        + "0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    /** Streaming MarketPrice request for TRI.N on service 1, stream 5 (24 bytes). */
    static final byte[] REQUEST_TRI_N = hex("00 16 01 06 00 00 00 05 46 00 01 01 22 80 09 07 01 05 54 52 49 2e 4e 01");

    private BenchmarkMessages()
    {
    }

    /**
     * @param bytes a message.
     * @return a copy of it in direct memory, where the servers hold the messages they handle.
     */
    public static UnsafeBuffer direct(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.length));
        buffer.putBytes(0, bytes);
        return buffer;
    }

    static byte[] hex(final String hex)
    {
        final String clean = hex.replace(" ", "");
        final byte[] out = new byte[clean.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
