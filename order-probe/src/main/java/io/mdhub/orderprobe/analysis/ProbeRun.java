package io.mdhub.orderprobe.analysis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.mdhub.common.pause.PauseEvent;

/**
 * What one probe measured in one run, as it lies in its run directory: {@code run.properties} (who, what, how
 * fast), {@code orders.dat} (every measured order's create, send and end time in epoch nanoseconds) and
 * {@code pauses.csv} (the pauses of the probe and of the servers it read them from).
 */
public final class ProbeRun
{
    /** Run properties file. */
    public static final String PROPERTIES_FILE = "run.properties";
    /** Orders file. */
    public static final String ORDERS_FILE = "orders.dat";
    /** Pauses file. */
    public static final String PAUSES_FILE = "pauses.csv";

    /** Probe id (A, B, ...). */
    public static final String PROBE_ID = "probe.id";
    /** The run this probe took part in: probes with the same label are merged. */
    public static final String RUN_LABEL = "run.label";
    /** Configuration in the reference's words: one_server, two_server, four_server, six_server. */
    public static final String CONFIGURATION = "configuration";
    /** Orders per second all probes of the run made together. */
    public static final String TOTAL_RATE = "total.orders.per.s";
    /** Orders per second this probe made. */
    public static final String RATE = "orders.per.s";
    /** Epoch ns when measurement began (after the warm-up). */
    public static final String MEASURE_START_EPOCH_NS = "measure.start.epoch.ns";
    /** Times the creation thread was late by more than the order interval. */
    public static final String CREATION_STALLS = "creation.stalls";
    /** Orders that failed (timed out or rejected) in the measured window. */
    public static final String FAILED = "orders.failed";

    private static final int MAGIC = 0x4D44_4850; // "MDHP"
    private static final int VERSION = 1;

    private final Properties properties;
    private final long[] createEpochNs;
    private final long[] sendEpochNs;
    private final long[] endEpochNs;
    private final List<PauseEvent> pauses;

    /**
     * @param properties    the run's properties.
     * @param createEpochNs per order: when it was due to be created (the schedule, so a stall is counted).
     * @param sendEpochNs   per order: just before the synchronous submit.
     * @param endEpochNs    per order: when the submit returned.
     * @param pauses        pauses of every process the probe knows of.
     */
    public ProbeRun(
        final Properties properties,
        final long[] createEpochNs,
        final long[] sendEpochNs,
        final long[] endEpochNs,
        final List<PauseEvent> pauses)
    {
        if (createEpochNs.length != sendEpochNs.length || createEpochNs.length != endEpochNs.length)
        {
            throw new IllegalArgumentException("timestamp arrays differ in length");
        }
        this.properties = properties;
        this.createEpochNs = createEpochNs;
        this.sendEpochNs = sendEpochNs;
        this.endEpochNs = endEpochNs;
        this.pauses = List.copyOf(pauses);
    }

    /**
     * @param dir a run directory a probe wrote.
     * @return its contents.
     * @throws IOException when a file is missing or malformed (the message names it).
     */
    public static ProbeRun load(final Path dir) throws IOException
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(dir.resolve(PROPERTIES_FILE), StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        final Path ordersFile = dir.resolve(ORDERS_FILE);
        final long[] create;
        final long[] send;
        final long[] end;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(ordersFile))))
        {
            if (MAGIC != in.readInt() || VERSION != in.readInt())
            {
                throw new IOException(ordersFile + " is not an order probe file of version " + VERSION);
            }
            final long count = in.readLong();
            if (count < 0 || count * 24 > Files.size(ordersFile))
            {
                throw new IOException(ordersFile + " announces " + count + " orders it cannot hold");
            }
            create = new long[(int)count];
            send = new long[(int)count];
            end = new long[(int)count];
            for (int i = 0; i < count; i++)
            {
                create[i] = in.readLong();
                send[i] = in.readLong();
                end[i] = in.readLong();
            }
        }
        final List<PauseEvent> pauses = new ArrayList<>();
        final Path pausesFile = dir.resolve(PAUSES_FILE);
        if (Files.exists(pausesFile))
        {
            for (final String line : Files.readAllLines(pausesFile, StandardCharsets.UTF_8))
            {
                if (!line.isBlank() && !line.startsWith("#"))
                {
                    pauses.add(PauseEvent.fromLine(line.trim()));
                }
            }
        }
        return new ProbeRun(properties, create, send, end, pauses);
    }

    /**
     * Write this run into a directory (created if need be).
     *
     * @param dir where.
     * @throws IOException on a write failure.
     */
    public void write(final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        try (Writer writer = Files.newBufferedWriter(dir.resolve(PROPERTIES_FILE), StandardCharsets.UTF_8))
        {
            properties.store(writer, "MDHub order probe run");
        }
        try (DataOutputStream out = new DataOutputStream(
            new BufferedOutputStream(Files.newOutputStream(dir.resolve(ORDERS_FILE)), 1 << 16)))
        {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(createEpochNs.length);
            for (int i = 0; i < createEpochNs.length; i++)
            {
                out.writeLong(createEpochNs[i]);
                out.writeLong(sendEpochNs[i]);
                out.writeLong(endEpochNs[i]);
            }
        }
        final StringBuilder lines = new StringBuilder("# process,cause,startEpochNs,durationNs\n");
        for (final PauseEvent pause : pauses)
        {
            lines.append(pause.toLine()).append('\n');
        }
        Files.writeString(dir.resolve(PAUSES_FILE), lines, StandardCharsets.UTF_8);
    }

    /**
     * @return the run's properties.
     */
    public Properties properties()
    {
        return properties;
    }

    /**
     * @param key a property.
     * @return its value, or "" when absent.
     */
    public String property(final String key)
    {
        return properties.getProperty(key, "");
    }

    /**
     * @return orders measured.
     */
    public int orders()
    {
        return createEpochNs.length;
    }

    /**
     * @return per order, its scheduled creation time.
     */
    public long[] createEpochNs()
    {
        return createEpochNs;
    }

    /**
     * @return per order, the time just before its submit.
     */
    public long[] sendEpochNs()
    {
        return sendEpochNs;
    }

    /**
     * @return per order, the time its submit returned.
     */
    public long[] endEpochNs()
    {
        return endEpochNs;
    }

    /**
     * @return pauses of every process the probe knows of.
     */
    public List<PauseEvent> pauses()
    {
        return pauses;
    }
}
