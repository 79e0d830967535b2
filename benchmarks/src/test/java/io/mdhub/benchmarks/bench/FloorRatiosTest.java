package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;

/**
 * A configuration's ratios to the floor pair each repeat with the floor's run of the same rate and repeat, and the
 * median is taken over the repeats.
 */
@InterruptAfter(30)
class FloorRatiosTest
{
    private static final long T0 = 1_700_000_000_000_000_000L;

    @Test
    void eachRepeatIsDividedByTheFloorsOfTheSameRepeatAndTheMedianTaken()
    {
        final List<ProbeRun> runs = new ArrayList<>();
        runs.add(run("tcp_floor 2000/s run 1", 200_000));
        runs.add(run("tcp_floor 2000/s run 2", 400_000));
        runs.add(run("tcp_floor 2000/s run 3", 100_000));
        runs.add(run("two_server 2000/s run 1", 300_000)); // 1.5 x its floor
        runs.add(run("two_server 2000/s run 2", 400_000)); // 1.0 x
        runs.add(run("two_server 2000/s run 3", 120_000)); // 1.2 x
        runs.add(run("two_server 6000/s run 1", 500_000)); // no floor at this rate: no row
        final String table = FloorRatios.of(RunGroup.group(runs, 1_000_000), Map.of()).describe();

        assertTrue(table.contains("| two_server 2000/s | 1.50, 1.00, 1.20 → **1.20** | 1.50, 1.00, 1.20 → **1.20** " +
            "| –, –, – → **–** |"), table);
        assertTrue(!table.contains("6000"), table);
    }

    @Test
    void cpuPerOrderIsDividedByTheFloorsUnlessEitherRunFellBehind()
    {
        final List<ProbeRun> runs = new ArrayList<>();
        runs.add(run("tcp_floor 2000/s run 1", 200_000));
        runs.add(run("tcp_floor 2000/s run 2", 200_000));
        runs.add(run("two_server 2000/s run 1", 200_000));
        runs.add(run("two_server 2000/s run 2", 200_000));
        final Map<String, RunCpu> cpu = Map.of(
            "tcp_floor 2000/s run 1", cpu(200, false),
            "tcp_floor 2000/s run 2", cpu(250, false),
            "two_server 2000/s run 1", cpu(240, false), // 1.2 x its floor
            "two_server 2000/s run 2", cpu(100, true)); // behind the rate: its CPU is no cost per order
        final String table = FloorRatios.of(RunGroup.group(runs, 1_000_000), cpu).describe();

        assertTrue(table.contains("| two_server 2000/s | 1.00, 1.00 → **1.00** | 1.00, 1.00 → **1.00** " +
            "| 1.20, – → **1.20** |"), table);
    }

    /**
     * A run's accounting of one process: {@code usPerOrder} of CPU for each of 10,000 orders created, all answered
     * or (behind) half of them.
     */
    private static RunCpu cpu(final long usPerOrder, final boolean isBehind)
    {
        final long orders = 10_000;
        final long cpuNs = usPerOrder * 1_000 * orders;
        return new RunCpu(List.of(new RunCpu.Entry(new RunCpu.Watched(RunCpu.Role.SERVER, "server-0", 1),
            new ProcessCpu.Usage(cpuNs, cpuNs, 1, 1, 20, 20, 0, false))), 10_000_000_000L, orders,
            isBehind ? orders / 2 : orders);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndUnknownsAreLeftOut()
    {
        assertEquals(1.5, FloorRatios.median(List.of(2.0, 1.0, Double.NaN, 1.0, 2.0)), 1e-9);
        assertTrue(Double.isNaN(FloorRatios.median(List.of(Double.NaN))));
        assertEquals("3", FloorRatios.repeatOf("two_server 2000/s run 3"));
    }

    /**
     * One probe's run: 1,000 orders, every one taking {@code latencyNs} from creation to end.
     */
    private static ProbeRun run(final String label, final long latencyNs)
    {
        final int count = 1_000;
        final long[] create = new long[count];
        final long[] send = new long[count];
        final long[] end = new long[count];
        for (int i = 0; i < count; i++)
        {
            create[i] = T0 + i * 1_000_000L;
            send[i] = create[i];
            end[i] = create[i] + latencyNs;
        }
        final Properties properties = new Properties();
        properties.setProperty(ProbeRun.PROBE_ID, "A");
        properties.setProperty(ProbeRun.RUN_LABEL, label);
        properties.setProperty(ProbeRun.CONFIGURATION, label.substring(0, label.indexOf(' ')));
        properties.setProperty(ProbeRun.TOTAL_RATE, label.replaceAll(".* (\\d+)/s.*", "$1"));
        properties.setProperty(ProbeRun.MEASURE_START_EPOCH_NS, Long.toString(T0));
        return new ProbeRun(properties, create, send, end, List.of());
    }
}
