package io.mdhub.benchmarks.peers;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.benchmarks.client.ClientStatsLine;
import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.latency.IntervalLogWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mdhub-bench.jar peer-subscriber}: subscribes to every item's channel or subject on a pub/sub peer and
 * measures what MDHub's test client measures: end-to-end latency of the timestamped updates (a histogram interval
 * per second, optionally to an {@code .hlog} file), updates per second and updates lost. It prints the test client's
 * once-a-second line ({@link ClientStatsLine}; every subscribed item counts as open), so the benches read both alike.
 */
@Command(name = "peer-subscriber", mixinStandardHelpOptions = true,
    description = "Subscribe to every item on Redis or NATS and measure latency and loss.")
public final class PeerSubscriberMain implements Callable<Integer>
{
    /** Printed when the subscription fails; the benches look for it. */
    public static final String FAILED = "the subscription failed";
    private static final long HIGHEST_LATENCY_NS = TimeUnit.SECONDS.toNanos(60);

    @CommandLine.Mixin
    PeerOptions peerOptions = new PeerOptions();

    @Option(names = "--hlog", description = "Write a latency interval histogram per second to this .hlog file " +
        "(nanoseconds, tag end-to-end).")
    Path hlog;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PeerSystem peer = peerOptions.checked(spec.commandLine());
        final int port = peerOptions.port;
        final int items = peerOptions.items;
        final PrintWriter out = spec.commandLine().getOut();
        final SequenceCheck sequences = new SequenceCheck();
        final Recorder latency = new Recorder(HIGHEST_LATENCY_NS, 3);
        final UnsafeBuffer view = new UnsafeBuffer(new byte[0]); // the delivery thread's only
        IntervalLogWriter hlogWriter = null;
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-peer-subscriber");
            PeerSubscriber subscriber = peer.subscriber(port, PeerItems.names(items)))
        {
            subscriber.start((payload) ->
            {
                final long nowNs = System.nanoTime();
                if (PeerUpdate.LENGTH != payload.length)
                {
                    return; // not one of ours: neither counted nor timed
                }
                view.wrap(payload);
                sequences.onUpdate(PeerUpdate.sequence(view));
                final long originNs = PeerUpdate.originNs(view);
                if (0 != originNs)
                {
                    latency.recordValue(Math.min(HIGHEST_LATENCY_NS, Math.max(0, nowNs - originNs)));
                }
            });
            out.printf("mdhub-peer-subscriber: %s on port %d, subscribing to %d items%n", peer.label(), port, items);
            out.flush();
            long lastMs = System.currentTimeMillis();
            hlogWriter = null == hlog ? null : new IntervalLogWriter(hlog.toFile(), lastMs,
                "MDHub peer subscriber (" + peer.label() + "): end-to-end latency, nanoseconds");
            long lastReceived = 0;
            Histogram interval = null;
            while (!shutdown.await(1000))
            {
                interval = latency.getIntervalHistogram(interval);
                final long nowMs = System.currentTimeMillis();
                if (null != hlogWriter)
                {
                    hlogWriter.write("end-to-end", interval, lastMs, nowMs);
                }
                lastMs = nowMs;
                final long received = sequences.received();
                out.println(new ClientStatsLine(0, received - lastReceived, 0, subscriber.subscribed(), items, 0, 0,
                    sequences.lost()).format(interval) + ", out of order " + sequences.outOfOrder());
                out.flush();
                lastReceived = received;
                final Throwable failure = subscriber.failure();
                if (null != failure)
                {
                    out.println("mdhub-peer-subscriber: " + FAILED + ": " + failure);
                    out.flush();
                    return 1;
                }
            }
        }
        finally
        {
            CloseHelper.close(hlogWriter);
        }
        out.printf("mdhub-peer-subscriber: received %d, lost %d, out of order %d%n", sequences.received(),
            sequences.lost(), sequences.outOfOrder());
        out.flush();
        return 0 == sequences.lost() ? 0 : 1;
    }
}
