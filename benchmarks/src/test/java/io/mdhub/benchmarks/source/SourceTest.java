package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcCounters;
import io.mdhub.common.rwf.eta.DirectoryRefreshDecoder;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.FieldListDecoder;
import io.mdhub.common.rwf.eta.FieldListHandler;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.util.ResourceLeakDetector;

/**
 * The source speaks to a distributor as an ETA non-interactive provider does, checked by decoding everything it sent
 * with ETA: a provider login, an unsolicited directory refresh on stream -1, one refresh per item on its own
 * negative stream, then updates whose per-item counters run 1, 2, 3... without a gap, some carrying a timestamp.
 */
@InterruptAfter(30)
class SourceTest
{
    private static final int ITEMS = 50;
    private final DataDictionary dictionary = DictionaryLoader.loadBundled();
    private final EtaMsgReader reader = new EtaMsgReader();
    private final FieldListDecoder fieldList = new FieldListDecoder();
    private final List<byte[]> messages = new ArrayList<>();

    @Test
    void publishesLoginDirectoryRefreshesAndCountedUpdates()
    {
        publishAndCheck(true);
    }

    /**
     * Updates are packed into the RIPC frame straight from the source's encoding buffer; with packing off each one
     * goes out as a message buffer of its own instead, and nothing else changes.
     */
    @Test
    void withPackingOffUpdatesGoOutOneByOne()
    {
        System.setProperty(RipcConfiguration.PACK_OUTBOUND_PROP_NAME, "false");
        try
        {
            publishAndCheck(false);
        }
        finally
        {
            System.clearProperty(RipcConfiguration.PACK_OUTBOUND_PROP_NAME);
        }
    }

