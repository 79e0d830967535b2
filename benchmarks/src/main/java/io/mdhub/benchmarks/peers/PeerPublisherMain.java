package io.mdhub.benchmarks.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.benchmarks.source.UpdatePacer;
import io.mdhub.benchmarks.tools.ToolShutdown;
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
    @Option(names = "--system", required = true, description = "redis or nats.")
    String system;

    @Option(names = "--port", required = true, description = "The server's port on 127.0.0.1.")
    int port;

    @Option(names = "--items", description = "Items, a channel or subject each (default ${DEFAULT-VALUE}).")
    int items = 100_000;

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
        if (items < 1 || tickUs < 1 || timestampEvery < 1 || rate < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--items, --tick-us and --timestamp-every must be positive, --rate not negative");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PeerSystem peer = PeerSystem.of(system);
        final String[] names = PeerItems.names(items);
        commandedRate = rate;
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-peer-publisher");
            PeerPublisher publisher = peer.publisher(port, names))
        {
            startCommandReader(out, shutdown);
            out.printf("mdhub-peer-publisher: %s on port %d, %d items, %d updates/s, a burst per %d us%n",
                peer.label(), port, items, rate, tickUs);
            out.flush();
            publish(publisher, shutdown, out);
        }
        return 0;
    }

    private void publish(final PeerPublisher publisher, final ToolShutdown shutdown, final PrintWriter out)
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
                PeerUpdate.encode(new UnsafeBuffer(payload), sequence, item,
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

    private void startCommandReader(final PrintWriter out, final ToolShutdown shutdown)
    {
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    onCommand(line.trim(), out, shutdown);
                }
            }
            catch (final IOException ex)
            {
                out.println("mdhub-peer-publisher: standard input closed: " + ex.getMessage());
            }
        }, "peer-publisher-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    private void onCommand(final String line, final PrintWriter out, final ToolShutdown shutdown)
    {
        if (line.startsWith("ur "))
        {
            try
            {
                final long newRate = Long.parseLong(line.substring(3).trim());
                if (newRate < 0)
                {
                    throw new NumberFormatException("negative");
                }
                commandedRate = newRate;
                out.println("mdhub-peer-publisher: rate now " + newRate + " updates/s");
            }
            catch (final NumberFormatException ex)
            {
                out.println("mdhub-peer-publisher: usage: ur <updates per second>");
            }
        }
        else if ("quit".equals(line) || "q".equals(line))
        {
            shutdown.stop();
        }
        else if (!line.isEmpty())
        {
            out.println("mdhub-peer-publisher: commands: ur <rate>, quit");
        }
        out.flush();
    }
}
