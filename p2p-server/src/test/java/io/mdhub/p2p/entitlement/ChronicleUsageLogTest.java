package io.mdhub.p2p.entitlement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.P2pServer;

/**
 * The Chronicle usage log: every field written is read back, the log survives a close and reopen (a restart) with
 * the new records after the old, appends from several threads all arrive in each thread's order, the server's
 * Context builds and closes it from the usage directory, and what one append costs (printed, not asserted).
 */
@InterruptAfter(60)
class ChronicleUsageLogTest
{
    @TempDir
    Path dir;

    static UsageRecord record(final UsageEvent event, final long timeMs, final long connectionId, final String user)
    {
        final UsageRecord record = new UsageRecord();
        record.event = event;
        record.timeMs = timeMs;
        record.connectionId = connectionId;
        record.user = user;
        return record;
    }

    static List<UsageRecord> readAll(final Path dir)
    {
        final List<UsageRecord> records = new ArrayList<>();
        try (UsageLogReader reader = UsageLogReader.open(dir))
        {
            UsageRecord record = new UsageRecord();
            while (reader.next(record))
            {
                records.add(record);
                record = new UsageRecord();
            }
        }
        return records;
    }

    @Test
    void everyFieldIsReadBack()
    {
        final UsageRecord written = record(UsageEvent.ITEM_CLOSED, 1_796_000_000_123L, 42, "alice");
        written.position = "10.0.0.7/net";
        written.application = "256";
        written.service = "ELEKTRON_DD";
        written.item = "IBM.N";
        written.domainType = 6;
        written.codes = "62,144";
        written.reason = "closed by the consumer";
        written.openedMs = 1_796_000_000_000L;
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir))
        {
            log.append(written);
            written.reset(); // the log read it during the call only
        }

        final List<UsageRecord> records = readAll(dir);
        assertEquals(3, records.size());
        assertSame(UsageEvent.LOG_OPENED, records.get(0).event);
        final UsageRecord read = records.get(1);
        assertSame(UsageEvent.ITEM_CLOSED, read.event);
        assertEquals(1_796_000_000_123L, read.timeMs);
        assertEquals(42, read.connectionId);
        assertEquals("alice", read.user);
        assertEquals("10.0.0.7/net", read.position);
        assertEquals("256", read.application);
        assertEquals("ELEKTRON_DD", read.service);
        assertEquals("IBM.N", read.item);
        assertEquals(6, read.domainType);
        assertEquals("62,144", read.codes);
        assertEquals("closed by the consumer", read.reason);
        assertEquals(1_796_000_000_000L, read.openedMs);
        assertSame(UsageEvent.LOG_CLOSED, records.get(2).event);
    }

    @Test
    void aReopenedLogAppendsAfterTheOldRecords()
    {
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir))
        {
            log.append(record(UsageEvent.LOGIN_GRANTED, 1000, 1, "alice"));
            log.append(record(UsageEvent.LOGIN_DENIED, 1001, 2, "bob"));
        }
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir))
        {
            log.append(record(UsageEvent.LOGIN_GRANTED, 2000, 1, "carol"));
        }

        final List<String> seen = new ArrayList<>();
        for (final UsageRecord record : readAll(dir))
        {
            seen.add(record.event + (null == record.user ? "" : " " + record.user));
        }
        assertEquals(List.of("LOG_OPENED", "LOGIN_GRANTED alice", "LOGIN_DENIED bob", "LOG_CLOSED",
            "LOG_OPENED", "LOGIN_GRANTED carol", "LOG_CLOSED"), seen);
    }

    @Test
    void appendsFromSeveralThreadsAllArriveInEachThreadsOrder() throws InterruptedException
    {
        final int threads = 4;
        final int perThread = 5_000;
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[CountersManager.METADATA_LENGTH * 4]),
            new UnsafeBuffer(new byte[CountersManager.COUNTER_LENGTH * 4]));
        final AtomicCounter appended = counters.newCounter("appended");
        final AtomicCounter failed = counters.newCounter("failed");
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir, appended, failed))
        {
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int id = t + 1;
                final Thread worker = new Thread(() ->
                {
                    final UsageRecord record = new UsageRecord(); // one per worker, reused as the workers do
                    try
                    {
                        start.await();
                    }
                    catch (final InterruptedException ex)
                    {
                        return;
                    }
                    for (int i = 0; i < perThread; i++)
                    {
                        record.reset();
                        record.event = UsageEvent.ITEM_GRANTED;
                        record.connectionId = id;
                        record.timeMs = i;
                        record.item = "ITEM" + i;
                        log.append(record);
                    }
                }, "usage-writer-" + id);
                worker.start();
                workers.add(worker);
            }
            start.countDown();
            for (final Thread worker : workers)
            {
                worker.join();
            }
        }

        final long[] next = new long[threads + 1];
        int grants = 0;
        for (final UsageRecord record : readAll(dir))
        {
            if (UsageEvent.ITEM_GRANTED == record.event)
            {
                final int id = (int)record.connectionId;
                assertEquals(next[id], record.timeMs, "thread " + id + "'s records in its order");
                assertEquals("ITEM" + record.timeMs, record.item);
                next[id]++;
                grants++;
            }
        }
        assertEquals(threads * perThread, grants);
        // the opening and closing markers count too
        assertEquals(threads * perThread + 2, appended.get());
        assertEquals(0, failed.get());
    }

    @Test
    void everyEventHasItsOwnStableCode()
    {
        final java.util.Set<Integer> codes = new java.util.HashSet<>();
        for (final UsageEvent event : UsageEvent.values())
        {
            final int code = UsageWire.code(event);
            assertEquals(event, UsageWire.event(code), event + " has no code of its own in UsageWire");
            codes.add(code);
        }
        assertEquals(UsageEvent.values().length, codes.size());
        assertEquals(4, UsageWire.code(UsageEvent.ITEM_GRANTED), "codes in the log never change");
    }

    @Test
    void appendsAfterCloseAreDropped()
    {
        final ChronicleUsageLog log = new ChronicleUsageLog(dir);
        log.close();
        log.append(record(UsageEvent.LOGIN_GRANTED, 1, 1, "late"));
        log.close();
        assertEquals(2, readAll(dir).size());
    }

    @Test
    void theServerContextBuildsTheLogFromItsDirectoryAndClosesIt()
    {
        final Path usage = dir.resolve("usage");
        final P2pServer.Context ctx = new P2pServer.Context().componentName("p2p-usage-ctx")
            .itemSourceFactory((workerIndex, eventLoop, listener) -> null).usageDir(usage.toString());
        try
        {
            ctx.conclude();
            assertInstanceOf(ChronicleUsageLog.class, ctx.usageLog());
            ctx.usageLog().append(record(UsageEvent.LOGIN_GRANTED, 5, 9, "dave"));
        }
        finally
        {
            ctx.close();
        }
        final List<UsageRecord> records = readAll(usage);
        assertEquals(3, records.size());
        assertEquals("dave", records.get(1).user);
        assertSame(UsageEvent.LOG_CLOSED, records.get(2).event);

        final P2pServer.Context none = new P2pServer.Context().componentName("p2p-usage-none")
            .itemSourceFactory((workerIndex, eventLoop, listener) -> null).usageDir("");
        try
        {
            none.conclude();
            assertSame(UsageLog.NONE, none.usageLog());
        }
        finally
        {
            none.close();
        }
    }

    /**
     * The cost of one append from one thread into a fresh log, after a warm-up, and the heap it allocates: printed
     * for the operations guide (no timed assertion; this host is shared).
     */
    @Test
    void appendCost()
    {
        final com.sun.management.ThreadMXBean threadBean =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final int warmUp = 200_000;
        final int measured = 500_000;
        final UsageRecord record = record(UsageEvent.ITEM_GRANTED, System.currentTimeMillis(), 17, "user17");
        record.position = "10.1.2.3/host";
        record.application = "256";
        record.service = "ELEKTRON_DD";
        record.item = "VOD.L";
        record.domainType = 6;
        record.codes = "62,144";
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir))
        {
            for (int i = 0; i < warmUp; i++)
            {
                record.connectionId = i;
                log.append(record);
            }
            final long threadId = Thread.currentThread().getId();
            final long allocatedBefore = threadBean.getThreadAllocatedBytes(threadId);
            long worstNs = 0;
            final long startNs = System.nanoTime();
            long lastNs = startNs;
            for (int i = 0; i < measured; i++)
            {
                record.connectionId = i;
                log.append(record);
                final long nowNs = System.nanoTime();
                worstNs = Math.max(worstNs, nowNs - lastNs);
                lastNs = nowNs;
            }
            final long elapsedNs = System.nanoTime() - startNs;
            final long allocated = threadBean.getThreadAllocatedBytes(threadId) - allocatedBefore;
            System.out.printf("usage append: %d ns/append mean over %d, worst %d us, %.3f bytes allocated/append%n",
                elapsedNs / measured, measured, worstNs / 1000, (double)allocated / measured);
        }
        assertNull(null == record.event ? "" : null, "the record is the caller's and is left as it was");
    }
}
