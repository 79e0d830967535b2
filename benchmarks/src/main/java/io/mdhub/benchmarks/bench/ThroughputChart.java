package io.mdhub.benchmarks.bench;

import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * {@code throughput.svg}: the output updates/s of every step against its input, one series per test, beside the
 * published HS22 figures as horizontal lines (Producer 50/50 4.02 M out, no fan-out and the standalone distributor
 * 1.7 M), so a reader sees at a glance which test reached its published figure. Drawn from the steps of a run, or
 * from a committed {@code results.csv} ({@code --chart-from}) so the chart in the docs is the CSV's without a re-run.
 */
final class ThroughputChart
{
    /** The published Producer 50/50 output (HS22, METHODOLOGY.md). */
    static final double PUBLISHED_FANOUT_OUTPUT = 4_020_000;
    /** The published no fan-out and standalone distributor rate (HS22, METHODOLOGY.md). */
    static final double PUBLISHED_SINGLE_OUTPUT = 1_700_000;
    /** Each test's series name in the legend. */
    static final Map<String, String> SERIES = Map.of(
        "fanout", "Producer 50/50 (fanout)",
        "fanout-json", "Producer 50/50, JSON mounts among them (fanout-json)",
        "nofanout", "no fan-out (nofanout)",
        "distributor", "standalone distributor (distributor)");
    static final String NOT_SUSTAINED = "step not sustained";
    static final String PUBLISHED_FANOUT = "published Producer 50/50: 4.02 M";
    static final String PUBLISHED_SINGLE = "published no fan-out, distributor: 1.7 M";
    private static final List<String> TESTS = List.of("fanout", "nofanout", "distributor", "fanout-json");
    /** The colour of each test's series, in {@link #TESTS} order. */
    private static final List<Color> COLOURS =
        List.of(new Color(0, 90, 200), new Color(240, 150, 0), new Color(120, 50, 170), new Color(0, 150, 80));

    private ThroughputChart()
    {
    }

