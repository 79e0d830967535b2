package io.mdhub.benchmarks.gate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.openjdk.jmh.results.RunResult;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Gate results from a JMH run: taken from the runner's results, or read back from the JSON file JMH writes
 * ({@code -rf json}), so a run's file can be judged again, or a made-up one in a test.
 */
public final class GateResults
{
    /** The GC profiler's allocation per operation. */
    static final String ALLOCATION_METRIC = "gc.alloc.rate.norm";
    private static final JsonFactory JSON = new JsonFactory();

    private GateResults()
    {
    }

    /**
     * @param runs what the JMH runner returned.
     * @return one result per benchmark (and parameter set).
     */
    public static List<GateResult> of(final Collection<RunResult> runs)
    {
        final List<GateResult> results = new ArrayList<>();
        for (final RunResult run : runs)
        {
            final Map<String, String> params = new TreeMap<>();
            for (final String key : run.getParams().getParamsKeys())
            {
                params.put(key, run.getParams().getParam(key));
            }
            double bytes = Double.NaN;
            for (final String metric : run.getSecondaryResults().keySet())
            {
                if (metric.endsWith(ALLOCATION_METRIC))
                {
                    bytes = run.getSecondaryResults().get(metric).getScore();
                }
            }
            results.add(new GateResult(name(run.getParams().getBenchmark(), params),
                run.getPrimaryResult().getScore(), bytes));
        }
        return results;
    }

    /**
     * @param file a JMH JSON result file.
     * @return one result per benchmark (and parameter set).
     * @throws IOException when it cannot be read or is not JMH's JSON.
     */
    public static List<GateResult> read(final Path file) throws IOException
    {
        final List<GateResult> results = new ArrayList<>();
        try (JsonParser json = JSON.createParser(Files.readString(file)))
        {
            expect(json.nextToken(), JsonToken.START_ARRAY, file);
            while (JsonToken.START_OBJECT == json.nextToken())
            {
                results.add(readRun(json, file));
            }
        }
        return results;
    }

    private static GateResult readRun(final JsonParser json, final Path file) throws IOException
    {
        String benchmark = null;
        double score = Double.NaN;
        double bytes = Double.NaN;
        final Map<String, String> params = new TreeMap<>();
        while (JsonToken.FIELD_NAME == json.nextToken())
        {
            final String field = json.currentName();
            json.nextToken();
            switch (field)
            {
                case "benchmark" -> benchmark = json.getText();
                case "params" ->
                {
                    while (JsonToken.FIELD_NAME == json.nextToken())
                    {
                        final String key = json.currentName();
                        json.nextToken();
                        params.put(key, json.getText());
                    }
                }
                case "primaryMetric" -> score = score(json);
                case "secondaryMetrics" ->
                {
                    while (JsonToken.FIELD_NAME == json.nextToken())
                    {
                        final String metric = json.currentName();
                        json.nextToken();
                        final double value = score(json);
                        if (metric.endsWith(ALLOCATION_METRIC))
                        {
                            bytes = value;
                        }
                    }
                }
                default -> json.skipChildren();
            }
        }
        if (null == benchmark || Double.isNaN(score))
        {
            throw new IOException(file + ": a run without a benchmark name or a primary score");
        }
        return new GateResult(name(benchmark, params), score, bytes);
    }

    /**
     * @return the "score" of the metric object the parser is at, the rest skipped.
     */
    private static double score(final JsonParser json) throws IOException
    {
        double score = Double.NaN;
        while (JsonToken.FIELD_NAME == json.nextToken())
        {
            final String field = json.currentName();
            json.nextToken();
            if ("score".equals(field))
            {
                score = json.getValueAsDouble(Double.NaN);
            }
            else
            {
                json.skipChildren();
            }
        }
        return score;
    }

    private static void expect(final JsonToken token, final JsonToken expected, final Path file) throws IOException
    {
        if (token != expected)
        {
            throw new IOException(file + ": not a JMH JSON result file (" + token + " where " + expected + ")");
        }
    }

    private static String name(final String benchmark, final Map<String, String> params)
    {
        if (params.isEmpty())
        {
            return benchmark;
        }
        final StringBuilder name = new StringBuilder(benchmark).append('[');
        params.forEach((key, value) -> name.append(name.charAt(name.length() - 1) == '[' ? "" : ",")
            .append(key).append('=').append(value));
        return name.append(']').toString();
    }

    /**
     * @param benchmark a result's name, parameters and all.
     * @return true when its method is marked {@link NoAllocation}.
     */
    public static boolean isMarkedNoAllocation(final String benchmark)
    {
        final String plain = benchmark.contains("[") ? benchmark.substring(0, benchmark.indexOf('[')) : benchmark;
        final int dot = plain.lastIndexOf('.');
        try
        {
            final Class<?> type = Class.forName(plain.substring(0, dot));
            for (final java.lang.reflect.Method method : type.getMethods())
            {
                if (method.getName().equals(plain.substring(dot + 1)) && method.isAnnotationPresent(NoAllocation.class))
                {
                    return true;
                }
            }
            return false;
        }
        catch (final ClassNotFoundException | StringIndexOutOfBoundsException ex)
        {
            return false;
        }
    }
}
