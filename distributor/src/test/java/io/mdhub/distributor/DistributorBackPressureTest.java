package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.rdm.DomainTypes;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.RecordingBackboneListener.Event;

/**
 * Back-pressure travels upstream: a backbone subscriber that stops polling fills the distributor's small (64 KiB
 * term) IPC publication, the distributor stops reading its provider connection and keeps what it already read in
 * its bounded pending store, the provider's TCP writes back up, and once the subscriber polls again every update
 * arrives, in order, with contiguous sequence numbers. Only a full pending store drops (counted, gap visible), and a
 * pause longer than the ping timeout does not cost the provider its connection.
 * <p>
 * The provider publishes from its own thread (its writes block while the distributor does not read); the test
 * thread plays the p2p-server and decides when the subscriber polls.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class DistributorBackPressureTest
{
    private static final String CHANNEL = "aeron:ipc";
    private static final int DATA_STREAM = 2101;
    private static final int CONTROL_STREAM = 2102;
    private static final int SERVICE_ID = 1;
    private static final int TERM_LENGTH = 64 * 1024;
    private static final String UPDATES_IN = "distributor-service-updates-in: service=NI_PUB";
    private static final String PAUSES = "distributor-read-pauses:";
    private static final String PAUSED_NS = "distributor-read-paused-ns:";
    private static final String KEEPALIVE_READS = "distributor-keepalive-reads:";
    private static final String PENDING_HWM = "distributor-backbone-pending-hwm:";
    private static final String PENDING_BYTES = "distributor-backbone-pending-bytes:";
    private static final String DROPPED_FULL = "distributor-messages-dropped: reason=backbone-pending-full";
    private static final String DROPPED_NOT_CONNECTED = "distributor-messages-dropped: reason=backbone-not-connected";

    @TempDir
    Path dir;

    private final EtaFieldLists fields = new EtaFieldLists();
    private final List<EtaNiProvider> providers = new ArrayList<>();
    private final CountersManager testCounters = new CountersManager(
        new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
    private final AtomicCounter testMalformed = testCounters.newCounter("malformed");
    private BackboneNode node;
    private Aeron aeron;
    private Distributor distributor;
    private RecordingBackboneListener data;
    private ControlPublisher control;
    private Burst burst;

    @BeforeEach
    void launchBackbone()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(TERM_LENGTH)
            .ipcTermBufferLength(TERM_LENGTH)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(burst);
        providers.forEach(EtaNiProvider::close);
        CloseHelper.closeAll(distributor, aeron, node);
    }

    private Distributor.Context context()
    {
        final Distributor.Context ctx = new Distributor.Context()
            .providerPort(0).componentName("distributor-back-pressure-test").registerMBean(false);
        ctx.backbone()
            .aeron(aeron)
            .channel(CHANNEL)
            .dataStreamId(DATA_STREAM)
            .controlStreamId(CONTROL_STREAM)
            .announceIntervalMs(20);
        return ctx;
    }

    private EtaNiProvider launchAndPublishItem(final Distributor.Context ctx)
    {
        distributor = Distributor.launch(ctx);
        data = new RecordingBackboneListener(aeron.addSubscription(CHANNEL, DATA_STREAM), testMalformed);
        data.await("first announcement", (e) -> "announce".equals(e.type()));
        final EtaNiProvider nip = EtaNiProvider.connect(distributor.port());
        providers.add(nip);
        nip.login("nip");
        nip.publishDirectory(SERVICE_ID, "NI_PUB");
        nip.refresh(-2, SERVICE_ID, "TRI.N", fields.begin(1, 0).uint(1, 64).ascii(3, "TRI").real(22, 1, 2).end());
        assertEquals(1, data.awaitData("refresh", 1).get(0).sequence());
        return nip;
    }

    private long counter(final String labelPrefix)
    {
        final long[] value = {-1};
        distributor.countersReader().forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.startsWith(labelPrefix))
            {
                value[0] = distributor.countersReader().getCounterValue(counterId);
            }
        });
        return value[0];
    }

    private static void assertContiguousUpdates(final List<Event> updates, final Burst burst, final int count)
    {
        assertEquals(count, updates.size(), "every update arrived");
        for (int i = 0; i < count; i++)
        {
            final Event update = updates.get(i);
            assertEquals(2 + i, update.sequence(), "contiguous sequence in publication order");
            assertArrayEquals(burst.sent[i], update.rwf(), "update " + i + " is the provider's, in its order");
        }
    }

    private static String figures(final DistributorBackPressureTest test)
    {
        return "pauses=" + test.counter(PAUSES) + " pausedMs=" +
            TimeUnit.NANOSECONDS.toMillis(test.counter(PAUSED_NS)) + " pendingHwm=" + test.counter(PENDING_HWM) +
            " keepAliveReads=" + test.counter(KEEPALIVE_READS) + " droppedFull=" + test.counter(DROPPED_FULL);
    }

    @Test
    void aStalledSubscriberPausesTheProviderAndEveryUpdateArrivesInOrderOnceItPollsAgain()
    {
        final EtaNiProvider nip = launchAndPublishItem(context());
        final int count = 50_000;
        burst = new Burst(nip, count, false);

        // the subscriber does not poll: the 32 KiB window fills, the distributor pauses the provider
        MdTests.await("reading paused", () -> counter(PAUSES) >= 1);
        MdTests.await("paused for 300 ms", () -> counter(PAUSED_NS) >= TimeUnit.MILLISECONDS.toNanos(300));
        final long handledWhilePaused = counter(UPDATES_IN);
        final int sentWhilePaused = burst.sentCount;
        assertTrue(handledWhilePaused < count, "the distributor stopped taking updates: " + handledWhilePaused);
        assertTrue(counter(PENDING_BYTES) > 0, "what was read after the pause waits in the store");

        final List<Event> updates = data.awaitData("update", count);
        burst.awaitDone();
        assertContiguousUpdates(updates, burst, count);
        assertEquals(count, counter(UPDATES_IN));
        assertEquals(0, counter(DROPPED_FULL), "nothing dropped");
        assertEquals(0, counter(DROPPED_NOT_CONNECTED));
        final long hwm = counter(PENDING_HWM);
        assertTrue(hwm > 0 && hwm <= ctxPendingBytes(), "pending high-water within the cap: " + hwm);
        data.await("announcement of the last sequence", (e) -> "service".equals(e.type()) &&
            1 + count == e.lastSequence());
        MdTests.await("store empty and reading again",
            () -> 0 == counter(PENDING_BYTES) && !distributor.onEventLoop((d) -> distributor.backbone()
                .isLiveDataWaiting()));
        assertEquals(1, distributor.mxBean().getConnections().length, "the provider stayed connected");
        System.out.println("stalled subscriber, " + count + " updates: handled while paused=" + handledWhilePaused +
            " provider had sent=" + sentWhilePaused + " " + figures(this));
    }

    private long ctxPendingBytes()
    {
        return distributor.backbone().context().pendingBytes();
    }

    @Test
    void aFullPendingStoreDropsCountedAndTheGapIsVisible()
    {
        final Distributor.Context ctx = context();
        ctx.backbone().pendingBytes(4096);
        final EtaNiProvider nip = launchAndPublishItem(ctx);
        final int count = 3000;
        burst = new Burst(nip, count, false);

        // one socket read after the pause is far more than 4 KiB: the rest of it is dropped
        MdTests.await("drops on a full store", () -> counter(DROPPED_FULL) >= 1);
        assertTrue(counter(PENDING_HWM) <= 4096, "the cap holds");

        MdTests.await(() -> "every update handled; " + figures(this), () ->
        {
            data.poll();
            return count == counter(UPDATES_IN);
        });
        burst.awaitDone();
        final Event announced = data.await("announcement of the last sequence",
            (e) -> "service".equals(e.type()) && 1 + count == e.lastSequence());
        final List<Event> received = data.data("update");
        final long dropped = counter(DROPPED_FULL);
        assertEquals(count, received.size() + dropped, "every update published or counted as dropped");
        assertTrue(dropped > 0 && received.size() > 0, "some dropped, some published: " + dropped);
        long previous = 1;
        boolean sawGap = false;
        int sent = 0;
        for (final Event update : received)
        {
            assertTrue(update.sequence() > previous, "sequences only grow");
            sawGap |= update.sequence() > previous + 1;
            previous = update.sequence();
            while (sent < count && !Arrays.equals(burst.sent[sent], update.rwf()))
            {
                sent++;
            }
            assertTrue(sent < count, "published updates keep the provider's order");
        }
        assertTrue(sawGap || previous < announced.lastSequence(), "the loss is visible to a p2p-server");
        assertTrue(counter(PAUSES) >= 1);
        System.out.println("tiny pending store (4 KiB), " + count + " updates: published=" + received.size() + " " +
            figures(this));
    }

    @Test
    void aPauseLongerThanThePingTimeoutKeepsTheProviderConnected()
    {
        final Distributor.Context ctx = context();
        ctx.ripc().pingTimeoutNs(TimeUnit.SECONDS.toNanos(1)).minPingTimeoutNs(TimeUnit.SECONDS.toNanos(1));
        final EtaNiProvider nip = launchAndPublishItem(ctx);
        final int count = 20_000;
        burst = new Burst(nip, count, true);

        MdTests.await("paused for 2.5 ping timeouts",
            () -> counter(PAUSED_NS) >= TimeUnit.MILLISECONDS.toNanos(2500));
        assertTrue(counter(KEEPALIVE_READS) >= 2, "keep-alive reads: " + counter(KEEPALIVE_READS));
        assertEquals(1, distributor.mxBean().getConnections().length, "the provider is still connected");
        assertEquals(0, counter("ripc-disconnects: reason=ping-timeout"));

        final List<Event> updates = data.awaitData("update", count);
        burst.awaitDone();
        assertContiguousUpdates(updates, burst, count);
        assertEquals(0, counter(DROPPED_FULL), "the keep-alive reads fitted in the store");
        assertEquals(1, distributor.mxBean().getConnections().length, "the provider is still connected");
        System.out.println("pause of 2.5 ping timeouts, " + count + " updates: " + figures(this));
    }

    @Test
    void answersForOtherItemsGoFirstAndAnItemsImageWaitsForItsPendingUpdates()
    {
        final EtaNiProvider nip = launchAndPublishItem(context());
        nip.refresh(-3, SERVICE_ID, "IBM.N", fields.begin(1, 0).uint(1, 64).ascii(3, "IBM").real(22, 7, 2).end());
        data.awaitData("refresh", 2);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, CONTROL_STREAM);
        MdTests.await("control stream connected", publication::isConnected);
        control = new ControlPublisher(new BackbonePublication(publication, 3, testCounters.newCounter("bp")), 42);
        final int count = 5000;
        burst = new Burst(nip, count, false);
        MdTests.await("live data waiting", () -> counter(PENDING_BYTES) > 0);

        // both asked for while TRI.N updates wait in the store and the stream is full
        assertTrue(control.requestItem(502, SERVICE_ID, DomainTypes.MARKET_PRICE, true, ascii("IBM.N"), 0, 5) > 0);
        assertTrue(control.requestItem(501, SERVICE_ID, DomainTypes.MARKET_PRICE, true, ascii("TRI.N"), 0, 5) > 0);

        final List<Event> updates = data.awaitData("update", count);
        burst.awaitDone();
        final Event triImage = data.await("TRI.N answered", (e) -> 501 == e.requestId());
        final Event ibmImage = data.await("IBM.N answered", (e) -> 502 == e.requestId());
        assertEquals(count, updates.size());
        for (int i = 0; i < count; i++)
        {
            assertArrayEquals(burst.sent[i], updates.get(i).rwf(), "update " + i + " in the provider's order");
        }
        final List<Event> all = data.dataMessages();
        for (int i = 0; i < all.size(); i++)
        {
            assertEquals(1 + i, all.get(i).sequence(), "updates and answers share one contiguous sequence");
        }
        assertEquals(0, counter(DROPPED_FULL));

        // IBM.N has no pending updates: answered from the window the subscriber freed, before the backlog
        assertTrue(ibmImage.sequence() < updates.get(updates.size() - 1).sequence(),
            "IBM.N answered before the burst was out: " + ibmImage.sequence());
        // TRI.N's image waited for the TRI.N updates pending when it was asked for, and shows exactly the last
        // update published before it
        int lastBefore = -1;
        for (int i = 0; i < updates.size(); i++)
        {
            if (updates.get(i).sequence() < triImage.sequence())
            {
                lastBefore = i;
            }
        }
        assertTrue(lastBefore >= 0, "the image came after pending updates");
        assertEquals("TRI.N", triImage.name());
        assertArrayEquals(fid22(burst.sent[lastBefore]), fid22(triImage.rwf()),
            "the image reflects exactly the updates published before it (update " + lastBefore + ")");
        System.out.println("answers while paused: IBM.N at seq " + ibmImage.sequence() + ", TRI.N at seq " +
            triImage.sequence() + " of " + (count + 4) + "; " + figures(this));
    }

    private static UnsafeBuffer ascii(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] fid22(final byte[] rwf)
    {
        final DecodeIterator it = EtaNiProvider.decodeIterator(rwf);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        return EtaFieldLists.decode(it).get(22);
    }

    /**
     * The provider publishing updates of TRI.N (stream -2) from its own thread; its writes block (idle) while the
     * distributor does not read. Optionally pings afterwards so a short ping timeout does not end the connection.
     */
    static final class Burst implements AutoCloseable
    {
        final byte[][] sent;
        volatile int sentCount;
        private final Thread thread;
        private volatile Throwable failure;
        private volatile boolean isStopped;

        Burst(final EtaNiProvider nip, final int count, final boolean keepPinging)
        {
            sent = new byte[count][];
            thread = new Thread(() -> run(nip, count, keepPinging), "nip-burst");
            thread.setDaemon(true);
            thread.start();
        }

        private void run(final EtaNiProvider nip, final int count, final boolean keepPinging)
        {
            try
            {
                final EtaFieldLists fields = new EtaFieldLists();
                for (int i = 0; i < count && !isStopped; i++)
                {
                    nip.update(-2, fields.begin(0, 0).real(22, i, 2).ascii(3, "BURST-PADDING-" + i).end());
                    sent[i] = nip.lastSent();
                    sentCount = i + 1;
                }
                while (keepPinging && !isStopped)
                {
                    nip.channel().ping();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
            catch (final Throwable ex)
            {
                failure = ex;
            }
        }

        void awaitDone()
        {
            MdTests.await(() -> "burst sent, " + sentCount + " so far", () -> sentCount == sent.length ||
                null != failure);
            assertTrue(null == failure, () -> "burst failed: " + failure);
        }

        @Override
        public void close()
        {
            isStopped = true;
            thread.interrupt();
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
