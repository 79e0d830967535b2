package io.mdhub.orderprobe;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.agrona.concurrent.IdleStrategy;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.latency.LatencySummary;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.client.OrderClientConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub orders-load}: submit FIX NewOrderSingles to the order servers at a steady rate through an
 * {@link OrderClient}, print a line per second and a summary, and write every acknowledged order to a CSV file for
 * the verifier. Exit status 0 only if every created order was acknowledged or finally rejected.
 */
@Command(
    name = "mdhub orders-load",
    mixinStandardHelpOptions = true,
    version = "mdhub orders-load (MDHub)",
    sortOptions = false,
    description = "Order load: creates orders at a steady rate (latency from the scheduled creation time), submits " +
        "them asynchronously to the order servers, reports per second, writes the acknowledged orders to a CSV.%n" +
        "Client settings are mdhub.order.client.* keys: --config files, then JVM -D options, then -D options given " +
        "here, then the shortcut options.")
public final class OrdersLoadMain implements Callable<Integer>
{
    /** A signalled run still writes its summary and files before the JVM exits. */
    private static final long RESULTS_WAIT_SECONDS = 120;

    @Option(names = "--rate", required = true, paramLabel = "N", description = "Orders per second.")
    long rate;

    @Option(names = "--duration", required = true, paramLabel = "S", description = "Seconds of order creation.")
    long durationSeconds;

    @Option(names = "--client-id", paramLabel = "ID",
        description = "Client id (default: a new one per run); same as -D " +
            OrderClientConfiguration.CLIENT_ID_PROP_NAME + "=ID.")
    Long clientId;

    @Option(names = "--window", paramLabel = "N",
        description = "Most orders in flight; same as -D " + OrderClientConfiguration.WINDOW_PROP_NAME + "=N.")
    Integer window;

    @Option(names = "--out", paramLabel = "FILE",
        description = "Write every acknowledged order (clientId,orderId,partition,epoch,sequence) to this CSV.")
    Path out;

    @Option(names = "--first-order-id", paramLabel = "ID",
        description = "Id of the first order; the others follow (default ${DEFAULT-VALUE}).")
    long firstOrderId = 1;

    @Option(names = "--warmup", paramLabel = "S",
        description = "Orders created in the first S seconds are left out of the latency summary " +
            "(default ${DEFAULT-VALUE}).")
    long warmupSeconds;

    @Option(names = "--drain-timeout", paramLabel = "S",
        description = "Seconds to wait for the last answers after creation ends (default ${DEFAULT-VALUE}).")
    long drainTimeoutSeconds = 30;

    @Option(names = "--ready-timeout", paramLabel = "S",
        description = "Seconds to wait for the servers' partition maps before starting (default ${DEFAULT-VALUE}).")
    long readyTimeoutSeconds = 30;

    @Option(names = "--order-length", paramLabel = "BYTES",
        description = "FIX order length (default ${DEFAULT-VALUE}, as the GemCache probe's).")
    int orderLength = FixNewOrderSingles.DEFAULT_LENGTH;

    @Option(names = "--idle", paramLabel = "STRATEGY",
        description = "Idle strategy of the load loop: backoff, yield, spin, sleep-ns:N, ... (default " +
            "${DEFAULT-VALUE}; a spinning one needs -D mdhub.spin.cores=1, and one more if the client's " +
            "mdhub.order.client.idle.strategy spins too).")
    String idle = IdleStrategies.BACKOFF;

    @CommandLine.Mixin
    OrderClientOptions client = new OrderClientOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter output = spec.commandLine().getOut();
        final Map<String, Object> shortcuts = new LinkedHashMap<>();
        shortcuts.put(OrderClientConfiguration.CLIENT_ID_PROP_NAME, clientId);
        shortcuts.put(OrderClientConfiguration.WINDOW_PROP_NAME, window);
        client.load(shortcuts);

        final IdleStrategy loopIdle = IdleStrategies.parse(idle);
        new SpinBudget("orders-load", IdleConfiguration.spinCores()).add("--idle", loopIdle).check();
        final OrderGenerator generator = new FixNewOrderSingles(orderLength);
        final OrderClient.Context ctx = new OrderClient.Context();
        if (ctx.maxOrderLength() < generator.maxLength())
        {
            ctx.maxOrderLength(generator.maxLength());
        }
        final OrdersLoad.Settings settings = new OrdersLoad.Settings()
            .rate(rate)
            .durationSeconds(durationSeconds)
            .firstOrderId(firstOrderId)
            .warmupSeconds(warmupSeconds)
            .drainTimeoutSeconds(drainTimeoutSeconds)
            .readyTimeoutSeconds(readyTimeoutSeconds);

        final OrdersLoad.Totals totals;
        final long id;
        try (ToolShutdown stop = ToolShutdown.install("mdhub-orders-load", RESULTS_WAIT_SECONDS);
            OrderClient client = OrderClient.connect(ctx))
        {
            id = client.clientId();
            final OrdersLoad load = new OrdersLoad(client, generator, settings, loopIdle);
            output.printf("orders-load: client %d, %d pair(s) %s, %d orders/s for %d s (%d orders of %d bytes), " +
                "window %d%n", id, client.pairCount(), ctx.servers(), rate, durationSeconds, load.plannedOrders(),
                orderLength, client.window());
            output.flush();
            totals = load.run(output, stop::isStopped);
            printSummary(output, client, totals);
            if (null != out)
            {
                final long rows = load.outcomes().writeAckedCsv(out, id);
                output.printf("orders-load: %d acknowledged orders written to %s%n", rows, out);
            }
        }
        output.flush();
        return totals.isComplete() ? 0 : 1;
    }

    private static void printSummary(final PrintWriter output, final OrderClient client, final OrdersLoad.Totals t)
    {
        if (!t.wasReady)
        {
            output.println("orders-load: the servers' partition maps did not arrive (are the servers up and " +
                "reachable at the addresses given?)");
            return;
        }
        output.printf("orders-load: created %d of %d, sent %d, acked %d (duplicate %d, unreplicated %d), " +
            "rejected %d, unresolved %d%n", t.created, t.planned, t.submitted, t.acked, t.duplicates,
            t.unreplicated, t.rejected, t.unresolved());
        final StringBuilder reasons = new StringBuilder();
        for (final RejectReason reason : RejectReason.values())
        {
            if (t.rejectsByReason[reason.ordinal()] > 0)
            {
                reasons.append(' ').append(reason).append('=').append(t.rejectsByReason[reason.ordinal()]);
            }
        }
        if (reasons.length() > 0)
        {
            output.println("orders-load: rejects by reason:" + reasons);
        }
        output.printf("orders-load: client: sends %d, resends %d, ack timeouts %d, retryable rejects %d, " +
            "server losses %d, back-pressure %d, window-full stalls %d, stale answers %d%n", client.sendCount(),
            client.resendCount(), client.ackTimeoutCount(), client.retryableRejectCount(), client.serverLossCount(),
            client.backPressureCount(), t.windowFullStalls, client.staleAnswerCount());
        if (t.doubleOutcomes > 0)
        {
            output.printf("orders-load: ERROR: %d orders were reported twice%n", t.doubleOutcomes);
        }
        final LatencySummary summary = new LatencySummary("latency")
            .add("create-to-end", t.createToEnd)
            .add("send-to-end", t.sendToEnd);
        output.println(summary.header());
        output.println(summary.csvLine(0));
        output.println(summary.csvLine(1));
        output.println(t.isComplete() ? "orders-load: complete: every created order was acknowledged or rejected" :
            "orders-load: INCOMPLETE: " + t.unresolved() + " created order(s) without an outcome");
    }
}
