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
 * (the published histograms), and the first seconds of the measurement as a time series of create-to-end against
 * creation time with every process's pauses as shaded bands (the published Figures 3-2 to 3-5).
 */
final class ReportCharts
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;
    private static final long BUCKET_NS = 10_000;

    private ReportCharts()
    {
    }

    static void histogram(final RunGroup group, final Path file) throws IOException
    {
        final long limitNs = Math.max(BUCKET_NS, (long)(group.createToEnd().p999Us() * 1000));
        final long[] counts = LatencyStats.histogram(group.createToEndNs(), BUCKET_NS, limitNs);
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (int i = 0; i < counts.length - 1; i++)
        {
            x.add(i * BUCKET_NS / 1000.0);
            y.add((double)counts[i]);
        }
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(group.label() + ": create-to-end, 10 µs buckets (to p99.9; " + counts[counts.length - 1] +
                " orders beyond)")
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
        for (final Map.Entry<String, List<double[]>> entry : bands.entrySet())
        {
            final List<Double> bx = new ArrayList<>();
            final List<Double> by = new ArrayList<>();
            for (final double[] band : entry.getValue())
            {
                bx.add(band[0]);
                by.add(0.0);
                bx.add(band[0]);
                by.add(top);
                bx.add(band[1]);
                by.add(top);
                bx.add(band[1]);
                by.add(0.0);
            }
            final XYSeries pauses = chart.addSeries("pauses: " + entry.getKey(), bx, by);
            pauses.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
            pauses.setMarker(SeriesMarkers.NONE);
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

    private static void save(final XYChart chart, final Path file) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(file))
        {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
    }
}
