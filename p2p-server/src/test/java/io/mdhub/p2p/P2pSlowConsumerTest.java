package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Slow consumers under load: real ETA consumers, thousands of items, one consumer that stops reading.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(90)
class P2pSlowConsumerTest
{
    static final int SERVICE_ID = 1;
    static final int ITEMS = 2_000;
    static final int GOOD_ITEMS = 10;
    static final int FILLER = 400;
    static final int MAX_PUBLISHED = 400_000;
    static final long SLACK_MS = 4_000;
    static final int MAX_UNHANDLED = 5_000;
    static final int VIEW_ITEMS = 100;
    static final int CONFLATE_ROUNDS = 30;
    static final int RESUME_ROUNDS = 10;
    static final long MAX_HOUSEKEEPING_MS = 100;
    /** Two chunks of the output pool: what the pool may keep beyond its level before the slow consumer. */
    static final long POOL_SLACK_BYTES = 2 * P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_DEFAULT;

    final StubMarketDataSource source = new StubMarketDataSource().service(SERVICE_ID, "DIRECT_FEED");
    final List<AutoCloseable> closeables = new ArrayList<>();
    P2pServer server;

    P2pSlowConsumerTest()
    {
        for (int i = 0; i < ITEMS; i++)
        {
            source.item(SERVICE_ID, name(i), FieldIds.BID, 10_000 + i, FieldIds.ASK, 10_010 + i, FieldIds.TRDVOL_1, 0);
        }
    }

    static String name(final int index)
    {
        return String.format("ITEM%04d", index);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    EtaConsumer consumer(final String user, final int items)
    {
        final EtaConsumer consumer = EtaConsumer.connect(server.port());
        closeables.add(consumer);
        consumer.login(user);
        for (int i = 0; i < items; i++)
        {
            consumer.requestItem(10 + i, SERVICE_ID, name(i), true);
        }
        for (int i = 0; i < items; i++)
        {
            assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(10 + i).msgClass());
        }
        return consumer;
    }

    static long rssKb() throws Exception
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
        {
            if (line.startsWith("VmRSS:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    String figures() throws Exception
    {
        final PooledByteBufAllocatorMetric metric = server.context().outputAllocator().metric();
        final StringBuilder arenas = new StringBuilder();
        for (final io.netty.buffer.PoolArenaMetric arena : metric.directArenas())
        {
            arenas.append(" [active=").append(arena.numActiveBytes()).append(" caches=")
                .append(arena.numThreadCaches());
            for (final io.netty.buffer.PoolChunkListMetric list : arena.chunkLists())
            {
                for (final io.netty.buffer.PoolChunkMetric chunk : list)
                {
                    arenas.append(" u").append(chunk.usage());
                }
            }
            arenas.append(']');
        }
        return "allocatorDirect=" + metric.usedDirectMemory() + " chunkSize=" + metric.chunkSize() +
            " rssKb=" + rssKb() + arenas;
    }

    @Test
    void aConsumerThatStopsReadingIsDroppedAndWhatItHeldIsFreed() throws Exception
    {
        final long timeoutMs = 2_000;
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-slow-1").itemSourceFactory(source)
            .slowConsumerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timeoutMs)));
        final P2pCounters counters = server.context().counters();
        final EtaConsumer good = consumer("good", GOOD_ITEMS);
        final EtaConsumer slow = consumer("slow", ITEMS);
        final long poolBefore = poolBytes();
        final String before = figures();

        // the slow consumer reads nothing from here on; the good one reads as it goes
        final long[] seq = new long[ITEMS];
        final long[] goodSeen = new long[GOOD_ITEMS];
        long poolPeak = 0;
        long rssPeakKb = 0;
        long unwritableNs = 0;
        int published = 0;
        while (0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get() && published < MAX_PUBLISHED)
        {
            final int item = published++ % ITEMS;
            source.update(SERVICE_ID, name(item), FILLER, FieldIds.TRDVOL_1, ++seq[item]);
            if (0 == published % 100)
            {
                if (0 == unwritableNs && isUnwritable("slow"))
                {
                    unwritableNs = System.nanoTime(); // its output passed the guaranteed output: the clock runs
                }
                drain(good, goodSeen);
                poolPeak = Math.max(poolPeak, poolBytes());
                rssPeakKb = Math.max(rssPeakKb, rssKb());
                // a backbone source hands the worker what it can take; the stub queues tasks without limit
                final long sent = published;
                MdTests.await("the worker keeping up with the stub source", () ->
                {
                    drain(good, goodSeen);
                    return sent - updatesIn(counters) < MAX_UNHANDLED;
                });
            }
        }
        MdTests.await("the slow consumer disconnected",
            () -> 1 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get());
        final long elapsedMs = (System.nanoTime() - unwritableNs) / 1_000_000;
        final String atDrop = figures();
        MdTests.await("the slow consumer's connection and streams gone",
            () -> 1 == counters.connectionsActive().get() && GOOD_ITEMS == counters.watchlistEntries().get());
        assertTrue(0 != unwritableNs, "it was behind before it was dropped");
        assertTrue(elapsedMs < timeoutMs + SLACK_MS, "dropped at its output limit or timeout: " + elapsedMs +
            " ms after it turned unwritable");
        final long maxOutputBytes = server.context().maxOutputBytes();
        assertTrue(poolPeak <= 2 * maxOutputBytes, "the pool held about what was queued for it (at most " +
            maxOutputBytes + " bytes), not a frame per flush: " + poolPeak);

        // every consumer left gets every update, without a gap, during and after the drop
        for (int round = 0; round < 3; round++)
        {
            for (int item = 0; item < GOOD_ITEMS; item++)
            {
                source.update(SERVICE_ID, name(item), FILLER, FieldIds.TRDVOL_1, ++seq[item]);
            }
        }
        awaitCaughtUp(good, goodSeen, seq);
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "only the slow consumer");