    /**
     * @param csv a {@code results.csv} of {@code bench throughput}.
     * @return its steps, in file order.
     * @throws IOException if it cannot be read.
     * @throws IllegalArgumentException if its header or a row is not a {@code bench throughput} one.
     */
    static List<ThroughputBench.Step> read(final Path csv) throws IOException
    {
        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !ThroughputBench.Step.CSV_HEADER.equals(lines.get(0).trim()))
        {
            throw new IllegalArgumentException(csv + ": not a bench throughput results.csv (header " +
                ThroughputBench.Step.CSV_HEADER + ")");
        }
        final List<ThroughputBench.Step> steps = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty())
            {
                continue;
            }
            final String[] cells = line.split(",");
            if (7 != cells.length)
            {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + ": expected 7 columns: " + line);
            }
            steps.add(new ThroughputBench.Step(cells[0], Long.parseLong(cells[1]), Long.parseLong(cells[2]),
                Long.parseLong(cells[3]), Long.parseLong(cells[5]), Boolean.parseBoolean(cells[6])));
        }
        return steps;
    }

    /**
     * Draw the steps as an SVG file.
     *
     * @param steps the steps of one or more tests.
     * @param svg   the file to write.
     * @throws IOException if it cannot be written.
     */
    static void write(final List<ThroughputBench.Step> steps, final Path svg) throws IOException
    {
        final XYChart chart = chart(steps);
        final Path parent = svg.toAbsolutePath().getParent();
        if (null != parent)
        {
            Files.createDirectories(parent);
        }
        final ByteArrayOutputStream drawn = new ByteArrayOutputStream(1 << 19);
        VectorGraphicsEncoder.saveVectorGraphic(chart, drawn, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        Files.writeString(svg, titled(drawn.toString(StandardCharsets.UTF_8), chart), StandardCharsets.UTF_8);
    }

    /**
     * x the input updates/s achieved (logarithmic, as the fan-out test's rates are a tenth of the others'), y the
     * output updates/s; the sustained steps of each test as a line, the unsustained ones marked apart.
     *
     * @param steps the steps of one or more tests.
     * @return the chart.
     */
    static XYChart chart(final List<ThroughputBench.Step> steps)
    {
        if (steps.isEmpty())
        {
            throw new IllegalArgumentException("no steps to chart");
        }
        for (final ThroughputBench.Step step : steps)
        {
            if (!TESTS.contains(step.test()))
            {
                throw new IllegalArgumentException("unknown test in results: " + step.test());
            }
        }
        final XYChart chart = new XYChartBuilder().width(720).height(520)
            .title("bench throughput: output against input, beside the published HS22 figures")
            .xAxisTitle("input updates/s (log)").yAxisTitle("output updates/s").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setDecimalPattern("#,###");
        for (int i = 0; i < TESTS.size(); i++)
        {
            final String test = TESTS.get(i);
            final XYSeries series = addSeries(chart, SERIES.get(test),
                steps.stream().filter((s) -> s.test().equals(test) && s.sustained()).toList());
            if (null != series)
            {
                // no fan-out and the distributor reach the same rates: the wide line shows beside the dashed one
                series.setLineColor(COLOURS.get(i));
                series.setMarkerColor(COLOURS.get(i));
                series.setLineWidth("nofanout".equals(test) ? 6f : 2f);
                series.setLineStyle("distributor".equals(test) ? SeriesLines.DASH_DASH : SeriesLines.SOLID);
            }
        }
        final XYSeries unsustained =
            addSeries(chart, NOT_SUSTAINED, steps.stream().filter((s) -> !s.sustained()).toList());
        if (null != unsustained)
        {
            unsustained.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            unsustained.setMarker(SeriesMarkers.CROSS);
            unsustained.setMarkerColor(Color.RED);
        }
        final double minInput = steps.stream().mapToLong(ThroughputBench.Step::input).min().orElse(1);
        final double maxInput = steps.stream().mapToLong(ThroughputBench.Step::input).max().orElse(1);
        final double[] span = {Math.max(1, minInput * 0.9), maxInput * 1.1};
        published(chart, PUBLISHED_FANOUT, span, PUBLISHED_FANOUT_OUTPUT, COLOURS.get(0));
        published(chart, PUBLISHED_SINGLE, span, PUBLISHED_SINGLE_OUTPUT, Color.DARK_GRAY);
        return chart;
    }

    /**
     * xchart draws every letter as an outline, so the SVG alone has no text to search or read aloud: give it a
     * {@code <title>} and a {@code <desc>} naming the chart and its series, as SVG provides for that.
     */
    static String titled(final String svg, final XYChart chart)
    {
        final int root = svg.indexOf("<svg");
        final int end = root < 0 ? -1 : svg.indexOf('>', root);
        if (end < 0)
        {
            throw new IllegalStateException("xchart wrote no <svg> element");
        }
        final String series = String.join("; ", chart.getSeriesMap().keySet());
        return svg.substring(0, end + 1) + "\n  <title>" + xml(chart.getTitle()) + "</title>\n  <desc>series: " +
            xml(series) + "</desc>" + svg.substring(end + 1);
    }

    private static String xml(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static XYSeries addSeries(final XYChart chart, final String name, final List<ThroughputBench.Step> steps)
    {
        if (steps.isEmpty())
        {
            return null;
        }
        final double[] input = steps.stream().mapToDouble(ThroughputBench.Step::input).toArray();
        final double[] output = steps.stream().mapToDouble(ThroughputBench.Step::output).toArray();
        return chart.addSeries(name, input, output);
    }

    private static void published(
        final XYChart chart, final String name, final double[] span, final double output, final Color colour)
    {
        final XYSeries series = chart.addSeries(name, span, new double[] {output, output});
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(colour);
        series.setLineStyle(SeriesLines.DOT_DOT);
    }
}
