package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * {@code bench throughput --chart-from CSV --out SVG} draws a committed results.csv without running anything: the
 * SVG holds a series per test in the CSV, the unsustained steps apart and the published figures as lines.
 */
@Timeout(60)
class ThroughputChartTest
{
    private static final String CSV = ThroughputBench.Step.CSV_HEADER + "\n" +
        "fanout,80000,80064,4022520,50.2,0,true\n" +
        "fanout,90000,90057,4520241,50.2,0,true\n" +
        "nofanout,1000000,1000400,1000000,1.0,0,true\n" +
        "nofanout,1200000,1200840,1202399,1.0,0,true\n" +
        "distributor,1000000,1000500,1000098,1.0,0,true\n" +
        "distributor,1500000,1485714,1485023,1.0,0,false\n";

    @TempDir
    Path dir;

    @Test
    void drawsTheCommittedCsvWithASeriesPerTest() throws IOException
    {
        final Path csv = dir.resolve("results.csv");
        Files.writeString(csv, CSV, StandardCharsets.UTF_8);
        final Path svg = dir.resolve("charts/throughput.svg");
        final StringWriter console = new StringWriter();

        final int exit = new CommandLine(new ThroughputBench()).setOut(new PrintWriter(console))
            .execute("--chart-from", csv.toString(), "--out", svg.toString());

        assertEquals(0, exit, console::toString);
        assertTrue(Files.isRegularFile(svg), "the SVG file is written");
        final String text = Files.readString(svg, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("<?xml") && text.contains("<svg"), "an SVG document");
        for (final String series : List.of(ThroughputChart.SERIES.get("fanout"), ThroughputChart.SERIES.get("nofanout"),
            ThroughputChart.SERIES.get("distributor"), ThroughputChart.NOT_SUSTAINED, ThroughputChart.PUBLISHED_FANOUT,
            ThroughputChart.PUBLISHED_SINGLE))
        {
            assertTrue(text.contains(series), "series " + series + " in the SVG");
        }
        assertTrue(console.toString().contains(svg.toString()), console::toString);
    }

    @Test
    void readsEveryStepOfTheCsv() throws IOException
    {
        final Path csv = dir.resolve("results.csv");
        Files.writeString(csv, CSV, StandardCharsets.UTF_8);

        final List<ThroughputBench.Step> steps = ThroughputChart.read(csv);

        assertEquals(6, steps.size());
        assertEquals(new ThroughputBench.Step("distributor", 1_500_000, 1_485_714, 1_485_023, 0, false), steps.get(5));
        assertEquals(CSV.lines().skip(1).toList(), steps.stream().map(ThroughputBench.Step::csv).toList(),
            "a step read back writes the same row");
    }

    @Test
    void refusesAFileThatIsNotAThroughputCsvAndWritesNothing() throws IOException
    {
        final Path csv = dir.resolve("idle.csv");
        Files.writeString(csv, "process,thread,cpu_percent_of_a_core,wakeups_per_second\n", StandardCharsets.UTF_8);
        final Path svg = dir.resolve("throughput.svg");
        final StringWriter err = new StringWriter();

        final int exit = new CommandLine(new ThroughputBench()).setErr(new PrintWriter(err))
            .execute("--chart-from", csv.toString(), "--out", svg.toString());

        assertTrue(0 != exit, "a wrong file fails");
        assertFalse(Files.exists(svg), "no chart of a wrong file");
    }

    @Test
    void needsTheSvgFileToWrite() throws IOException
    {
        final Path csv = dir.resolve("results.csv");
        Files.writeString(csv, CSV, StandardCharsets.UTF_8);
        final StringWriter err = new StringWriter();

        final int exit = new CommandLine(new ThroughputBench()).setErr(new PrintWriter(err))
            .execute("--chart-from", csv.toString());

        assertTrue(0 != exit, err::toString);
        assertTrue(err.toString().contains("--chart-from needs --out SVG"), err::toString);
    }
}
