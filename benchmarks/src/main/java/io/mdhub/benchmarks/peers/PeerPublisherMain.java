package io.mdhub.benchmarks.peers;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.benchmarks.source.UpdatePacer;
import io.mdhub.benchmarks.tools.RateCommands;
import io.mdhub.common.concurrent.ToolShutdown;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mdhub-bench.jar peer-publisher}: publishes level-1-sized updates to a pub/sub peer (Redis, NATS) the way
 * MDHub's source publishes them: the updates due since the last tick in one burst per tick, the items in turn, every
 * n-th update carrying {@code System.nanoTime()}; {@code ur <rate>} on standard input changes the rate. One thread
 * (besides the client library's own), sleeping between ticks.
 */
@Command(name = "peer-publisher", mixinStandardHelpOptions = true,
    description = "Publish updates to Redis or NATS at a commanded rate ('ur <rate>' on standard input).")
public final class PeerPublisherMain implements Callable<Integer>
{
    @CommandLine.Mixin
    PeerOptions peerOptions = new PeerOptions();

    @Option(names = "--rate", description = "Updates per second to start with (default ${DEFAULT-VALUE}).")
    long rate = 1_000;

    @Option(names = "--tick-us", description = "Pacing period: one burst per tick (default ${DEFAULT-VALUE}, as " +
        "MDHub's source).")
    long tickUs = 500;

    @Option(names = "--timestamp-every", description = "Every n-th update carries its origin time (default " +
        "${DEFAULT-VALUE}, as MDHub's source).")
    int timestampEvery = 11;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private volatile long commandedRate;

    @Override
    public Integer call() throws Exception
    {
        final PeerSystem peer = peerOptions.checked(spec.commandLine());
        if (tickUs < 1 || timestampEvery < 1 || rate < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--tick-us and --timestamp-every must be positive, --rate not negative");
        }
        final int port = peerOptions.port;
        final int items = peerOptions.items;
        final PrintWriter out = spec.commandLine().getOut();
        final String[] names = PeerItems.names(items);
        commandedRate = rate;
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-peer-publisher");
            PeerPublisher publisher = peer.publisher(port, names))
        {
            RateCommands.start("mdhub-peer-publisher", (newRate) -> commandedRate = newRate, out, shutdown);
            out.printf("mdhub-peer-publisher: %s on port %d, %d items, %d updates/s, a burst per %d us%n",
                peer.label(), port, items, rate, tickUs);
            out.flush();
            publish(publisher, items, shutdown, out);
        }
        return 0;
    }

    private void publish(
        final PeerPublisher publisher, final int items, final ToolShutdown shutdown, final PrintWriter out)
    {
        final long tickNs = TimeUnit.MICROSECONDS.toNanos(tickUs);
        long now = System.nanoTime();
        long appliedRate = commandedRate;
        final UpdatePacer pacer = new UpdatePacer(appliedRate, UpdatePacer.MAX_BURST_DEFAULT, now);
        long sequence = 0;
        int item = 0;
        long sentThisSecond = 0;
        long nextReportNs = now + TimeUnit.SECONDS.toNanos(1);
        long nextTickNs = now + tickNs;
        final UnsafeBuffer encoder = new UnsafeBuffer(new byte[PeerUpdate.LENGTH]);
        while (!shutdown.isStopped())
        {
            LockSupport.parkNanos(nextTickNs - now);
            now = System.nanoTime();
            if (now < nextTickNs)
            {
                continue; // woken early (an unpark or a spurious wake-up): the tick is not due yet
            }
            nextTickNs = Math.max(nextTickNs + tickNs, now + tickNs / 2); // a late tick does not bunch the next
            if (commandedRate != appliedRate)
            {
                appliedRate = commandedRate;
                pacer.rate(appliedRate, now);
            }
            final int due = pacer.due(now);
            for (int i = 0; i < due; i++)
            {
                sequence++;
                // a fresh array per update: a client library may hold the array until its writer has written it
                final byte[] payload = new byte[PeerUpdate.LENGTH];
                encoder.wrap(payload);
                PeerUpdate.encode(encoder, sequence, item,
                    0 == sequence % timestampEvery ? System.nanoTime() : 0);
                publisher.publish(item, payload);
                item = item + 1 == items ? 0 : item + 1;
            }
            pacer.sent(due);
            publisher.flush();
            sentThisSecond += due;
            if (now >= nextReportNs)
            {
                out.printf("mdhub-peer-publisher: sent/s %d, sent %d, rate %d, forgotten %d%n", sentThisSecond,
                    sequence, appliedRate, pacer.forgotten());
                out.flush();
                sentThisSecond = 0;
                nextReportNs += TimeUnit.SECONDS.toNanos(1);
            }
        }
    }
}
