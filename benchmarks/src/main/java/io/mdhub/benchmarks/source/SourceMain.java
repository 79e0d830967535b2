package io.mdhub.benchmarks.source;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.mdhub.benchmarks.tools.RateCommands;
import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.ripc.NettyProcessDefaults;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub source}: publish an item universe into a distributor as a non-interactive provider, or with
 * {@code --interactive} listen for consumers (a distributor's routes) and answer their item requests as a
 * sink-driven interactive provider; print a line per second, and take {@code ur <rate>} (update rate) and
 * {@code quit} on standard input while running, as the original RMDS source tools did.
 */
@Command(
    name = "mdhub source",
    mixinStandardHelpOptions = true,
    version = "mdhub source (MDHub)",
    description = {
        "Market data source. By default a non-interactive provider: connects to a distributor and publishes every "
            + "item of its universe, then updates them at the commanded rate.",
        "With --interactive, a sink-driven interactive provider (RMDS's Sink_Driven_Src): listens on --port for "
            + "consumers (a distributor's --route, an ETA consumer), accepts consumer logins, answers the source "
            + "directory (one service), MarketPrice requests for any item name (refresh, snapshot, reissue, batch, "
            + "close) and the RWFFld/RWFEnum dictionaries, and updates each connection's open items at --rate "
            + "updates/s per connection.",
        "While running: 'ur <rate>' on standard input changes the update rate, 'quit' stops."})
public final class SourceMain implements Callable<Integer>
{
    @Option(names = "--interactive",
        description = "Listen for consumers and answer their requests instead of connecting to a distributor.")
    boolean interactive;

    @Option(names = "--host", description = "Distributor host (default ${DEFAULT-VALUE}; not with --interactive).")
    String host = "127.0.0.1";

    @Option(names = "--bind",
        description = "With --interactive: address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for all).")
    String bindAddress = "127.0.0.1";

    @Option(names = "--port", description = "Distributor provider port to connect to (default 14003), or with "
        + "--interactive the port to listen on (default 14002, 0 = any free port).")
    Integer port;

    @Option(names = "--service",
        description = "Service name published (default NI_PUB, or MDH_SINK with --interactive).")
    String service;

    @Option(names = "--service-id", description = "The provider's service id (default ${DEFAULT-VALUE}).")
    int serviceId = 1;

    @Option(names = "--user", description = "Provider login user name (default mdhub-source; not with --interactive)"
        + ": what the distributor's entitlement file knows the provider as.")
    String user;

    @Option(names = "--lock", description = "The items' lock, sent as the PermData of every refresh, e.g. 62 or "
        + "62,144 (any of) or 62+144 (all of); not with --interactive.")
    String lock;

    @Option(names = "--items", description = "Generated universe size (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--item-file", description = "Item names, one per line (instead of --items).")
    Path itemFile;

    @Option(names = "--rate", description = "Updates per second over all items (default ${DEFAULT-VALUE}); with "
        + "--interactive, per connection over its open items.")
    long rate = 1000;

    @Option(names = "--tick-us", description = "With --interactive: the pacing period in microseconds, 100 to "
        + "1,000,000; each tick sends the updates that came due since the last as one burst, one flush "
        + "(default ${DEFAULT-VALUE}).")
    long tickUs = 1000;

    @Option(names = "--max-burst", description = "Most updates one tick sends when catching up after a stall or a "
        + "push-back; a backlog beyond it is dropped and counted as skipped (default ${DEFAULT-VALUE}).")
    int maxBurst = UpdatePacer.MAX_BURST_DEFAULT;

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
        NettyProcessDefaults.apply();
        System.exit(new CommandLine(new SourceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        if (interactive)
        {
            return runInteractive();
        }
        final PrintWriter out = spec.commandLine().getOut();
        final int distributorPort = null != port ? port : 14003;
        final String serviceName = null != service ? service : "NI_PUB";
        final Source.Context ctx = new Source.Context()
            .host(host)
            .port(distributorPort)
            .serviceName(serviceName)
            .serviceId(serviceId)
            .itemCount(items)
            .rate(rate)
            .maxBurst(maxBurst)
            .timestampEvery(timestampEvery)
            .lock(lock);
        if (null != user)
        {
            ctx.userName(user);
        }
        if (null != itemFile)
        {
            ctx.items(ItemUniverse.fromFile(itemFile));
        }

        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-source");
            Source source = Source.launch(ctx))
        {
            out.printf("mdhub-source: publishing %d items of %s to %s:%d at %d updates/s%n",
                ctx.items().size(), serviceName, host, distributorPort, rate);
            out.flush();
            RateCommands.start("mdhub-source", source::rate, out, shutdown);
            final long endNs = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) :
                Long.MAX_VALUE;
            long lastUpdates = 0;
            while (source.isActive() && System.nanoTime() < endNs && !shutdown.await(1000))
            {
                final SourceStats stats = source.stats();
                final long updates = stats.updatesSent();
                out.printf("source: refreshes %d, updates/s %d, updates %d, target %d/s, skipped %d, push-backs %d%n",
                    stats.refreshesSent(), updates - lastUpdates, updates, stats.targetRate(), stats.skipped(),
                    stats.pushBacks());
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

    private int runInteractive() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final InteractiveSource.Context ctx = new InteractiveSource.Context()
            .bindAddress(bindAddress)
            .port(null != port ? port : InteractiveSource.Context.PORT_DEFAULT)
            .serviceName(null != service ? service : InteractiveSource.Context.SERVICE_NAME_DEFAULT)
            .serviceId(serviceId)
            .rate(rate)
            .tickNs(TimeUnit.MICROSECONDS.toNanos(tickUs))
            .maxBurst(maxBurst)
            .timestampEvery(timestampEvery);
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-source");
            InteractiveSource source = InteractiveSource.launch(ctx))
        {
            out.printf("mdhub-source: interactive, listening on %s:%d, service %s (id %d), %d updates/s per " +
                "connection%n", bindAddress, source.port(), ctx.serviceName(), serviceId, rate);
            out.flush();
            RateCommands.start("mdhub-source", source::rate, out, shutdown);
            final long endNs = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) :
                Long.MAX_VALUE;
            long lastUpdates = 0;
            while (System.nanoTime() < endNs && !shutdown.await(1000))
            {
                final InteractiveSourceStats stats = source.stats();
                final long updates = stats.updatesSent();
                out.printf("source: connections %d, open items %d, requests %d, closes %d, refreshes %d, " +
                    "updates/s %d, updates %d, target %d/s, backoffs %d, rejected %d%n",
                    stats.connections(), stats.openItems(), stats.requests(), stats.closes(), stats.refreshesSent(),
                    updates - lastUpdates, updates, stats.targetRate(), stats.writeBackoffs(), stats.rejected());
                out.flush();
                lastUpdates = updates;
            }
            out.println("mdhub-source: " + source.stats());
        }
        return 0;
    }
}