    /**
     * Once warm, publishing an update allocates nothing on the source's event loop (the bytes of 20,000 updates,
     * spread over them, stay well under one small object each); a message buffer and wrapper per update would be
     * over 100 bytes each.
     */
    @Test
    void publishingUpdatesAllocatesNothingOnceWarm()
    {
        // the build's paranoid leak detector records a stack trace at every access of a pooled buffer: that is test
        // instrumentation, not the update path, so it is off while this test runs
        final ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (FakeDistributor distributor = new FakeDistributor(true);
            Source source = Source.launch(new Source.Context()
                .port(distributor.port())
                .itemCount(ITEMS)
                .rate(20_000)))
        {
            MdTests.await(() -> "warm-up updates, sent " + source.stats().updatesSent(),
                () -> source.stats().updatesSent() >= 10_000);
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            // the running source's event loop: a stopped one (of an earlier test) would read -1 and pass by itself
            final List<Thread> loops = Thread.getAllStackTraces().keySet().stream()
                .filter((thread) -> thread.getName().startsWith("ripc-mdhub-source") && thread.isAlive()).toList();
            assertEquals(1, loops.size(), loops::toString);
            final long loop = loops.get(0).getId();
            final long sentBefore = source.stats().updatesSent();
            final long allocatedBefore = threads.getThreadAllocatedBytes(loop);
            assertTrue(allocatedBefore > 0, "the event loop's allocation is measured: " + allocatedBefore);
            MdTests.await(() -> "20,000 more updates, sent " + (source.stats().updatesSent() - sentBefore),
                () -> source.stats().updatesSent() - sentBefore >= 20_000);
            final double perUpdate = (double)(threads.getThreadAllocatedBytes(loop) - allocatedBefore) /
                (source.stats().updatesSent() - sentBefore);
            assertTrue(perUpdate < 8, "bytes allocated per update on the source's event loop: " + perUpdate);
        }
        finally
        {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /**
     * @param isPacked whether the source packs: several messages share a RIPC frame, else every message has its own.
     */
    private void publishAndCheck(final boolean isPacked)
    {
        try (FakeDistributor distributor = new FakeDistributor(true);
            Source source = Source.launch(new Source.Context()
                .port(distributor.port())
                .serviceName("NI_TEST")
                .serviceId(7)
                .itemCount(ITEMS)
                .rate(5000)
                .timestampEvery(10)))
        {
            MdTests.await(() -> "500 updates, sent " + source.stats().updatesSent(),
                () -> source.stats().updatesSent() >= 500);
            assertTrue(distributor.isProviderLogin, "login carries Role = provider");
            assertTrue(source.stats().isConnected());
            source.rate(0);
            MdTests.await(() -> "everything sent to arrive: " + distributor.received.size() + " of 2 + " + ITEMS +
                " + " + source.stats().updatesSent(),
                () -> distributor.received.size() == 2 + ITEMS + source.stats().updatesSent());
            messages.addAll(distributor.received);
            final RipcCounters counters = distributor.counters();
            MdTests.await("the decoder's counters flushed", () -> counters.messagesIn().get() == messages.size());
            final long dataFrames = counters.framesIn().get() - counters.pingsIn().get();
            if (isPacked)
            {
                // 5 updates a 1 ms tick at 5,000/s: they share frames
                assertTrue(dataFrames < messages.size(), dataFrames + " frames for " + messages.size() + " messages");
            }
            else
            {
                assertEquals(messages.size(), dataFrames, "a frame per message");
            }
        }

        assertEquals(DomainTypes.LOGIN, messages.get(0)[3]);
        assertDirectory(messages.get(1));

        final long[] lastSeq = new long[ITEMS];
        int refreshes = 0;
        int updates = 0;
        int timestamped = 0;
        int shortest = Integer.MAX_VALUE;
        int longest = 0;
        for (int i = 2; i < messages.size(); i++)
        {
            final byte[] bytes = messages.get(i);
            assertEquals(CodecReturnCodes.SUCCESS, reader.read(new UnsafeBuffer(bytes), 0, bytes.length));
            assertEquals(DomainTypes.MARKET_PRICE, reader.msg().domainType());
            final int item = -reader.msg().streamId() - 2;
            final Fields fields = new Fields();
            fieldList.decode(reader.iterator(), dictionary, fields);
            if (MsgClasses.REFRESH == reader.msg().msgClass())
            {
                assertEquals(refreshes, item, "refreshes in item order");
                assertEquals(String.format("MD%06d.X", item), reader.msg().msgKey().name().toString());
                assertEquals(7, reader.msg().msgKey().serviceId());
                assertFalse(0 != (reader.msg().flags() & RefreshMsgFlags.SOLICITED), "NIP refreshes are unsolicited");
                assertEquals(0, fields.updateSeq);
                refreshes++;
            }
            else
            {
                assertEquals(MsgClasses.UPDATE, reader.msg().msgClass());
                assertEquals(ITEMS, refreshes, "updates only after every refresh");
                assertEquals(lastSeq[item] + 1, fields.updateSeq, "per-item counter has no gap");
                lastSeq[item] = fields.updateSeq;
                updates++;
                if (fields.originNs > 0)
                {
                    timestamped++;
                }
                shortest = Math.min(shortest, bytes.length);
                longest = Math.max(longest, bytes.length);
            }
        }
        assertTrue(updates >= 500, "updates received: " + updates);
        assertEquals(updates / 10, timestamped, "every 10th update carries a timestamp");
        assertTrue(shortest >= 60 && longest <= 80, "level-1 updates of the published 74-byte class: " + shortest +
            " to " + longest + " bytes");
    }

    @Test
    void aTickLargerThanTheWriteBufferGoesOutWholeWithoutSkipping() throws InterruptedException
    {
        try (FakeDistributor distributor = new FakeDistributor(true);
            Source source = Source.launch(new Source.Context()
                .port(distributor.port())
                .itemCount(ITEMS)
                .rate(20_000)
                .maxBurst(1_000_000)))
        {
            MdTests.await(() -> "warm-up updates, sent " + source.stats().updatesSent(),
                () -> source.stats().updatesSent() >= 5_000);
            // 2,000,000/s in 1 ms ticks for 100 ms: ~140 KB a tick, twice Netty's 64 KB high water mark, which the
            // writes of one tick pass before its flush
            source.rate(2_000_000);
            Thread.sleep(100);
            source.rate(0);
            MdTests.await(() -> "everything sent to arrive: " + distributor.received.size() + " of 2 + " + ITEMS +
                " + " + source.stats().updatesSent(),
                () -> distributor.received.size() == 2 + ITEMS + source.stats().updatesSent());
            assertEquals(0, source.stats().skipped(), "nothing due was dropped");
            // a reader that keeps up seldom fills the socket (0 or 1 time in runs here); a tick that stopped at the
            // water mark without flushing would count as pushed back every time (6 to 8 times in runs here)
            assertTrue(source.stats().pushBacks() <= 2, "push-backs: " + source.stats().pushBacks());
        }
    }

    @Test
    void stopsWhenTheDistributorRefusesTheLogin()
    {
        try (FakeDistributor distributor = new FakeDistributor(false);
            Source source = Source.launch(new Source.Context().port(distributor.port()).itemCount(5)))
        {
            MdTests.await("the source to give up", () -> !source.isActive());
            assertTrue(source.stats().isLoginRefused());
            assertEquals(0, source.stats().refreshesSent());
        }
    }

    private void assertDirectory(final byte[] bytes)
    {
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(new UnsafeBuffer(bytes), 0, bytes.length));
        assertEquals(DomainTypes.SOURCE, reader.msg().domainType());
        assertEquals(-1, reader.msg().streamId());
        final DirectoryRefreshDecoder directory = new DirectoryRefreshDecoder();
        assertEquals(CodecReturnCodes.SUCCESS, directory.decode(reader));
        assertEquals("NI_TEST", directory.services().get(0).info().serviceName().toString());
        assertEquals(7, directory.services().get(0).serviceId());
        assertEquals(1, directory.services().get(0).state().serviceState());
    }

    private static final class Fields implements FieldListHandler
    {
        long updateSeq = -1;
        long originNs;

        public void onReal(final int fid, final long mantissa, final int hint)
        {
        }

        public void onUInt(final int fid, final long value)
        {
            if (FieldIds.MDH_UPDSEQ == fid)
            {
                updateSeq = value;
            }
        }

        public void onInt(final int fid, final long value)
        {
            if (FieldIds.MDH_ORGTIM == fid)
            {
                originNs = value;
            }
        }

        public void onEnum(final int fid, final int value)
        {
        }

        public void onDate(final int fid, final int day, final int month, final int year)
        {
        }

        public void onTime(
            final int fid, final int hour, final int minute, final int second, final int millisecond,
            final int microsecond, final int nanosecond)
        {
        }

        public void onString(final int fid, final int dataType, final Buffer value)
        {
        }

        public void onBlank(final int fid, final int dataType)
        {
        }

        public void onOther(final int fid, final int dataType, final Buffer encoded)
        {
        }
    }
}
