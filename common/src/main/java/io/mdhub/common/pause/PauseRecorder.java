package io.mdhub.common.pause;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;

/**
 * Records this JVM's safepoints with JFR and turns them into {@link PauseEvent}s: a safepoint's window runs from its
 * SafepointBegin to its SafepointEnd, and the VM operation that ran under the same safepoint id names its cause.
 * <p>
 * Two modes. {@link #recording} keeps a JFR recording (in JFR's own repository, at most 64 MiB) and parses it only
 * when asked
 * ({@link #pauses()}), so a server allocates nothing on the Java heap for it during a measurement. {@link #streaming}
 * follows the events as JFR flushes them (about once a second), for a process that wants its pauses while it runs
 * (the order probe); it parses small chunks, a little garbage per second.
 * <p>
 * Safepoints are the JVM's own stops. Stalls of the whole process that the JVM does not cause — the operating system
 * not running its threads — are measured beside them by a {@link HiccupMeter} and reported as pauses of cause
 * {@value HiccupMeter#CAUSE} ({@value #HICCUP_THRESHOLD_NS_PROP_NAME}, 1 ms by default, 0 to switch it off; it wakes
 * every {@value #HICCUP_PERIOD_NS_PROP_NAME}, 10 ms by default). A server's recorder ({@link #startForServer}) runs no
 * hiccup meter unless the threshold is set.
 */
public final class PauseRecorder implements PauseRecorderMXBean, AutoCloseable
{
    private static final String SAFEPOINT_BEGIN = "jdk.SafepointBegin";
    private static final String SAFEPOINT_END = "jdk.SafepointEnd";
    private static final String VM_OPERATION = "jdk.ExecuteVMOperation";
    private static final String[] EVENTS = {SAFEPOINT_BEGIN, SAFEPOINT_END, VM_OPERATION};
    private static final long MAX_RECORDING_BYTES = 64L * 1024 * 1024;

    /** Whether a server process records its pauses (JFR safepoint events, parsed only when read over JMX). */
    public static final String ENABLED_PROP_NAME = "mdhub.pause.recorder.enabled";

    /** A {@link HiccupMeter} wake-up this much late is a hiccup of the process (ns; 0 = no hiccup meter). */
    public static final String HICCUP_THRESHOLD_NS_PROP_NAME = "mdhub.pause.hiccup.threshold.ns";
    private static final long DEFAULT_HICCUP_THRESHOLD_NS = 1_000_000L;
    /**
     * A server's default: no hiccup meter. Its 100 wake-ups a second are most of an idle server's CPU, and a stall of
     * the whole host shows in a probe's own meter too.
     */
    private static final long SERVER_HICCUP_THRESHOLD_NS = 0;

    /** Longest hiccup threshold or period accepted: a minute. */
    private static final long MAX_HICCUP_NS = 60_000_000_000L;

    /** How long the {@link HiccupMeter} parks between wake-ups (ns): its resolution, and its cost. */
    public static final String HICCUP_PERIOD_NS_PROP_NAME = "mdhub.pause.hiccup.period.ns";
    private static final long DEFAULT_HICCUP_PERIOD_NS = 10_000_000L;

    private final String process;
    private final Recording recording;
    private final RecordingStream stream;
    private final Safepoints streamed;
    private final HiccupMeter hiccups;
    private javax.management.ObjectName objectName;

    private PauseRecorder(
        final String process, final Recording recording, final RecordingStream stream, final long hiccupThresholdNs)
    {
        this.process = process;
        this.recording = recording;
        this.stream = stream;
        this.streamed = null == stream ? null : new Safepoints(process);
        this.hiccups = newHiccupMeter(process, hiccupThresholdNs);
    }

    /**
     * @return the configured hiccup meter, or null when its threshold is 0 (then the period is not read at all).
     */
    private static HiccupMeter newHiccupMeter(final String process, final long defaultThresholdNs)
    {
        final long thresholdNs = io.mdhub.common.config.ConfigValues.getLong(
            HICCUP_THRESHOLD_NS_PROP_NAME, defaultThresholdNs, 0, MAX_HICCUP_NS);
        if (0 == thresholdNs)
        {
            return null;
        }
        final long periodNs = io.mdhub.common.config.ConfigValues.getLong(
            HICCUP_PERIOD_NS_PROP_NAME, DEFAULT_HICCUP_PERIOD_NS, 1_000, MAX_HICCUP_NS);
        return new HiccupMeter(process, thresholdNs, periodNs);
    }

    /**
     * Start an in-memory recording, parsed on demand.
     *
     * @param process the name pauses carry.
     * @return the running recorder.
     */
    public static PauseRecorder recording(final String process)
    {
        return recording(process, DEFAULT_HICCUP_THRESHOLD_NS);
    }

    private static PauseRecorder recording(final String process, final long hiccupThresholdNs)
    {
        final Recording recording = new Recording();
        for (final String event : EVENTS)
        {
            recording.enable(event).withoutThreshold();
        }
        // kept in JFR's disk repository: an in-memory recording hands its data over at the first dump and is empty
        // at the next; a safepoint event is a few dozen bytes, so the size limit holds days of them
        recording.setToDisk(true);
        recording.setMaxSize(MAX_RECORDING_BYTES);
        recording.setName("mdhub-pauses");
        recording.start();
        return new PauseRecorder(process, recording, null, hiccupThresholdNs);
    }

