package io.mdhub.p2p;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;

import io.mdhub.backbone.BackboneAttachment;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.ServerOptions;
import io.mdhub.common.management.ManagementConfiguration;
import io.mdhub.common.management.ManagementServer;
import io.mdhub.common.management.jmx.JmxServer;
import io.mdhub.common.metrics.CountersExport;
import io.mdhub.common.pause.PauseRecorder;
import io.mdhub.common.ripc.NettyProcessDefaults;
import io.mdhub.common.status.MdCounters;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;
import io.mdhub.p2p.order.OrderService;
import io.mdhub.p2p.order.OrderServiceConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/mdhub p2p} ({@code mdhub-p2p.jar}): a Point-to-Point server fed by the backbone. By default it joins the
 * host's backbone daemon through its Aeron directory; {@code --embedded-driver} runs a media driver in this process
 * instead. An order server without market data ({@code mdhub.p2p.market.data.enabled=false}) joins no backbone.
 * Prints its configuration and a ready line, exports its counters over JMX, and closes cleanly on SIGINT/SIGTERM.
 */
@Command(
    name = "mdhub p2p",
    mixinStandardHelpOptions = true,
    version = "mdhub-p2p (MDHub)",
    description = "Point-to-Point server: backbone consumer, RSSL server for consumer applications; order service.",
    subcommands = {io.mdhub.p2p.order.VerifyOrdersMain.class, io.mdhub.p2p.entitlement.UsageReportMain.class})
public final class P2pMain implements Callable<Integer>
{
    /**
     * Printed once the server listens; scripts and tests wait for it.
     */
    public static final String READY_LINE_PREFIX = "mdhub-p2p ready";

    @CommandLine.Mixin
    private final ServerOptions options = new ServerOptions();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command line; {@code --help} lists it.
     */
    public static void main(final String[] args)
    {
        NettyProcessDefaults.apply();
        System.exit(new CommandLine(new P2pMain())
            .setExecutionExceptionHandler(ServerOptions.exitOnBadConfiguration("mdhub-p2p"))
            .execute(args));
    }

    /**
     * @return the exit status: 0, or {@link BackboneLink#EXIT_BACKBONE_LOST} when the backbone daemon did not come
     * back in time.
     */
    private int serveMarketData(
        final PrintWriter out, final ShutdownSignalBarrier barrier, final OrderService orders, final String orderInfo,
        final JmxServer jmx)
    {
        try (BackboneAttachment backbone = BackboneAttachment.attach(options.isEmbeddedDriver()))
        {
            // a backbone that does not come back ends the process (orderly, through the barrier) for a supervisor
            backbone.link().onGiveUp(barrier::signal);
            final P2pServer.Context ctx = new P2pServer.Context().itemSourceFactory(
                new BackboneItemSourceFactory(backbone.link(), new BackboneItemSourceFactory.Settings()));
            try (P2pServer server = P2pServer.launch(ctx);
                CountersExport export = CountersExport.start(
                    ctx.countersManager(), ctx.componentName(), MdCounters::isMonotonic);
                ManagementServer http = launchHttp(ctx.componentName(), server, backbone.link(), orders))
            {
                backbone.link().counters(ctx.counters().backboneReconnects(), ctx.counters().backboneUp());
                final StringBuilder extra = new StringBuilder();
                for (int i = 0; i < ctx.extraListeners().size(); i++)
                {
                    extra.append(0 == i ? " extraListeners=" : ",").append(server.port(i + 1)).append(':')
                        .append(ctx.extraListeners().get(i).profile().name().toLowerCase());
                }
                out.println(READY_LINE_PREFIX + ": port=" + server.port() + extra + " aeronDir=" +
                    backbone.aeronDirectoryName() + " workers=" + ctx.workers() + orderInfo + " " +
                    ManagementServer.describe(http) + " " + JmxServer.describe(jmx) + " pid=" +
                    ProcessHandle.current().pid());
                out.flush();
                barrier.await();
            }
            return backbone.link().isGivenUp() ? BackboneLink.EXIT_BACKBONE_LOST : 0;
        }
    }

    private static ManagementServer launchHttp(
        final String component, final P2pServer server, final BackboneLink link, final OrderService orders)
    {
        return ManagementServer.launch(new ManagementServer.Context()
            .port(P2pConfiguration.httpPort(), P2pConfiguration.HTTP_PORT_PROP_NAME)
            .checks(P2pHealth.of(component, server, link, orders, ManagementConfiguration.loopTimeoutMs())));
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        options.loadConfiguration(P2pConfiguration.PORT_PROP_NAME);

        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final String processName = OrderServiceConfiguration.isEnabled() ? OrderServiceConfiguration.processName() :
            P2pConfiguration.componentName();
        // remote JMX first: a bad or unsafe setting stops the process before it serves anything
        try (JmxServer jmx = JmxServer.launch(processName);
            // the pause timeline an order probe reads over JMX at the end of a run, named as the probe reports it
            PauseRecorder pauses = PauseRecorder.startForServer(processName);
            OrderService orders = OrderServiceConfiguration.isEnabled() ?
                OrderService.launch(new OrderService.Context()) : null;
            CountersExport orderCounters = null == orders ? null : CountersExport.start(
                orders.countersReader(), OrderServiceConfiguration.processName(), MdCounters::isMonotonic))
        {
            final String orderInfo = null == orders ? "" : " orders=server-" + orders.context().serverId() +
                " address=" + orders.address();
            if (!P2pConfiguration.marketDataEnabled())
            {
                // the order service speaks TCP only: without market data this process needs no media driver
                try (ManagementServer http = launchHttp(OrderServiceConfiguration.processName(), null, null, orders))
                {
                    out.println(READY_LINE_PREFIX + ": marketData=off" + orderInfo + " " +
                        ManagementServer.describe(http) + " " + JmxServer.describe(jmx) + " pid=" +
                        ProcessHandle.current().pid());
                    out.flush();
                    barrier.await();
                }
                return 0;
            }
            return serveMarketData(out, barrier, orders, orderInfo, jmx);
        }
        finally
        {
            barrier.remove();
            out.println("mdhub-p2p closed");
            out.flush();
        }
    }
}
