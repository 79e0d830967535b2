package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.MsgClasses;
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
        final long startNs = System.nanoTime();
        int published = 0;
        while (0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get() && published < MAX_PUBLISHED)
        {
            final int item = published++ % ITEMS;
            source.update(SERVICE_ID, name(item), FILLER, FieldIds.TRDVOL_1, ++seq[item]);
            if (0 == published % 100)
            {
                drain(good, goodSeen);
                poolPeak = Math.max(poolPeak, poolBytes());
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
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        final String atDrop = figures();
        MdTests.await("the slow consumer's connection and streams gone",
            () -> 1 == counters.connectionsActive().get() && GOOD_ITEMS == counters.watchlistEntries().get());
        assertTrue(elapsedMs < timeoutMs + SLACK_MS, "dropped at its output limit or timeout: " + elapsedMs + " ms");

        // every consumer left gets every update, without a gap, during and after the drop
        for (int round = 0; round < 3; round++)
        {
            for (int item = 0; item < GOOD_ITEMS; item++)
            {
                source.update(SERVICE_ID, name(item), FILLER, FieldIds.TRDVOL_1, ++seq[item]);
            }
        }
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
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "only the slow consumer");

        // what its output held goes back: the pool returns to its level before the slow consumer filled it
        MdTests.await(() -> "the output pool back within " + POOL_SLACK_BYTES + " bytes of " + poolBefore + ": " +
            poolBytes(), () -> poolBytes() <= poolBefore + POOL_SLACK_BYTES);
        System.gc();
        System.out.println("slow consumer dropped after " + elapsedMs + " ms, " + published + " updates published; " +
            "pool peak " + poolPeak + " bytes; before: " + before + "; at the drop: " + atDrop + "; after: " +
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
        assertTrue(elapsedMs < timeoutMs + SLACK_MS, "at the slow-consumer timeout, not later: " + elapsedMs);
        MdTests.await("its stream gone", () -> 0 == counters.watchlistEntries().get());
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
}