    /**
     * Start following pauses as JFR flushes them.
     *
     * @param process the name pauses carry.
     * @return the running recorder.
     */
    public static PauseRecorder streaming(final String process)
    {
        final RecordingStream stream = new RecordingStream();
        final PauseRecorder recorder = new PauseRecorder(process, null, stream, DEFAULT_HICCUP_THRESHOLD_NS);
        for (final String event : EVENTS)
        {
            stream.enable(event).withoutThreshold();
        }
        stream.setMaxAge(Duration.ofMinutes(30));
        stream.onEvent(recorder::onStreamedEvent);
        stream.startAsync();
        return recorder;
    }

    private void onStreamedEvent(final RecordedEvent event)
    {
        synchronized (streamed)
        {
            streamed.add(event);
        }
    }

    /**
     * Start recording in a server process when {@value #ENABLED_PROP_NAME} is true (the default), registered as
     * {@code io.mdhub:type=PauseRecorder,name=<process>} so a probe can read the pauses at the end of a run.
     *
     * @param process the name pauses carry.
     * @return the running recorder, or null when switched off.
     */
    public static PauseRecorder startForServer(final String process)
    {
        if (!io.mdhub.common.config.ConfigValues.getBoolean(ENABLED_PROP_NAME, true))
        {
            return null;
        }
        final PauseRecorder recorder = recording(process, SERVER_HICCUP_THRESHOLD_NS);
        recorder.objectName = io.mdhub.common.metrics.MBeans.register(process, recorder);
        return recorder;
    }

    /**
     * @return the process name pauses carry.
     */
    public String process()
    {
        return process;
    }

    /**
     * @return every complete pause so far, oldest first (streaming: up to JFR's last flush, about a second ago): the
     * safepoints, and the hiccups of the {@link HiccupMeter} unless it is switched off.
     */
    public List<PauseEvent> pauses()
    {
        final List<PauseEvent> pauses = new ArrayList<>(safepoints());
        if (null != hiccups)
        {
            pauses.addAll(hiccups.hiccups());
            pauses.sort(Comparator.comparingLong(PauseEvent::startEpochNs));
        }
        return pauses;
    }

    private List<PauseEvent> safepoints()
    {
        if (null != streamed)
        {
            synchronized (streamed)
            {
                return streamed.pauses();
            }
        }
        try
        {
            final Path file = Files.createTempFile("mdhub-pauses", ".jfr");
            try
            {
                recording.dump(file);
                final Safepoints safepoints = new Safepoints(process);
                try (RecordingFile events = new RecordingFile(file))
                {
                    while (events.hasMoreEvents())
                    {
                        safepoints.add(events.readEvent());
                    }
                }
                return safepoints.pauses();
            }
            finally
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the pause recording", ex);
        }
    }

    @Override
    public String[] getPauses()
    {
        final List<PauseEvent> pauses = pauses();
        final String[] lines = new String[pauses.size()];
        for (int i = 0; i < lines.length; i++)
        {
            lines[i] = pauses.get(i).toLine();
        }
        return lines;
    }

    @Override
    public int getPauseCount()
    {
        return pauses().size();
    }

    @Override
    public void close()
    {
        if (null != objectName)
        {
            io.mdhub.common.metrics.MBeans.unregister(objectName);
        }
        if (null != recording)
        {
            recording.close();
        }
        if (null != stream)
        {
            stream.close();
        }
        if (null != hiccups)
        {
            hiccups.close();
        }
    }

    /**
     * Joins the three JFR events of each safepoint by its id.
     */
    private static final class Safepoints
    {
        private final String process;
        private final Long2LongHashMap beginEpochNs = new Long2LongHashMap(Long.MIN_VALUE);
        private final Long2LongHashMap endEpochNs = new Long2LongHashMap(Long.MIN_VALUE);
        private final Long2ObjectHashMap<String> operation = new Long2ObjectHashMap<>();

        Safepoints(final String process)
        {
            this.process = process;
        }

        void add(final RecordedEvent event)
        {
            final String type = event.getEventType().getName();
            if (SAFEPOINT_BEGIN.equals(type))
            {
                beginEpochNs.put(event.getLong("safepointId"), epochNs(event.getStartTime()));
            }
            else if (SAFEPOINT_END.equals(type))
            {
                endEpochNs.put(event.getLong("safepointId"), epochNs(event.getEndTime()));
            }
            else if (VM_OPERATION.equals(type) && event.getBoolean("safepoint"))
            {
                operation.put(event.getLong("safepointId"), event.getString("operation"));
            }
        }

        List<PauseEvent> pauses()
        {
            final List<PauseEvent> pauses = new ArrayList<>();
            final Long2LongHashMap.KeyIterator ids = beginEpochNs.keySet().iterator();
            while (ids.hasNext())
            {
                final long id = ids.nextValue();
                final long begin = beginEpochNs.get(id);
                final long end = endEpochNs.get(id);
                if (Long.MIN_VALUE != end && end >= begin)
                {
                    final String cause = operation.get(id);
                    pauses.add(new PauseEvent(process, null == cause ? "Safepoint" : cause, begin, end - begin));
                }
            }
            pauses.sort(Comparator.comparingLong(PauseEvent::startEpochNs));
            return pauses;
        }
    }

    /**
     * @param instant a wall-clock instant (JFR event times, {@link Instant#now()}).
     * @return it in epoch nanoseconds, the time base of every {@link PauseEvent}.
     */
    static long epochNs(final Instant instant)
    {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
