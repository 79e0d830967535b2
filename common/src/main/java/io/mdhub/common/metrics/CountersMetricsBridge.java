package io.mdhub.common.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;

/**
 * Exposes every allocated counter of an Agrona {@link CountersReader} (an MDHub {@code CountersManager}, or Aeron's
 * CnC counters) as a Micrometer meter, as STYLE §2.4 asks. Each {@link #poll()} walks the counters once: a counter
 * id not seen before gets a {@link Gauge} (or a {@link FunctionCounter} when its type id is declared monotonic),
 * tagged {@code source}, {@code id}, {@code typeId}, {@code label} and every {@code key=value} word of the label; a
 * counter that was freed, or whose slot now holds another counter, loses its meter. Meter values read the counter
 * live, so the poll period only bounds how late new counters appear.
 * <p>
 * Runs on a management thread ({@link #schedule}), never on an agent thread. Close the bridge BEFORE the counters'
 * memory is unmapped or freed (for Aeron counters: before the Aeron client or driver). Meter reads and
 * {@link #close()} share a small lock, so once close returns no read is in flight and none will touch the reader
 * again: a meter read afterwards (a JMX client racing the shutdown) returns the last value it read, or NaN.
 */
public final class CountersMetricsBridge implements AutoCloseable
{
    /**
     * Name of every meter the bridge creates; the tags tell them apart.
     */
    public static final String METER_NAME = "mdhub.counter";

    private static final Logger LOG = LoggerFactory.getLogger(CountersMetricsBridge.class);
    private static final List<String> RESERVED_TAG_KEYS = List.of("source", "id", "typeId", "label");

    private final MeterRegistry registry;
    private final CountersReader reader;
    private final String source;
    private final IntPredicate isMonotonicType;
    private final Int2ObjectHashMap<Registered> registered = new Int2ObjectHashMap<>();
    private final CountersReader.MetaData onCounter = this::onCounter;
    private final List<Registered> stale = new ArrayList<>();
    private final Object readLock = new Object();
    private ScheduledFuture<?> scheduled;
    private long generation;
    private int changes;
    private boolean isClosed;
    private boolean isReadable = true; // guarded by readLock

    /**
     * @param registry        where meters go, normally {@link MdMetrics#registry()}.
     * @param reader          counters to expose.
     * @param source          value of the {@code source} tag, distinguishing several bridges (e.g. "aeron", "ripc").
     * @param isMonotonicType which counter type ids only ever grow, and so become FunctionCounters; others become
     *                        gauges.
     */
    public CountersMetricsBridge(
        final MeterRegistry registry,
        final CountersReader reader,
        final String source,
        final IntPredicate isMonotonicType)
    {
        this.registry = registry;
        this.reader = reader;
        this.source = source;
        this.isMonotonicType = isMonotonicType;
    }

