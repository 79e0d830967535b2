package io.mdhub.orderprobe.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.mdhub.common.pause.PauseEvent;

/**
 * The report's two charts per run, drawn with XChart and saved as SVG: the create-to-end histogram in 10 µs buckets
 * (the published histograms; wider when a long tail would need more than a thousand), and the first seconds of the
 * measurement as a time series of create-to-end against creation time with every process's pauses as shaded bands
 * (the published Figures 3-2 to 3-5). A report of several configurations also gets one chart of them side by side.
 */
final class ReportCharts
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;
    private static final int MAX_BUCKETS = 1_000;
    private static final int MAX_BANDS_PER_PROCESS = 500;
    private static final java.awt.Color[] PAUSE_COLORS = {
        new java.awt.Color(220, 40, 40, 110), new java.awt.Color(40, 90, 220, 110),
        new java.awt.Color(30, 160, 60, 110), new java.awt.Color(160, 60, 200, 110),
        new java.awt.Color(230, 140, 20, 110), new java.awt.Color(0, 0, 0, 90)};

    private ReportCharts()
    {
    }

    static void histogram(final RunGroup group, final Path file) throws IOException
    {
        // to the 99th percentile: the tail beyond squeezes the body into a pixel column (its count is in the title)
        final long limitNs = Math.max(LatencyStats.PUBLISHED_BUCKET_NS, (long)(group.createToEnd().p99Us() * 1000));
        final long bucketNs = LatencyStats.bucketWidthNs(limitNs, MAX_BUCKETS);
        final long[] counts = LatencyStats.histogram(group.createToEndNs(), bucketNs, limitNs);
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (int i = 0; i < counts.length - 1; i++)
        {
            x.add(i * bucketNs / 1000.0);
            y.add((double)counts[i]);
        }
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(group.label() + ": create-to-end, " + bucketNs / 1000 + " µs buckets (to p99; " +
                counts[counts.length - 1] + " orders beyond)")
            .xAxisTitle("create-to-end (µs)").yAxisTitle("orders").build();
        chart.getStyler().setLegendVisible(false).setMarkerSize(0);
        final XYSeries series = chart.addSeries("orders", x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.StepArea);
        save(chart, file);
    }

    static void timeSeries(final RunGroup group, final long windowNs, final Path file) throws IOException
    {
        final long start = group.measureStartEpochNs();
        final long end = start + windowNs;
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        double top = 1;
        for (int i = 0; i < group.createEpochNs().length; i++)
        {
            final long created = group.createEpochNs()[i];
            if (created >= start && created < end)
            {
                final double latencyMs = group.createToEndNs()[i] / 1e6;
                x.add((created - start) / 1e6);
                y.add(latencyMs);
                top = Math.max(top, latencyMs);
            }
        }
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(group.label() + ": first " + windowNs / 1_000_000_000L + " s, create-to-end with pauses")
            .xAxisTitle("creation time since measurement start (ms)").yAxisTitle("create-to-end (ms)").build();
        chart.getStyler().setMarkerSize(2).setLegendVisible(true);
        final Map<String, List<double[]>> bands = new LinkedHashMap<>();
        for (final PauseEvent pause : group.pauses())
        {
            if (pause.startEpochNs() < end && pause.endEpochNs() > start && pause.durationNs() >= 100_000)
            {
                bands.computeIfAbsent(pause.process(), (k) -> new ArrayList<>()).add(new double[] {
                    (pause.startEpochNs() - start) / 1e6, (pause.endEpochNs() - start) / 1e6});
            }
        }
        int process = 0;
        for (final Map.Entry<String, List<double[]>> entry : bands.entrySet())
        {
            final java.awt.Color color = PAUSE_COLORS[process++ % PAUSE_COLORS.length];
            int band = 0;
            for (final double[] pause : entry.getValue())
            {
                if (band >= MAX_BANDS_PER_PROCESS)
                {
                    break;
                }
                // one series per pause, so separate pauses are not joined; the legend names each process once
                final XYSeries series = chart.addSeries("pauses: " + entry.getKey() + (0 == band ? "" : " " + band),
                    new double[] {pause[0], pause[0], pause[1], pause[1]}, new double[] {0, top, top, 0});
                series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
                series.setMarker(SeriesMarkers.NONE);
                series.setLineColor(color);
                series.setFillColor(color);
                series.setShowInLegend(0 == band);
                band++;
            }
        }
        if (x.isEmpty())
        {
            x.add(0.0); // XChart draws no empty series: one point at the origin says "nothing measured here"
            y.add(0.0);
        }
        final XYSeries orders = chart.addSeries("orders", x, y);
        orders.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        save(chart, file);
    }

    /**
     * Mean and p95 create-to-end against the total rate, a line per configuration and statistic, on a log scale:
     * the order pair beside the references measured in the same run. The last run of a rate counts.
     *
     * @return true if drawn (there were runs of more than one configuration).
     */
    static boolean configurations(final List<RunGroup> groups, final Path file) throws IOException
    {
        final java.util.Map<String, java.util.TreeMap<Long, LatencyStats>> byConfiguration =
            new java.util.LinkedHashMap<>();
        for (final RunGroup group : groups)
        {
            byConfiguration.computeIfAbsent(group.configuration(), (name) -> new java.util.TreeMap<>())
                .put(group.totalRate(), group.createToEnd());
        }
        if (byConfiguration.size() < 2)
        {
            return false;
        }
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title("create-to-end by configuration: mean (solid) and p95 (dashed)")
            .xAxisTitle("orders/s, all probes").yAxisTitle("µs (log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true).setMarkerSize(6);
        for (final java.util.Map.Entry<String, java.util.TreeMap<Long, LatencyStats>> entry :
            byConfiguration.entrySet())
        {
            final List<Double> rates = new ArrayList<>();
            final List<Double> means = new ArrayList<>();
            final List<Double> p95s = new ArrayList<>();
            for (final java.util.Map.Entry<Long, LatencyStats> run : entry.getValue().entrySet())
            {
                rates.add(run.getKey().doubleValue());
                means.add(Math.max(1.0, run.getValue().meanUs()));
                p95s.add(Math.max(1.0, run.getValue().p95Us()));
            }
            final XYSeries mean = chart.addSeries(entry.getKey() + " mean", rates, means);
            final XYSeries p95 = chart.addSeries(entry.getKey() + " p95", rates, p95s);
            p95.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
            p95.setLineColor(null == mean.getLineColor() ? java.awt.Color.GRAY : mean.getLineColor());
        }
        save(chart, file);
        return true;
    }

    private static void save(final XYChart chart, final Path file) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(file))
        {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
    }
}
