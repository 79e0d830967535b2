package io.mdhub.common.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import org.agrona.concurrent.status.CountersReader;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;

/**
 * Agrona counters for Prometheus, read at each scrape: one metric family per counter name, the name being the
 * label's first part behind {@code aeron_} for Aeron's own types (below {@value #AERON_RESERVED_TYPE_IDS}) and
 * {@code mdhub_} for MDHub's ({@code p2p-updates-out: component=mdhub-p2p} is {@code mdhub_p2p_updates_out}; the
 * driver's {@code snd-pos: 3 -12 1001 aeron:ipc} is {@code aeron_snd_pos}). A media driver's counters include those
 * its clients allocated there (the p2p-servers' {@code backbone-*}), named as MDHub's. The {@code key=value} words of
 * a label become Prometheus labels beside {@code source}; any other words become {@code detail}; and when two counters
 * would still give the same series, their counter ids tell them apart ({@code id}). A family is a counter
 * ({@code _total}) when every member's type is a running total, otherwise a gauge.
 * <p>
 * Unlike the JMX bridge (one meter per counter, registered as counters come and go) nothing is registered per
 * counter: a scrape walks the counters as they are. Sources are added and removed by {@link CountersExport}; removal
 * waits for a scrape in progress, so a reader whose memory goes away next is never read again.
 */
public final class CountersCollector implements MultiCollector
{
    /** Aeron keeps type ids below this for its own counters; MDHub's are above it. */
    static final int AERON_RESERVED_TYPE_IDS = 1000;

    private final List<Source> sources = new ArrayList<>();

    /**
     * Scrape these counters from now on.
     *
     * @param reader          the counters.
     * @param source          the {@code source} label (a component name, or {@code aeron} for the driver's).
     * @param isMonotonicType which type ids are running totals.
     * @return a handle for {@link #remove(Object)}.
     */
    public synchronized Object add(final CountersReader reader, final String source, final IntPredicate isMonotonicType)
    {
        final Source added = new Source(reader, source, isMonotonicType);
        sources.add(added);
        return added;
    }

    /**
     * Stop scraping what {@link #add} returned; returns once no scrape reads it.
     *
     * @param handle what {@link #add} returned.
     */
    public synchronized void remove(final Object handle)
    {
        sources.remove(handle);
    }

    @Override
    public synchronized MetricSnapshots collect()
    {
        final Map<String, Family> families = new LinkedHashMap<>();
        for (final Source source : sources)
        {
            source.reader.forEach((counterId, typeId, keyBuffer, label) ->
            {
                final ParsedLabel parsed = ParsedLabel.parse(label);
                if (parsed.name.isEmpty())
                {
                    return;
                }
                final String prefix = typeId < AERON_RESERVED_TYPE_IDS ? "aeron_" : "mdhub_";
                final String name = PrometheusNaming.sanitizeMetricName(prefix + parsed.name);
                families.computeIfAbsent(name, Family::new).add(new Sample(counterId,
                    source.isMonotonicType.test(typeId), source.reader.getCounterValue(counterId),
                    parsed.labels(source.name)));
            });
        }
        final MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
        for (final Family family : families.values())
        {
            snapshots.metricSnapshot(family.snapshot());
        }
        return snapshots.build();
    }

    private static final class Source
    {
        final CountersReader reader;
        final String name;
        final IntPredicate isMonotonicType;

        Source(final CountersReader reader, final String name, final IntPredicate isMonotonicType)
        {
            this.reader = reader;
            this.name = name;
            this.isMonotonicType = isMonotonicType;
        }
    }

    private record Sample(int counterId, boolean isMonotonic, long value, Labels labels)
    {
    }

    private static final class Family
    {
        final String name;
        final List<Sample> samples = new ArrayList<>();

        Family(final String name)
        {
            this.name = name;
        }

        void add(final Sample sample)
        {
            samples.add(sample);
        }

        MetricSnapshot snapshot()
        {
            final List<Labels> labels = distinctLabels();
            boolean isCounter = true;
            for (final Sample sample : samples)
            {
                isCounter &= sample.isMonotonic;
            }
            if (isCounter)
            {
                final CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name);
                for (int i = 0; i < samples.size(); i++)
                {
                    counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels.get(i)).value(Math.max(0, samples.get(i).value)).build());
                }
                return counter.build();
            }
            final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name);
            for (int i = 0; i < samples.size(); i++)
            {
                gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(labels.get(i)).value(samples.get(i).value).build());
            }
            return gauge.build();
        }

        /**
         * Each sample's labels, with its counter id added where another sample has the same ones (a series must be
         * unique within its family).
         */
        private List<Labels> distinctLabels()
        {
            final Set<Labels> seen = new HashSet<>();
            final Set<Labels> repeated = new HashSet<>();
            for (final Sample sample : samples)
            {
                if (!seen.add(sample.labels))
                {
                    repeated.add(sample.labels);
                }
            }
            final List<Labels> result = new ArrayList<>(samples.size());
            for (final Sample sample : samples)
            {
                result.add(repeated.contains(sample.labels) ?
                    sample.labels.add("id", Integer.toString(sample.counterId)) : sample.labels);
            }
            return result;
        }
    }

    /**
     * A counter label taken apart: its name, its {@code key=value} words and the words left.
     */
    static final class ParsedLabel
    {
        final String name;
        final List<String> keys = new ArrayList<>();
        final List<String> values = new ArrayList<>();
        final StringBuilder detail = new StringBuilder();

        private ParsedLabel(final String name)
        {
            this.name = name;
        }

        static ParsedLabel parse(final String label)
        {
            final int colon = label.indexOf(':');
            final String head;
            final String rest;
            if (colon > 0)
            {
                head = label.substring(0, colon).trim();
                rest = label.substring(colon + 1);
            }
            else
            {
                // no colon: the name runs up to the first key=value word ("order-acked component=x", "Bytes sent")
                final String[] words = label.trim().split("\\s+");
                int nameWords = 0;
                while (nameWords < words.length && words[nameWords].indexOf('=') < 0)
                {
                    nameWords++;
                }
                head = String.join(" ", java.util.Arrays.copyOf(words, nameWords));
                rest = String.join(" ", java.util.Arrays.copyOfRange(words, nameWords, words.length));
            }
            final ParsedLabel parsed = new ParsedLabel(head.toLowerCase().replaceAll("[^a-z0-9]+", "_")
                .replaceAll("^_+|_+$", ""));
            for (final String word : rest.trim().split("[\\s,]+"))
            {
                if (word.isEmpty())
                {
                    continue;
                }
                final int equals = word.indexOf('=');
                final String key = equals > 0 ? PrometheusNaming.sanitizeLabelName(word.substring(0, equals)) : null;
                if (null != key && equals < word.length() - 1 && !"source".equals(key) && !"detail".equals(key) &&
                    !"id".equals(key) && !parsed.keys.contains(key))
                {
                    parsed.keys.add(key);
                    parsed.values.add(word.substring(equals + 1));
                }
                else
                {
                    parsed.detail.append(parsed.detail.length() > 0 ? " " : "").append(word);
                }
            }
            return parsed;
        }

        Labels labels(final String source)
        {
            final List<String> names = new ArrayList<>(keys.size() + 2);
            final List<String> vals = new ArrayList<>(keys.size() + 2);
            names.add("source");
            vals.add(source);
            names.addAll(keys);
            vals.addAll(values);
            if (detail.length() > 0)
            {
                names.add("detail");
                vals.add(detail.toString());
            }
            return Labels.of(names, vals);
        }
    }
}
