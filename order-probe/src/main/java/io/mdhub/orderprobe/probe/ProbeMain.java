package io.mdhub.orderprobe.probe;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.orderprobe.OrderClientOptions;
import io.mdhub.orderprobe.analysis.ProbeReport;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub probe}: one order probe run against running order servers — a creation thread at a steady rate,
 * publishing threads submitting synchronously, the pauses of the probe and (over JMX) of the servers — then the run
 * directory and its report. {@code --target NAME} points the same probe at another {@link OrderTarget} found on the
 * class path (the bench's references). Once the publishers are ready it prints the measured window
 * ({@link #MEASURING}), for whoever samples the processes under test over it.
 */
@Command(
    name = "mdhub probe",
    mixinStandardHelpOptions = true,
    version = "mdhub probe (MDHub)",
    sortOptions = false,
    description = "Order probe (the STAC Order Probe's design): creates orders at a steady rate, N publishing " +
        "threads submit them synchronously, create-to-end and send-to-end per order; writes a run directory " +
        "(orders, pauses of the probe and the servers) and its report. 'bin/mdhub probe analyse DIR...' reports on " +
        "runs again, merging the probes of each run.%nClient settings are mdhub.order.client.* keys.")
public final class ProbeMain implements Callable<Integer>
{
    /** A signalled run still writes its summary and files before the JVM exits. */
    private static final long RESULTS_WAIT_SECONDS = 120;

    /** Printed with the measured window's start and end in ns since the epoch: "probe A: measuring from ns X to Y". */
    public static final String MEASURING = "measuring from ns ";

    @Option(names = "--rate", required = true, paramLabel = "N", description = "This probe's orders per second.")
    long rate;

    @Option(names = "--duration", paramLabel = "S", description = "Seconds measured (default ${DEFAULT-VALUE}).")
    long durationSeconds = 60;

    @Option(names = "--warmup", paramLabel = "S",
        description = "Seconds submitted before measuring (JIT warm-up; default ${DEFAULT-VALUE}).")
    long warmupSeconds = 30;

    @Option(names = "--publishers", paramLabel = "N",
        description = "Publishing threads, each with its own client (default ${DEFAULT-VALUE}).")
    int publishers = 4;

    @Option(names = "--probe-id", paramLabel = "ID", description = "Probe name, A..F (default ${DEFAULT-VALUE}).")
    String probeId = "A";

    @Option(names = "--configuration", paramLabel = "NAME",
        description = "one_server, two_server, four_server or six_server (default ${DEFAULT-VALUE}).")
    String configuration = "two_server";

    @Option(names = "--total-rate", paramLabel = "N",
        description = "Orders per second of all probes of this run together (default: --rate).")
    long totalRate;

    @Option(names = "--label", paramLabel = "TEXT",
        description = "Run label shared by the probes of one run (default: configuration and total rate).")
    String label;

    @Option(names = "--server-jmx", paramLabel = "HOST:PORT,...", split = ",",
        description = "JMX endpoints of the servers whose pauses to read at the end ('local' for this JVM).")
    List<String> serverJmx = new ArrayList<>();

    @Option(names = "--client-id-base", paramLabel = "ID",
        description = "Publisher p's client id is ID + p (default: from the clock; probes started together need " +
            "their own).")
    Long clientIdBase;

    @Option(names = "--inject-stop", paramLabel = "PROCESS:PID:AT_S:MS",
        description = "Stop a process under test with SIGSTOP AT_S seconds into the measurement for MS ms, and " +
            "record it as a pause of PROCESS (checks the pause tracing); repeatable.")
    List<String> injectStops = new ArrayList<>();

    @Option(names = "--idle", paramLabel = "STRATEGY",
        description = "How a publisher with nothing to send waits: handoff (parked until the creation thread " +
            "hands it an order) or an idle strategy to poll with (default ${DEFAULT-VALUE}).")
    String idle = OrderProbe.HANDOFF;

    @Option(names = "--creation-timer-slack-ns", paramLabel = "NS",
        description = "Timer slack of the creation thread: how late past the time it asked its park may end " +
            "(default ${DEFAULT-VALUE}; 0 keeps the inherited slack, 50 us on Linux, every order then created late).")
    long creationTimerSlackNs = OrderProbe.DEFAULT_CREATION_TIMER_SLACK_NS;

    @Option(names = "--spike-us", paramLabel = "US",
        description = "Create-to-end above this is a spike to attribute (default ${DEFAULT-VALUE}).")
    long spikeUs = 1000;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory (default ${DEFAULT-VALUE}).")
    Path out = Path.of("probe-run");

    @Option(names = "--target", paramLabel = "NAME",
        description = "What the publishers submit to: " + OrderClientTarget.NAME + " (the order servers through the " +
            "order client, each publisher its own; the default) or a target found by name on the class path " +
            "(mdhub-bench.jar has tcp-floor and hazelcast).")
    String target = OrderClientTarget.NAME;

    @Option(names = "--target-option", paramLabel = "KEY=VALUE",
        description = "An option of a --target other than " + OrderClientTarget.NAME + "; repeatable.")
    Map<String, String> targetOptions = new LinkedHashMap<>();

    @CommandLine.Mixin
    OrderClientOptions clientOptions = new OrderClientOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter output = spec.commandLine().getOut();
        clientOptions.load(Map.of());
        final OrderProbe.Settings settings = new OrderProbe.Settings()
            .probeId(probeId)
            .configuration(configuration)
            .label(label)
            .rate(rate)
            .totalRate(totalRate)
            .warmupSeconds(warmupSeconds)
            .durationSeconds(durationSeconds)
            .publishers(publishers)
            .idleStrategy(idle)
            .creationTimerSlackNs(creationTimerSlackNs)
            .serverJmx(serverJmx)
            .stops(injectStops.stream().map(StopInjection::parse).toList())
            .client(new OrderClient.Context())
            .windowListener((startEpochNs, endEpochNs) -> printWindow(output, startEpochNs, endEpochNs))
            .out(out);
        if (!OrderClientTarget.NAME.equals(target))
        {
            try
            {
                settings.target(OrderTargets.create(target, targetOptions));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
            }
        }
        if (null != clientIdBase)
        {
            settings.clientIdBase(clientIdBase);
        }
        output.printf("probe %s: %d orders/s for %d s after %d s of warm-up, %d publishers to %s, writing %s%n",
            probeId, rate, durationSeconds, warmupSeconds, publishers, target, out);
        output.flush();
        final ProbeRun run;
        try (ToolShutdown stop = ToolShutdown.install("mdhub-probe", RESULTS_WAIT_SECONDS))
        {
            run = new OrderProbe(settings).run(stop::isStopped);
        }
        output.print(ProbeReport.write(RunGroup.group(List.of(run), spikeUs * 1000), out.resolve("report")));
        output.printf("probe %s: report in %s%n", probeId, out.resolve("report"));
        output.flush();
        return 0 == Long.parseLong(run.property(ProbeRun.FAILED)) ? 0 : 1;
    }

    private void printWindow(final PrintWriter output, final long startEpochNs, final long endEpochNs)
    {
        output.printf(Locale.ROOT, "probe %s: %s%d to %d%n", probeId, MEASURING, startEpochNs, endEpochNs);
        output.flush();
    }
}
