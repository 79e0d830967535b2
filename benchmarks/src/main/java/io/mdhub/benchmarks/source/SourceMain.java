package io.mdhub.benchmarks.source;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.mdhub.benchmarks.tools.ToolShutdown;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub source}: publish an item universe into a distributor as a non-interactive provider, print a
 * line per second, and take {@code ur <rate>} (update rate) and {@code quit} on standard input while running, as
 * the original RMDS source tool did.
 */
@Command(
    name = "mdhub source",
    mixinStandardHelpOptions = true,
    version = "mdhub source (MDHub)",
    description = "Market data source: publishes items into a distributor as a non-interactive provider.")
public final class SourceMain implements Callable<Integer>
{
    @Option(names = "--host", description = "Distributor host (default ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "Distributor provider port (default ${DEFAULT-VALUE}).")
    int port = 14003;

    @Option(names = "--service", description = "Service name published (default ${DEFAULT-VALUE}).")
    String service = "NI_PUB";

    @Option(names = "--service-id", description = "The provider's service id (default ${DEFAULT-VALUE}).")
    int serviceId = 1;

    @Option(names = "--items", description = "Generated universe size (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--item-file", description = "Item names, one per line (instead of --items).")
    Path itemFile;

    @Option(names = "--rate", description = "Updates per second over all items (default ${DEFAULT-VALUE}).")
    long rate = 1000;

    @Option(names = "--timestamp-every",
        description = "Every n-th update carries a timestamp (default ${DEFAULT-VALUE}).")
    int timestampEvery = 10;

    @Option(names = "--duration",
        description = "Seconds to run, 0 = until Ctrl-C or 'quit' (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new SourceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final Source.Context ctx = new Source.Context()
            .host(host)
            .port(port)
            .serviceName(service)
            .serviceId(serviceId)
            .itemCount(items)
            .rate(rate)
            .timestampEvery(timestampEvery);
        if (null != itemFile)
        {
            ctx.items(ItemUniverse.fromFile(itemFile));
        }

        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-source");
            Source source = Source.launch(ctx))
        {
            out.printf("mdhub-source: publishing %d items of %s to %s:%d at %d updates/s%n",
                ctx.items().size(), service, host, port, rate);
            out.flush();
            startCommandReader(source, out, shutdown);
            final long endNs = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) :
                Long.MAX_VALUE;
            long lastUpdates = 0;
            while (source.isActive() && System.nanoTime() < endNs && !shutdown.await(1000))
            {
                final SourceStats stats = source.stats();
                final long updates = stats.updatesSent();
                out.printf("source: refreshes %d, updates/s %d, updates %d, target %d/s, lagging %d%n",
                    stats.refreshesSent(), updates - lastUpdates, updates, stats.targetRate(), stats.lagging());
                out.flush();
                lastUpdates = updates;
            }
            if (source.stats().isLoginRefused())
            {
                out.println("mdhub-source: the distributor refused the login");
                return 1;
            }
        }
        return 0;
    }

    private void startCommandReader(final Source source, final PrintWriter out, final ToolShutdown shutdown)
    {
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    onCommand(source, out, line.trim(), shutdown);
                }
            }
            catch (final java.io.IOException ex)
            {
                out.println("mdhub-source: standard input closed: " + ex.getMessage());
            }
        }, "mdhub-source-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    private static void onCommand(
        final Source source, final PrintWriter out, final String line, final ToolShutdown shutdown)
    {
        if (line.startsWith("ur "))
        {
            try
            {
                final long newRate = Long.parseLong(line.substring(3).trim());
                source.rate(newRate);
                out.println("mdhub-source: rate now " + newRate + " updates/s");
            }
            catch (final IllegalArgumentException ex)
            {
                out.println("mdhub-source: usage: ur <updates per second>");
            }
        }
        else if ("quit".equals(line) || "q".equals(line))
        {
            shutdown.stop();
        }
        else if (!line.isEmpty())
        {
            out.println("mdhub-source: commands: ur <rate>, quit");
        }
        out.flush();
    }
}
