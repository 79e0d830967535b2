package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub chaos orders} and {@code bin/mdhub chaos md} as a user runs them, three rounds each with a fixed
 * seed: the order servers killed in turn, one during its own catch-up, and their backbone daemon; the distributor,
 * the p2p-server and the backbone daemon killed under the consumer. The tool exits 0 and its table has three rows,
 * each with nothing lost, nothing duplicated, no update skipped silently and the verdict ok.
 */
class ChaosSystemIT
{
    private static final long SEED = 20_240_601L;

    @TempDir
    Path dir;

    @Test
    @InterruptAfter(240)
    void threeOrderRoundsLoseAndDuplicateNothing() throws Exception
    {
        final Path out = dir.resolve("orders");
        final List<List<String>> rows = run(out, List.of("chaos", "orders", "--rounds", "3", "--seed",
            Long.toString(SEED), "--rate", "1000", "--round-seconds", "8", "--faults", "both,catch-up,backbone",
            "--server-jvm-opts", "-Xms128m -Xmx256m", "--out", out.toString()), 220);
        final List<String> header = rows.get(0);
        assertEquals(OrderRound.COLUMNS, header);
        for (final List<String> row : rows.subList(1, rows.size()))
        {
            assertEquals("0", row.get(header.indexOf("lost")), row::toString);
            assertEquals("0", row.get(header.indexOf("duplicated")), row::toString);
            assertEquals(row.get(header.indexOf("sent")), row.get(header.indexOf("acked")), row::toString);
            assertEquals("8000", row.get(header.indexOf("sent")), row::toString);
            assertEquals(Verdict.OK, row.get(header.size() - 1), row::toString);
        }
    }

    @Test
    @InterruptAfter(200)
    void threeMarketDataRoundsSkipNothingSilently() throws Exception
    {
        final Path out = dir.resolve("md");
        final List<List<String>> rows = run(out, List.of("chaos", "md", "--rounds", "3", "--seed",
            Long.toString(SEED), "--items", "500", "--rate", "2000", "--faults", "distributor,p2p,backbone",
            "--out", out.toString()), 180);
        final List<String> header = rows.get(0);
        assertEquals(MdRound.COLUMNS, header);
        for (final List<String> row : rows.subList(1, rows.size()))
        {
            assertEquals("0", row.get(header.indexOf("skipped silently")), row::toString);
            assertEquals("0", row.get(header.indexOf("streams closed")), row::toString);
            assertTrue(Long.parseLong(row.get(header.indexOf("to recovered (ms)"))) > 0, row::toString);
            assertEquals(Verdict.OK, row.get(header.size() - 1), row::toString);
        }
    }

    /**
     * Run the tool, check it printed its seed and exited 0, and read its CSV table back.
     *
     * @return the header, then a row per round (three).
     */
    private List<List<String>> run(final Path out, final List<String> args, final long timeoutSeconds)
        throws Exception
    {
        final Path log = dir.resolve(out.getFileName() + ".log");
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            final String output =
                SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, timeoutSeconds);
            System.out.print(output.substring(output.lastIndexOf(" round ")));
            assertTrue(output.contains("seed=" + SEED + " (re-run with --seed " + SEED + ")"), output);
            assertTrue(output.contains("3 round(s), all ok"), output);
            final List<String> lines = Files.readAllLines(out.resolve("table.csv"));
            assertEquals(4, lines.size(), () -> String.join("\n", lines));
            assertTrue(Files.readString(out.resolve("report.json")).contains("\"rounds_failed\" : 0"));
            assertTrue(Files.exists(out.resolve("report.md")));
            assertTrue(Files.exists(out.resolve("table.txt")));
            return lines.stream().map((line) -> List.of(line.split(",", -1))).toList();
        }
    }
}