    /**
     * Poll on the given scheduler every {@code periodMs}, starting now.
     *
     * @param scheduler a management thread, e.g. from {@link MdMetrics#newScheduler(String)}.
     * @param periodMs  poll period, normally {@link MetricsConfiguration#countersPollIntervalMs()}.
     * @return this.
     */
    public synchronized CountersMetricsBridge schedule(final ScheduledExecutorService scheduler, final long periodMs)
    {
        if (null != scheduled)
        {
            throw new IllegalStateException("already scheduled");
        }
        scheduled = scheduler.scheduleAtFixedRate(this::pollSafely, 0, periodMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Walk the counters once, adding and removing meters.
     *
     * @return how many meters were added or removed.
     */
    public synchronized int poll()
    {
        if (isClosed)
        {
            return 0;
        }

        changes = 0;
        generation++;
        reader.forEach(onCounter);

        for (final Registered entry : registered.values())
        {
            if (entry.generation != generation)
            {
                stale.add(entry);
            }
        }
        for (int i = 0, size = stale.size(); i < size; i++)
        {
            unregister(stale.get(i));
        }
        stale.clear();

        return changes;
    }

    /**
     * @return how many counters currently have a meter.
     */
    public synchronized int meterCount()
    {
        return registered.size();
    }

    /**
     * Stop polling and remove every meter this bridge created.
     */
    @Override
    public synchronized void close()
    {
        if (!isClosed)
        {
            isClosed = true;
            if (null != scheduled)
            {
                scheduled.cancel(false);
            }
            synchronized (readLock)
            {
                isReadable = false;
            }
            for (final Registered entry : new ArrayList<>(registered.values()))
            {
                unregister(entry);
            }
        }
    }

    private void pollSafely()
    {
        try
        {
            poll();
        }
        catch (final RuntimeException ex)
        {
            // A failed poll must not cancel the schedule (the executor would silently stop repeating it).
            LOG.error("polling counters of {} failed", source, ex);
        }
    }

    private void onCounter(final int counterId, final int typeId, final DirectBuffer keyBuffer, final String label)
    {
        final long registrationId = reader.getCounterRegistrationId(counterId);
        Registered entry = registered.get(counterId);
        if (null != entry && !entry.isSameCounter(typeId, registrationId, label))
        {
            unregister(entry);
            entry = null;
        }
        if (null == entry)
        {
            entry = new Registered(counterId, typeId, registrationId, label);
            entry.meter = register(entry);
            registered.put(counterId, entry);
            changes++;
        }
        entry.generation = generation;
    }

    private Meter register(final Registered entry)
    {
        final Tags tags = tags(entry.counterId, entry.typeId, entry.label);
        try
        {
            // the meter holds the entry (weakly, as Micrometer does; this bridge holds it strongly while registered)
            if (isMonotonicType.test(entry.typeId))
            {
                return FunctionCounter.builder(METER_NAME, entry, this::read)
                    .tags(tags)
                    .description(entry.label)
                    .register(registry);
            }
            return Gauge.builder(METER_NAME, entry, this::read)
                .tags(tags)
                .description(entry.label)
                .register(registry);
        }
        catch (final RuntimeException ex)
        {
            // Keep the entry without a meter so one bad counter is logged once, not every poll.
            LOG.warn("cannot export counter {} '{}' of {}", entry.counterId, entry.label, source, ex);
            return null;
        }
    }

    /**
     * Run a read of the reader unless the bridge is closed, under the lock that {@link #close()} takes: once close
     * returns, no such read is in flight or will start.
     *
     * @param read reads the counters.
     */
    public void whileReadable(final Runnable read)
    {
        synchronized (readLock)
        {
            if (isReadable)
            {
                read.run();
            }
        }
    }

    /**
     * Meter function, called by whoever reads the meter (JMX, a publishing registry). Never touches the reader once
     * the bridge is closed or the counter unregistered (its slot may then hold another counter, or be freed).
     */
    private double read(final Registered entry)
    {
        synchronized (readLock)
        {
            if (isReadable && !entry.isRemoved)
            {
                entry.lastValue = reader.getCounterValue(entry.counterId);
            }
            return entry.lastValue;
        }
    }

    private void unregister(final Registered entry)
    {
        synchronized (readLock)
        {
            entry.isRemoved = true;
        }
        registered.remove(entry.counterId);
        if (null != entry.meter)
        {
            registry.remove(entry.meter);
        }
        changes++;
    }

    private Tags tags(final int counterId, final int typeId, final String label)
    {
        final List<Tag> tags = new ArrayList<>();
        tags.add(Tag.of("source", source));
        tags.add(Tag.of("id", Integer.toString(counterId)));
        tags.add(Tag.of("typeId", Integer.toString(typeId)));
        tags.add(Tag.of("label", label));
        for (final String word : label.split("[\\s,]+"))
        {
            final int equals = word.indexOf('=');
            if (equals > 0 && equals < word.length() - 1)
            {
                final String key = word.substring(0, equals);
                if (key.matches("[A-Za-z][A-Za-z0-9_.-]*") && !RESERVED_TAG_KEYS.contains(key))
                {
                    tags.add(Tag.of(key, word.substring(equals + 1)));
                }
            }
        }
        return Tags.of(tags);
    }

    private static final class Registered
    {
        final int counterId;
        final int typeId;
        final long registrationId;
        final String label;
        Meter meter;
        long generation;
        double lastValue = Double.NaN; // guarded by the bridge's readLock, as isRemoved
        boolean isRemoved;

        Registered(final int counterId, final int typeId, final long registrationId, final String label)
        {
            this.counterId = counterId;
            this.typeId = typeId;
            this.registrationId = registrationId;
            this.label = label;
        }

        boolean isSameCounter(final int typeId, final long registrationId, final String label)
        {
            return this.typeId == typeId && this.registrationId == registrationId && this.label.equals(label);
        }
    }
}
