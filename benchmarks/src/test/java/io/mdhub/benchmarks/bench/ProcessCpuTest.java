package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The sampler on the test's own JVM: a thread's CPU time and its blocking show between two samples, a thread that
 * started and ended between them is still counted (from the process's ticks), and a process that is gone samples as
 * null.
 */
@InterruptAfter(20)
class ProcessCpuTest
{
    private static final long PID = ProcessHandle.current().pid();
    private static final long BURN_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int PARKS = 20;

    @Test
    void aThreadsCpuAndItsBlockingShowBetweenTwoSamples() throws Exception
    {
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ProcessCpu.Sample start = ProcessCpu.sample(PID);
        assertNotNull(start);
        final Thread worker = new Thread(() ->
        {
            burn();
            for (int i = 0; i < PARKS; i++)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a voluntary switch each
            }
            done.countDown();
            awaitQuietly(release);
        }, "cpu-test-worker");
        worker.start();
        try
        {
            done.await();
            final ProcessCpu.Sample end = ProcessCpu.sample(PID);
            assertNotNull(end);
            final ProcessCpu.Usage usage = ProcessCpu.between(start, end);
            assertTrue(usage.cpuNs() >= BURN_NS, () -> "the worker's CPU time at least: " + usage);
            assertTrue(usage.statCpuNs() >= BURN_NS - 2 * ProcessCpu.nsPerTick(), () -> "the ticks agree: " + usage);
            assertTrue(usage.voluntary() >= PARKS, () -> "each park a voluntary switch: " + usage);
            assertTrue(usage.threadsAtEnd() > 1, () -> "a JVM has threads: " + usage);
            assertEquals(end.threads().size(), usage.threadsAtEnd());
        }
        finally
        {
            release.countDown();
            worker.join();
        }
    }

    @Test
    void aThreadThatStartedAndEndedBetweenTheSamplesIsStillCounted() throws Exception
    {
        final ProcessCpu.Sample start = ProcessCpu.sample(PID);
        final Path[] task = new Path[1];
        final Thread worker = new Thread(() ->
        {
            task[0] = ownTask();
            burn();
        }, "cpu-test-short-lived");
        worker.start();
        worker.join();
        // a joined Java thread's kernel task may linger a moment, still listed with its time: sample once it is gone
        while (Files.exists(task[0]) && !Thread.currentThread().isInterrupted())
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final ProcessCpu.Usage usage = ProcessCpu.between(start, ProcessCpu.sample(PID));
        assertTrue(usage.fromTicks(), () -> "its time is only in the process's ticks now: " + usage);
        assertTrue(usage.cpuNs() >= BURN_NS - 2 * ProcessCpu.nsPerTick(), () -> "and counted: " + usage);
    }

    @Test
    void theStatLineIsReadPastANameWithSpacesAndParentheses()
    {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        assertEquals(123 + 45, ProcessCpu.statTicks("42 (a (b) c) S 1 42 42 0 -1 4194560 10 0 0 0 123 45 0 0 20 0"));
    }

    @Test
    void aProcessThatIsGoneSamplesAsNull() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        assertNull(ProcessCpu.sample(gone.pid()));
    }

    private static Path ownTask()
    {
        try
        {
            return Paths.get("/proc").resolve(Files.readSymbolicLink(Paths.get("/proc/thread-self")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void burn()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long until = threads.getCurrentThreadCpuTime() + BURN_NS;
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() < until)
        {
            for (int i = 0; i < 10_000; i++)
            {
                sink += i * 31L;
            }
        }
        if (42 == sink)
        {
            System.out.println(sink); // keeps the loop
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