        // what its output held goes back: the pool returns to its level before the slow consumer filled it
        MdTests.await(() -> "the output pool back within " + POOL_SLACK_BYTES + " bytes of " + poolBefore + ": " +
            poolBytes(), () -> poolBytes() <= poolBefore + POOL_SLACK_BYTES);
        System.gc();
        System.out.println("slow consumer dropped " + elapsedMs + " ms after it turned unwritable, " + published +
            " updates published; " +
            "pool peak " + poolPeak + " bytes, rss peak " +
            rssPeakKb + " kB; before: " + before + "; just after the drop: " + atDrop + "; after: " +
            figures());
        slow.close();
    }

    @Test
    void aThroughputConsumerThatStopsReadingUnderSteadyUpdatesIsDroppedAtTheTimeout() throws Exception
    {
        final long timeoutMs = 1_000;
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-slow-2").itemSourceFactory(source)
            .flushProfile(FlushProfile.THROUGHPUT).flushIntervalNs(TimeUnit.MILLISECONDS.toNanos(20))
            .slowConsumerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(timeoutMs))
            .maxOutputBytes(64 << 20)
            .ripcContext(new io.mdhub.common.ripc.RipcServer.Context().pingTimeoutNs(TimeUnit.SECONDS.toNanos(60))));
        final P2pCounters counters = server.context().counters();
        final RawRipcConsumer slow = new RawRipcConsumer(server.port());
        closeables.add(slow);
        slow.login("stops-reading");
        slow.requestItem(10, SERVICE_ID, name(0));
        MdTests.await("the consumer's stream", () -> 1 == counters.watchlistEntries().get());

        // about 4 MB/s: the kernel's buffers fill within a second or two, then output waits, but for seconds less
        // than would make the connection unwritable (32 MiB); and at every check a write waits for a flush tick
        final long startNs = System.nanoTime();
        long seq = 0;
        while (0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get() &&
            System.nanoTime() - startNs < TimeUnit.MILLISECONDS.toNanos(timeoutMs * 10))
        {
            source.update(SERVICE_ID, name(0), 10 * FILLER, FieldIds.TRDVOL_1, ++seq);
            Thread.sleep(1);
        }
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "after " + elapsedMs + " ms");
        // before the stall check read what waited after a flush, this one stayed until unwritable (8 s at 4 MB/s)
        assertTrue(elapsedMs < timeoutMs + SLACK_MS + 1_500, "at the slow-consumer timeout, not later: " + elapsedMs);
        MdTests.await("its stream gone", () -> 0 == counters.watchlistEntries().get());
    }

    /**
     * With the cache a stream that missed updates gets one conflated update from the item's image; without it, an
     * unsolicited refresh asked from the source.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void underConflateAConsumerThatPausesGetsEveryItemsLatestValuesWhenItResumes(final boolean isCached)
        throws Exception
    {
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-slow-3").itemSourceFactory(source)
            .cacheEnabled(isCached)
            .slowConsumerPolicy(SlowConsumerPolicy.CONFLATE)
            .guaranteedOutputBytes(64 * 1024)
            .slowConsumerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500))
            .conflateTimeoutNs(TimeUnit.SECONDS.toNanos(60)));
        final P2pCounters counters = server.context().counters();
        final EtaConsumer good = consumer("good", GOOD_ITEMS);
        // the paused consumer watches every item; the first VIEW_ITEMS with a view of two fields
        final EtaConsumer paused = EtaConsumer.connect(server.port());
        closeables.add(paused);
        final List<Map<Integer, Long>> seen = subscribeWithViews(paused);

        // it stops reading while every item updates many times; the good consumer reads as it goes
        final long[] seq = new long[ITEMS];
        final long[] goodSeen = new long[GOOD_ITEMS];
        int published = 0;
        while (published < CONFLATE_ROUNDS * ITEMS)
        {
            final int item = published++ % ITEMS;
            ++seq[item];
            source.update(SERVICE_ID, name(item), FILLER, FieldIds.BID, 20_000 + seq[item], FieldIds.TRDVOL_1,
                seq[item]);
            if (0 == published % 100)
            {
                final long sent = published;
                MdTests.await("the worker keeping up with the stub source", () ->
                {
                    drain(good, goodSeen);
                    return sent - updatesIn(counters) < MAX_UNHANDLED;
                });
            }
        }
        final long total = published;
        MdTests.await("every update handled", () -> total == updatesIn(counters));
        final long conflatedWhilePaused = counters.updatesConflated().get();
        assertTrue(conflatedWhilePaused > 0, "updates were held back while it was behind");
        assertEquals(0, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(),
            "behind for longer than the slow-consumer timeout, but not the conflation timeout");

        // it reads again while the updates go on (its connection turns writable and unwritable as it catches up):
        // each item's stream reaches the source's latest values, never going back
        final long resumeNs = System.nanoTime();
        final ResumedConsumer resumed = new ResumedConsumer(seen, isCached);
        for (int round = 0; round < RESUME_ROUNDS; round++)
        {
            for (int item = 0; item < ITEMS; item++)
            {
                ++seq[item];
                source.update(SERVICE_ID, name(item), FILLER, FieldIds.BID, 20_000 + seq[item], FieldIds.TRDVOL_1,
                    seq[item]);
                if (0 == ++published % 100)
                {
                    final long sent = published;
                    MdTests.await("the worker keeping up with the stub source", () ->
                    {
                        drain(good, goodSeen);
                        resumed.pollAll(paused);
                        return sent - updatesIn(counters) < MAX_UNHANDLED;
                    });
                }
            }
        }
        MdTests.await("every item's latest values on the resumed consumer", () ->
        {
            resumed.pollAll(paused);
            return resumed.isUpToDate(seq);
        });
        final int conflatedUpdates = resumed.conflatedUpdates;
        final long catchUpMs = (System.nanoTime() - resumeNs) / 1_000_000;
        for (int i = 0; i < ITEMS; i++)
        {
            final Map<Integer, Long> expected = source.image(SERVICE_ID, name(i));
            if (i < VIEW_ITEMS)
            {
                expected.keySet().retainAll(java.util.Set.of(FieldIds.BID, FieldIds.TRDVOL_1));
            }
            assertEquals(expected, seen.get(i), "the latest values of " + name(i));
        }
        assertEquals(isCached, conflatedUpdates > 0, "conflated updates with conflation info from the cache");

        // the good consumer saw every update in order, and nothing more arrives on the paused one's streams
        awaitCaughtUp(good, goodSeen, seq);
        assertEquals(2, counters.connectionsActive().get());
        assertEquals(0, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get());
        System.out.println("conflate (cache " + isCached + "): " + published + " updates published, " +
            conflatedWhilePaused + " held back, " + conflatedUpdates + " conflated updates sent, caught up in " +
            catchUpMs + " ms");
    }

    @Test
    void underConflateAConsumerBehindPastTheConflationTimeoutIsStillDisconnected() throws Exception
    {
        final long slowTimeoutMs = 300;
        final long conflateTimeoutMs = 2_000;
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-slow-4").itemSourceFactory(source)
            .slowConsumerPolicy(SlowConsumerPolicy.CONFLATE)
            .guaranteedOutputBytes(64 * 1024)
            .slowConsumerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(slowTimeoutMs))
            .conflateTimeoutNs(TimeUnit.MILLISECONDS.toNanos(conflateTimeoutMs)));
        final P2pCounters counters = server.context().counters();
        consumer("never-reads-again", ITEMS);

        long unwritableNs = 0;
        final long[] seq = new long[ITEMS];
        int published = 0;
        while (0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get() && published < MAX_PUBLISHED)
        {
            final int item = published++ % ITEMS;
            source.update(SERVICE_ID, name(item), FILLER, FieldIds.TRDVOL_1, ++seq[item]);
            if (0 == published % 100)
            {
                final long sent = published;
                MdTests.await("the worker keeping up with the stub source", () -> sent - updatesIn(counters) < 1000);
                if (0 == unwritableNs && counters.updatesConflated().get() > 0)
                {
                    unwritableNs = System.nanoTime(); // it is behind: updates are held back from here on
                }
            }
        }
        final long behindMs = (System.nanoTime() - unwritableNs) / 1_000_000;
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "published " + published);
        assertTrue(0 != unwritableNs, "it was behind before it was dropped");
        assertTrue(behindMs >= conflateTimeoutMs - MAX_HOUSEKEEPING_MS, "kept past the slow-consumer timeout, up to " +
            "the conflation timeout: " + behindMs + " ms");
        assertTrue(behindMs < conflateTimeoutMs + SLACK_MS, "dropped at the conflation timeout: " + behindMs + " ms");
        MdTests.await("its connection and streams gone", () -> 0 == counters.connectionsActive().get());
    }

    @Test
    void slowConsumerSettingsAreCheckedWhenConfigured()
    {
        assertEquals(SlowConsumerPolicy.CONFLATE, SlowConsumerPolicy.parse(" Conflate "));
        final IllegalArgumentException policy =
            assertThrows(IllegalArgumentException.class, () -> SlowConsumerPolicy.parse("drop"));
        assertTrue(policy.getMessage().startsWith(P2pConfiguration.SLOW_CONSUMER_POLICY_PROP_NAME),
            policy.getMessage());
        final IllegalArgumentException shorter = assertThrows(IllegalArgumentException.class, () -> context()
            .slowConsumerPolicy(SlowConsumerPolicy.CONFLATE).slowConsumerTimeoutNs(TimeUnit.SECONDS.toNanos(30))
            .conflateTimeoutNs(TimeUnit.SECONDS.toNanos(20)).conclude());
        assertTrue(shorter.getMessage().contains(P2pConfiguration.CONFLATE_TIMEOUT_PROP_NAME), shorter.getMessage());
        for (final int chunkSize : new int[] {32 * 1024, 100 * 1024, 32 << 20})
        {
            final IllegalArgumentException chunk = assertThrows(IllegalArgumentException.class,
                () -> context().outputPoolChunkSize(chunkSize).conclude(), () -> "chunk size " + chunkSize);
            assertTrue(chunk.getMessage().contains(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME),
                chunk.getMessage());
        }
        // the conflation timeout matters only under conflate
        final P2pServer.Context disconnect = context().slowConsumerTimeoutNs(TimeUnit.SECONDS.toNanos(120))
            .outputPoolChunkSize(64 * 1024);
        disconnect.conclude();
        assertEquals(SlowConsumerPolicy.DISCONNECT, disconnect.slowConsumerPolicy(), "the default");
        assertEquals(64 * 1024, disconnect.outputAllocator().metric().chunkSize());
        disconnect.close();
    }

    private P2pServer.Context context()
    {
        return new P2pServer.Context().port(0).componentName("p2p-slow-settings").itemSourceFactory(source)
            .registerMBean(false);
    }

    /**
     * Log in and open every item, the first {@link #VIEW_ITEMS} with a view of BID and TRDVOL_1.
     *
     * @return each stream's REAL fields as its refresh gave them.
     */
    private static List<Map<Integer, Long>> subscribeWithViews(final EtaConsumer consumer)
    {
        consumer.login("paused");
        for (int i = 0; i < ITEMS; i++)
        {
            if (i < VIEW_ITEMS)
            {
                consumer.requestView(10 + i, SERVICE_ID, name(i), true, FieldIds.BID, FieldIds.TRDVOL_1);
            }
            else
            {
                consumer.requestItem(10 + i, SERVICE_ID, name(i), true);
            }
        }
        final List<Map<Integer, Long>> seen = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++)
        {
            final EtaMessage refresh = consumer.awaitMessage(10 + i);
            assertEquals(MsgClasses.REFRESH, refresh.msgClass());
            seen.add(new TreeMap<>(refresh.mantissas()));
        }
        return seen;
    }

    private static void awaitCaughtUp(final EtaConsumer good, final long[] goodSeen, final long[] seq)
    {
        MdTests.await("the good consumer caught up", () ->
        {
            drain(good, goodSeen);
            for (int item = 0; item < GOOD_ITEMS; item++)
            {
                if (goodSeen[item] != seq[item])
                {
                    return false;
                }
            }
            return true;
        });
    }

    private static long updatesIn(final P2pCounters counters)
    {
        long sum = 0;
        for (final P2pCounters.ServiceCounters service : counters.services())
        {
            sum += service.updatesIn().get();
        }
        return sum;
    }

    /**
     * @return true if the user's connection is unwritable now, as the JMX connection list says.
     */
    private boolean isUnwritable(final String user)
    {
        for (final String line : server.control().getConnections())
        {
            if (line.contains(" user=" + user + " ") && line.endsWith("writable=false"))
            {
                return true;
            }
        }
        return false;
    }

    private long poolBytes()
    {
        return server.context().outputAllocator().metric().usedDirectMemory();
    }

    private static void drain(final EtaConsumer consumer, final long[] seen)
    {
        EtaMessage message;
        while (null != (message = consumer.poll()))
        {
            final int index = message.streamId() - 10;
            if (MsgClasses.UPDATE == message.msgClass())
            {
                final long value = message.mantissa(FieldIds.TRDVOL_1);
                assertEquals(seen[index] + 1, value, "no gap on stream " + message.streamId());
                seen[index] = value;
            }
        }
    }
    /**
     * What a consumer that paused sees when it reads again: every message checked as it arrives.
     */
    private static final class ResumedConsumer
    {
        final List<Map<Integer, Long>> seen;
        final boolean isCached;
        int conflatedUpdates;

        ResumedConsumer(final List<Map<Integer, Long>> seen, final boolean isCached)
        {
            this.seen = seen;
            this.isCached = isCached;
        }

        void pollAll(final EtaConsumer consumer)
        {
            EtaMessage message;
            while (null != (message = consumer.poll()))
            {
                apply(message);
            }
        }

        void apply(final EtaMessage message)
        {
            final int index = message.streamId() - 10;
            assertTrue(index >= 0 && index < ITEMS, message::toString);
            assertTrue(MsgClasses.UPDATE == message.msgClass() ||
                (!isCached && MsgClasses.REFRESH == message.msgClass() && !message.isSolicited()),
                () -> "no stream closed; a refresh only without the cache, unsolicited: " + message);
            final Map<Integer, Long> fields = message.mantissas();
            final Long volume = fields.get(FieldIds.TRDVOL_1);
            if (null != volume)
            {
                assertTrue(volume > seen.get(index).get(FieldIds.TRDVOL_1), "never back: " + message);
            }
            if (MsgClasses.UPDATE == message.msgClass() && 0 != (message.flags() & UpdateMsgFlags.HAS_CONF_INFO))
            {
                conflatedUpdates++;
                final UpdateMsg update = (UpdateMsg)message.msg();
                assertTrue(update.conflationCount() > 0, message::toString);
                assertTrue(0 != (message.flags() & UpdateMsgFlags.DO_NOT_RIPPLE), message::toString);
                if (index < VIEW_ITEMS)
                {
                    assertEquals(java.util.Set.of(FieldIds.BID, FieldIds.TRDVOL_1), fields.keySet(),
                        "the conflated update honours the view: " + message);
                }
            }
            seen.get(index).putAll(fields);
        }

        boolean isUpToDate(final long[] seq)
        {
            for (int i = 0; i < ITEMS; i++)
            {
                if (seq[i] != seen.get(i).get(FieldIds.TRDVOL_1))
                {
                    return false;
                }
            }
            return true;
        }
    }
}
