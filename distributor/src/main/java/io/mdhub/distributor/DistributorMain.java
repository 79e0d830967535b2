package io.mdhub.distributor;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;

import io.mdhub.backbone.BackboneAttachment;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.ServerOptions;
import io.mdhub.common.management.ManagementConfiguration;
import io.mdhub.common.management.ManagementServer;
import io.mdhub.common.management.jmx.JmxServer;
import io.mdhub.common.metrics.CountersExport;
import io.mdhub.common.ripc.NettyProcessDefaults;
import io.mdhub.common.status.MdCounters;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/mdhub distributor} ({@code mdhub-distributor.jar}): a Source Distributor that takes data from
 * non-interactive providers, and from the interactive providers it mounts ({@code --route host:port}), and publishes
 * it on the backbone. By default it joins the host's backbone daemon
 * through its Aeron directory; {@code --embedded-driver} runs a media driver in this process instead. Prints a
 * ready line, exports its counters over JMX, closes cleanly on SIGINT/SIGTERM.
 */
@Command(
    name = "mdhub distributor",
    mixinStandardHelpOptions = true,
    version = "mdhub-distributor (MDHub)",
    description = "Source Distributor: RSSL server for non-interactive providers and routes to interactive " +
        "providers, publishing onto the backbone.")
public final class DistributorMain implements Callable<Integer>
{
    /**
     * Printed once the distributor listens; scripts and tests wait for it.
     */
    public static final String READY_LINE_PREFIX = "mdhub-distributor ready";

    @CommandLine.Mixin
    private final ServerOptions options = new ServerOptions();

    @CommandLine.Option(names = "--route", paramLabel = "HOST:PORT",
        description = "Mount an interactive provider listening there (repeatable; endpoints announcing the same " +
        "service mirror it). Adds to " + DistributorConfiguration.ROUTES_PROP_NAME + ".")
    private final List<String> routes = new ArrayList<>();

    @CommandLine.Option(names = "--route-mirroring", paramLabel = "MODE",
        description = "hot-standby or load-balance (" + DistributorConfiguration.ROUTE_MIRRORING_PROP_NAME + ").")
    private String routeMirroring;

    @CommandLine.Option(names = "--route-cache", paramLabel = "true|false", arity = "1",
        description = "Cache sink-driven items; false = every request gets a fresh refresh from the provider (" +
        DistributorConfiguration.ROUTE_CACHE_ENABLED_PROP_NAME + ").")
    private Boolean routeCache;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command line; {@code --help} lists it.
     */
    public static void main(final String[] args)
    {
        NettyProcessDefaults.apply();
        System.exit(new CommandLine(new DistributorMain())
            .setExecutionExceptionHandler(ServerOptions.exitOnBadConfiguration("mdhub-distributor"))
            .execute(args));
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        options.loadConfiguration(DistributorConfiguration.PROVIDER_PORT_PROP_NAME);

        final Distributor.Context ctx = new Distributor.Context();
        if (!routes.isEmpty())
        {
            final String configured = ctx.routes().isBlank() ? "" : ctx.routes() + ",";
            ctx.routes(configured + String.join(",", routes));
        }
        if (null != routeMirroring)
        {
            ctx.routeMirroring(routeMirroring);
        }
        if (null != routeCache)
        {
            ctx.routeCacheEnabled(routeCache);
        }
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        // remote JMX first: a bad or unsafe setting stops the process before it serves anything
        try (JmxServer jmx = JmxServer.launch(ctx.componentName());
            // no backbone, no client: its conductor runs on the backbone's loop, and nothing would keep it alive
            BackboneAttachment backbone = ctx.backbone().enabled() ?
                BackboneAttachment.attach(options.isEmbeddedDriver()) : null)
        {
            if (null != backbone)
            {
                ctx.backbone().link(backbone.link());
                // a backbone that does not come back ends the process (orderly, through the barrier) for a supervisor
                backbone.link().onGiveUp(barrier::signal);
            }
            try (Distributor distributor = Distributor.launch(ctx);
                CountersExport export = CountersExport.start(
                    distributor.countersReader(), ctx.componentName(), MdCounters::isMonotonic);
                ManagementServer http = ManagementServer.launch(new ManagementServer.Context()
                    .port(DistributorConfiguration.httpPort(), DistributorConfiguration.HTTP_PORT_PROP_NAME)
                    .checks(DistributorHealth.of(distributor, ManagementConfiguration.loopTimeoutMs()))))
            {
                out.println(READY_LINE_PREFIX + ": port=" + distributor.port() + " aeronDir=" +
                    (null == backbone ? "none" : backbone.aeronDirectoryName()) + " routes=" +
                    (ctx.routes().isBlank() ? "none" : ctx.routes()) + " " + ManagementServer.describe(http) +
                    " " + JmxServer.describe(jmx) + " pid=" + ProcessHandle.current().pid());
                out.flush();
                barrier.await();
            }
            return null != backbone && backbone.link().isGivenUp() ? BackboneLink.EXIT_BACKBONE_LOST : 0;
        }
        finally
        {
            barrier.remove();
            out.println("mdhub-distributor closed");
            out.flush();
        }
    }
}
