package io.mdhub.benchmarks.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import picocli.CommandLine;

@InterruptAfter(30)
class GateCheckTest
{
    private static final String FLYWEIGHT =
        "io.mdhub.benchmarks.rwf.RwfFlyweightBenchmark.updateHeaderAndStreamIdRewrite";
    private static final String ETA = "io.mdhub.benchmarks.rwf.EtaFullDecodeBenchmark.level1UpdateFullDecode";

    @TempDir
    Path dir;

    /**
     * A JMH JSON result file as JMH writes it (the fields the gate reads, among others it skips).
     */
    private Path jmhJson(final String name, final double calibrationNs, final double flyweightNs, final double etaNs,
        final double flyweightBytes) throws Exception
    {
        final String json = "[" + run(GateCheck.CALIBRATION, calibrationNs, 0.002) + "," +
            run(FLYWEIGHT, flyweightNs, flyweightBytes) + "," + run(ETA, etaNs, 312.0) + "]";
        final Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private static String run(final String benchmark, final double score, final double bytes)
    {
        return String.format(Locale.ROOT, "{\"jmhVersion\":\"1.37\",\"benchmark\":\"%s\",\"mode\":\"avgt\"," +
            "\"threads\":1,\"forks\":1,\"jvmArgs\":[\"-Xmx256m\"],\"primaryMetric\":{\"score\":%f,\"scoreError\":0.5," +
            "\"scoreConfidence\":[1.0,2.0],\"scorePercentiles\":{\"50.0\":1.0},\"scoreUnit\":\"ns/op\"," +
            "\"rawData\":[[1.0,2.0]]},\"secondaryMetrics\":{\"gc.alloc.rate\":{\"score\":0.01,\"scoreUnit\":" +
            "\"MB/sec\"},\"gc.alloc.rate.norm\":{\"score\":%f,\"scoreError\":\"NaN\",\"scoreUnit\":\"B/op\"}}}",
            benchmark, score, bytes);
    }

    private int gate(final String... args)
    {
        final StringWriter out = new StringWriter();
        return new CommandLine(new GateMain()).setOut(new PrintWriter(out)).execute(args);
    }

    @Test
    void readsJmhJson() throws Exception
    {
        final List<GateResult> results = GateResults.read(jmhJson("run.json", 100, 20, 300, 0.001));
        assertEquals(3, results.size());
        assertEquals(FLYWEIGHT, results.get(1).benchmark());
        assertEquals(20, results.get(1).nsPerOp(), 1e-9);
        assertEquals(312.0, results.get(2).bytesPerOp(), 1e-9);
        assertEquals("RwfFlyweightBenchmark.updateHeaderAndStreamIdRewrite", results.get(1).shortName());
        assertTrue(GateResults.isMarkedNoAllocation(GateCheck.CALIBRATION));
        assertFalse(GateResults.isMarkedNoAllocation(ETA), "full ETA decoding allocates by design");
    }

    @Test
    void passesOnItsBaselineAndOnAMachineTwiceAsSlow() throws Exception
    {
        final Path baseline = dir.resolve("baseline.csv");
        final Path run = jmhJson("run.json", 100, 20, 300, 0.001);
        assertEquals(0, gate("--results", run.toString(), "--baseline", baseline.toString(), "--update-baseline",
            "--out", dir.resolve("out").toString()));
        assertTrue(Files.readString(baseline).startsWith(GateBaseline.HEADER + "\n"));
        assertEquals(0.2, GateBaseline.read(baseline).get(FLYWEIGHT), 1e-9);

        assertEquals(0, gate("--results", run.toString(), "--baseline", baseline.toString(),
            "--out", dir.resolve("out").toString()));
        final Path slowMachine = jmhJson("slow-machine.json", 200, 40, 600, 0.001);
        assertEquals(0, gate("--results", slowMachine.toString(), "--baseline", baseline.toString(),
            "--out", dir.resolve("out").toString()), "every score doubled with the calibration's: no regression");
    }

    @Test
    void failsOnADeliberatelySlowedBenchmark() throws Exception
    {
        final Path baseline = dir.resolve("baseline.csv");
        GateBaseline.write(baseline, GateResults.read(jmhJson("base.json", 100, 20, 300, 0.001)), 100);
        final List<GateResult> slowed = GateResults.read(jmhJson("slowed.json", 100, 30, 300, 0.001));

        final GateCheck check = GateCheck.judge(slowed, GateBaseline.read(baseline), 0.25,
            GateResults::isMarkedNoAllocation);
        assertFalse(check.isPassed(), check.report());
        assertEquals(List.of("RwfFlyweightBenchmark.updateHeaderAndStreamIdRewrite SLOWER by 50 % (margin 25 %)"),
            check.failures());
        assertTrue(GateCheck.judge(slowed, GateBaseline.read(baseline), 0.6, GateResults::isMarkedNoAllocation)
            .isPassed(), "within a wider margin");
        assertEquals(1, gate("--results", dir.resolve("slowed.json").toString(), "--baseline", baseline.toString(),
            "--out", dir.resolve("out").toString()));
        assertTrue(Files.readString(dir.resolve("out").resolve("report.txt")).contains("gate: FAILED"));
    }

    @Test
    void failsWhenAPathThatMustNotAllocateAllocates() throws Exception
    {
        final List<GateResult> allocating = GateResults.read(jmhJson("alloc.json", 100, 20, 300, 24.0));
        final GateCheck check = GateCheck.judge(allocating, null, 0.25, (name) -> FLYWEIGHT.equals(name));
        assertFalse(check.isPassed());
        assertEquals(List.of("RwfFlyweightBenchmark.updateHeaderAndStreamIdRewrite must not allocate: " +
            "ALLOCATES 24.0 B/op"), check.failures());
        assertTrue(GateCheck.judge(allocating, null, 0.25, (name) -> false).isPassed(), "allocation only judged " +
            "where it is not allowed");
    }

    @Test
    void aBenchmarkWithoutABaselineIsNewAndAMissingCalibrationFails() throws Exception
    {
        final List<GateResult> run = GateResults.read(jmhJson("run.json", 100, 20, 300, 0.001));
        final GateCheck fresh = GateCheck.judge(run, java.util.Map.of(), 0.25, (name) -> false);
        assertTrue(fresh.isPassed(), fresh.report());
        assertTrue(fresh.report().contains("new (no baseline)"), fresh.report());
        final GateCheck blind = GateCheck.judge(run.subList(1, 3), java.util.Map.of(FLYWEIGHT, 0.2), 0.25,
            (name) -> false);
        assertFalse(blind.isPassed());
    }
}
