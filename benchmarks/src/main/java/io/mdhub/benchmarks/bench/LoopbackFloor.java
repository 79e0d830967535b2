package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

import io.mdhub.orderprobe.analysis.LatencyStats;

/**
 * The host's own floor under the latency path, measured in the same run as the sweep: a TCP ping-pong over loopback
 * between two threads, one 64-byte message every {@code gapNs} (so each side sleeps in the kernel between messages,
 * as the path's processes do at low rates). One round trip is two socket hops with a wake-up each — as many as the
 * measured path (source → distributor, p2p-server → client) — so a reader can tell what the machine costs from
 * what MDHub adds.
 */
final class LoopbackFloor
{
    private static final int MESSAGE_BYTES = 64;
    private static final int TIMEOUT_MS = 2_000;

    private LoopbackFloor()
    {
    }

    /**
     * @param roundTrips how many round trips to time.
     * @param gapNs      pause between round trips.
     * @return one line: mean, median and 99th percentile of the round trips.
     * @throws IOException when loopback TCP does not work.
     */
    static String measure(final int roundTrips, final long gapNs) throws IOException
    {
        final long[] rttNs = new long[roundTrips];
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            server.setSoTimeout(TIMEOUT_MS);
            final Thread echo = new Thread(() -> echo(server), "loopback-floor-echo");
            echo.setDaemon(true);
            echo.start();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort()))
            {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(TIMEOUT_MS);
                final InputStream in = socket.getInputStream();
                final OutputStream out = socket.getOutputStream();
                final byte[] message = new byte[MESSAGE_BYTES];
                for (int i = 0; i < roundTrips; i++)
                {
                    final long startNs = System.nanoTime();
                    out.write(message);
                    if (in.readNBytes(message, 0, message.length) < message.length)
                    {
                        throw new java.io.EOFException("the loopback echo closed after " + i + " round trips");
                    }
                    rttNs[i] = System.nanoTime() - startNs;
                    LockSupport.parkNanos(gapNs);
                }
            }
        }
        final LatencyStats stats = LatencyStats.of(rttNs);
        return String.format(Locale.ROOT, "loopback floor measured at the start of this run (TCP ping-pong between " +
            "two threads, %d bytes every %d µs, %d round trips; each is two socket hops, as many as the path has): " +
            "mean %.1f µs, p50 %.1f µs, p99 %.1f µs", MESSAGE_BYTES, gapNs / 1000, roundTrips, stats.meanUs(),
            stats.medianUs(), stats.p99Us());
    }

    private static void echo(final ServerSocket server)
    {
        try (Socket socket = server.accept())
        {
            socket.setTcpNoDelay(true);
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            final byte[] message = new byte[MESSAGE_BYTES];
            while (in.readNBytes(message, 0, message.length) == message.length)
            {
                out.write(message);
            }
        }
        catch (final IOException ex)
        {
            // the measuring side ended or timed out: it reports its own failure
        }
    }
}
