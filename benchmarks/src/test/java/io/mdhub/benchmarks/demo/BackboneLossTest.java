package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.mdhub.benchmarks.source.Source;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.distributor.Distributor;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * Packet loss on the backbone, end to end in one JVM: source (NIP) → distributor → Aeron over UDP on loopback →
 * p2p-server (two fan-out workers) → two ETA consumers, one watching the whole universe and one a quarter of it (so
 * one worker recovers by service-level RecoveryRequests and the other item by item). The media driver's receive
 * endpoints are Aeron's {@link DebugReceiveChannelEndpoint} with a loss generator that drops a share of the data
 * stream's frames for a bounded window.
 * <ul>
 * <li>On a reliable subscription (Aeron's default) the receiver NAKs and the sender retransmits: nothing is lost, no
 * item goes Suspect.</li>
 * <li>With {@code reliable=false} on the p2p-server's data channel the driver fills each hole with padding, so lost
 * frames become lost backbone messages: the p2p-server sees sequence gaps. Every consumer must then see Open/Suspect
 * on an item before any update whose per-item counter (MDH_UPDSEQ) jumps, every item must come back with a fresh
 * Open/Ok image, and updates must resume on every item. Then a tail loss: every frame is dropped while the source
 * pauses, so no later message shows a gap and only the distributor's next announcement can reveal it; the items must
 * go Suspect and recover before the source resumes, or the first updates after the pause would jump.</li>
 * </ul>
 * A counter gap while the item is Ok is a silent loss and fails the test; gaps while Suspect are the loss being
 * announced, and the next image resets the counter.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(150)
class BackboneLossTest
{
    private static final int ITEMS = 200;
    private static final int RATE = 2_000;
    private static final int DATA_STREAM = 1001;
    private static final int SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_PUB";
    private static final int FIRST_STREAM = 100;
    private static final double LOSS_RATE = 0.05;
    private static final long LOSS_WINDOW_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long RECOVERY_DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    private final SwitchableLoss loss = new SwitchableLoss(DATA_STREAM, 42);
    private MediaDriver driver;
    private Aeron aeron;
    private Distributor distributor;
    private P2pServer p2p;
    private Source source;
    private final List<Watcher> watchers = new ArrayList<>();

    @AfterEach
    void close()
    {
        for (final Watcher watcher : watchers)
        {
            CloseHelper.quietClose(watcher.consumer);
        }
        CloseHelper.closeAll(source, p2p, distributor, aeron, driver);
    }

    @Test
    void aeronRepairsLossOnAReliableSubscription()
    {
        launch(false);
        final long naksBefore = systemCounter(SystemCounterDescriptor.NAK_MESSAGES_SENT);
        final long retransmitsBefore = systemCounter(SystemCounterDescriptor.RETRANSMITS_SENT);

        final long lossEndNs = runLossWindow();
        pumpUntil("every item updating again after the loss window", lossEndNs + RECOVERY_DEADLINE_NS,
            this::everyItemRecoveredAndUpdating);
        pumpFor(TimeUnit.SECONDS.toNanos(1));

        final long naks = systemCounter(SystemCounterDescriptor.NAK_MESSAGES_SENT) - naksBefore;
        final long retransmits = systemCounter(SystemCounterDescriptor.RETRANSMITS_SENT) - retransmitsBefore;
        System.out.printf("reliable: %d data frames dropped, %d NAKs, %d retransmits, p2p gaps %d%n",
            loss.dropped.get(), naks, retransmits, p2pCounter(MdCounters.BACKBONE_GAPS_TYPE_ID));
        report();
        assertTrue(loss.dropped.get() > 0, "the loss generator dropped frames");
        assertTrue(naks > 0 && retransmits > 0,
            "Aeron repaired the loss: NAKs " + naks + ", retransmits " + retransmits);
        assertEquals(0, p2pCounter(MdCounters.BACKBONE_GAPS_TYPE_ID), "no backbone message was lost");
        for (final Watcher watcher : watchers)
        {
            assertEquals(0, watcher.suspects, watcher + ": no item went Suspect");
            assertEquals(0, watcher.silentGaps + watcher.announcedLost, watcher + ": no update lost");
            assertEquals(0, watcher.outOfOrder + watcher.staleImages + watcher.closed, watcher::toString);
        }
    }

    @Test
    void lossOnAnUnreliableSubscriptionTurnsItemsSuspectAndEveryItemRecovers()
    {
        launch(true);
        final long gapFillsBefore = systemCounter(SystemCounterDescriptor.LOSS_GAP_FILLS);

        final long lossEndNs = runLossWindow();
        final long recoveredNs = pumpUntil("every item Open/Ok again with updates after its image",
            lossEndNs + RECOVERY_DEADLINE_NS, this::everyItemRecoveredAndUpdating);
        pumpFor(TimeUnit.SECONDS.toNanos(1));

        final long gapFills = systemCounter(SystemCounterDescriptor.LOSS_GAP_FILLS) - gapFillsBefore;
        final long gaps = p2pCounter(MdCounters.BACKBONE_GAPS_TYPE_ID);
        System.out.printf("unreliable: %d data frames dropped, %d gap fills, p2p gaps %d, recoveries %d; " +
            "every item recovered %d ms after the loss window ended%n",
            loss.dropped.get(), gapFills, gaps, p2pCounter(MdCounters.BACKBONE_RECOVERIES_TYPE_ID),
            TimeUnit.NANOSECONDS.toMillis(recoveredNs - lossEndNs));
        report();
        assertTrue(gapFills > 0, "the driver filled holes instead of asking for retransmission");
        assertTrue(gaps > 0, "the p2p-server saw sequence gaps");
        assertEverySuspectRecoveredAndNoSilentGap();

        // Tail loss: the last messages before a quiet spell are lost, so no later message shows a gap; only the
        // distributor's next announcement (its lastSequence) can tell. If that went unnoticed, the items would stay
        // Ok and the first updates after the pause would jump: a silent gap.
        final long tailStartNs = System.nanoTime();
        loss.rate = 1.0;
        pumpFor(TimeUnit.MILLISECONDS.toNanos(50));
        source.rate(0);
        pumpFor(TimeUnit.MILLISECONDS.toNanos(200)); // long enough for the source's last updates to be dropped too
        loss.rate = 0;
        for (final Watcher watcher : watchers)
        {
            watcher.tailLossStatusesBefore = watcher.tailLossStatuses;
        }
        final long tailRecoveredNs = pumpUntil(
            "the next announcement to reveal the tail loss and every item to recover",
            System.nanoTime() + RECOVERY_DEADLINE_NS,
            () -> watchers.stream().allMatch(Watcher::isTailLossRecovered));
        source.rate(RATE);
        pumpUntil("every item updating again after the pause", System.nanoTime() + RECOVERY_DEADLINE_NS,
            this::everyItemRecoveredAndUpdating);
        pumpFor(TimeUnit.SECONDS.toNanos(1));
        System.out.printf("tail loss: revealed and every item recovered %d ms after the loss began%n",
            TimeUnit.NANOSECONDS.toMillis(tailRecoveredNs - tailStartNs));
        report();
        assertEverySuspectRecoveredAndNoSilentGap();
    }

    private void assertEverySuspectRecoveredAndNoSilentGap()
    {
        for (final Watcher watcher : watchers)
        {
            assertEquals(0, watcher.silentGaps, () -> watcher + ": updates lost while Ok: " + watcher.examples);
            assertTrue(watcher.suspects > 0, watcher + ": items went Suspect");
            assertEquals(watcher.suspects, watcher.recoveries, watcher + ": every Suspect item got a fresh image");
            assertEquals(0, watcher.outOfOrder + watcher.staleImages + watcher.closed,
                () -> watcher + ": " + watcher.examples);
        }
    }

    private void launch(final boolean unreliable)
    {
        final String aeronDir = dir.resolve("aeron").toString();
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .threadingMode(ThreadingMode.SHARED)
            .termBufferSparseFile(true)
            .publicationTermBufferLength(4 * 1024 * 1024)
            .receiveChannelEndpointSupplier((udpChannel, dispatcher, status, context) ->
                new DebugReceiveChannelEndpoint(udpChannel, dispatcher, status, context, loss, SwitchableLoss.NONE)));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));

        final String data = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        final String control = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        final Distributor.Context distributorContext = new Distributor.Context()
            .providerPort(0)
            .componentName("loss-distributor");
        distributorContext.backbone().aeron(aeron).channel(data).controlChannel(control);
        distributor = Distributor.launch(distributorContext);
        p2p = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .workers(2)
            .componentName("loss-p2p")
            .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings()
                .channel(unreliable ? data + "|reliable=false" : data)
                .controlChannel(control)
                // the distributor announces every 100 ms: the default 3 missed would take a stall of this shared
                // host, or the tail-loss blackout, for a dead distributor
                .missedAnnouncements(20))));
        source = Source.launch(new Source.Context()
            .port(distributor.port())
            .itemCount(ITEMS)
            .rate(RATE));
        MdTests.await(() -> "the distributor's cache to hold every image: " + distributor.mxBean().getItemCount(),
            () -> source.stats().refreshesSent() >= ITEMS && distributor.mxBean().getItemCount() >= ITEMS);

        // two connections, one per fan-out worker: the whole universe, and every fourth item
        watchers.add(open("all", 1));
        watchers.add(open("quarter", 4));
        pumpUntil("every item open on both consumers", System.nanoTime() + TimeUnit.SECONDS.toNanos(60),
            () -> watchers.stream().allMatch(Watcher::isEveryItemOpen));
        pumpFor(TimeUnit.SECONDS.toNanos(1));
        for (final Watcher watcher : watchers)
        {
            assertEquals(0, watcher.suspects + watcher.silentGaps + watcher.announcedLost, watcher::toString);
        }
    }

    private Watcher open(final String name, final int every)
    {
        final EtaConsumer consumer = EtaConsumer.connect(p2p.port());
        assertEquals(StreamStates.OPEN, consumer.login("loss-" + name).state().streamState());
        awaitServiceInDirectory(consumer);
        final Watcher watcher = new Watcher(name, consumer, ITEMS / every);
        for (int k = 0; k < watcher.items.length; k++)
        {
            consumer.requestItem(FIRST_STREAM + k, SERVICE_ID, String.format("MD%06d.X", k * every));
        }
        return watcher;
    }

    /**
     * The connection's fan-out worker learns the service from the distributor's announcements on its own subscription:
     * open items only once the worker lists it (a request before that would be refused SOURCE_UNKNOWN).
     */
    private static void awaitServiceInDirectory(final EtaConsumer consumer)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int streamId = 2; ; streamId++)
        {
            consumer.requestDirectory(streamId, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
            final EtaMessage directory = consumer.awaitMessage(streamId);
            if (MsgClasses.REFRESH == directory.msgClass() && directory.serviceNames().contains(SERVICE_NAME))
            {
                return;
            }
            assertTrue(System.nanoTime() < deadlineNs && streamId < FIRST_STREAM - 1,
                () -> SERVICE_NAME + " never in the directory: " + directory);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /**
     * @return when the loss window ended.
     */
    private long runLossWindow()
    {
        loss.rate = LOSS_RATE;
        pumpFor(LOSS_WINDOW_NS);
        loss.rate = 0;
        return System.nanoTime();
    }

    private boolean everyItemRecoveredAndUpdating()
    {
        for (final Watcher watcher : watchers)
        {
            for (final ItemTrack item : watcher.items)
            {
                if (item.isSuspect || item.updatesSinceImage == 0)
                {
                    return false;
                }
            }
        }
        return true;
    }

    private void pumpFor(final long durationNs)
    {
        final long endNs = System.nanoTime() + durationNs;
        pumpUntil("time to pass", endNs + TimeUnit.SECONDS.toNanos(1), () -> System.nanoTime() >= endNs);
    }

    /**
     * Read both consumers until the condition holds.
     *
     * @return when it held.
     */
    private long pumpUntil(final String what, final long deadlineNs, final java.util.function.BooleanSupplier done)
    {
        while (!done.getAsBoolean())
        {
            MdTests.checkInterrupted(what);
            if (System.nanoTime() > deadlineNs)
            {
                throw new AssertionError("timed out waiting for " + what + ": " + watchers);
            }
            int work = 0;
            for (final Watcher watcher : watchers)
            {
                for (EtaMessage message; work < 10_000 && null != (message = watcher.consumer.poll()); work++)
                {
                    watcher.on(message, System.nanoTime());
                }
            }
            if (0 == work)
            {
                LockSupport.parkNanos(200_000);
            }
        }
        return System.nanoTime();
    }

    private void report()
    {
        for (final Watcher watcher : watchers)
        {
            System.out.println("  " + watcher);
        }
    }

    private long systemCounter(final SystemCounterDescriptor descriptor)
    {
        return aeron.countersReader().getCounterValue(descriptor.id());
    }

    private long p2pCounter(final int typeId)
    {
        return MdCounters.sum(aeron.countersReader(), typeId);
    }

    private static int freeUdpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * What one consumer knows of one item: its data state and the last update counter it saw.
     */
    private static final class ItemTrack
    {
        boolean isOpen;
        boolean isSuspect;
        long lastCounter = -1;
        long suspectSinceNs;
        long updatesSinceImage;
    }

    /**
     * One consumer connection and the loss check over its items.
     */
    private static final class Watcher
    {
        final String name;
        final EtaConsumer consumer;
        final ItemTrack[] items;
        final Histogram recoveryMs = new Histogram(3);
        final List<String> examples = new ArrayList<>();
        final java.util.Map<String, Long> reasons = new java.util.TreeMap<>();
        long suspects;
        long tailLossStatuses;
        long tailLossStatusesBefore;
        long recoveries;
        long silentGaps;
        long announcedLost;
        long outOfOrder;
        long staleImages;
        long closed;

        Watcher(final String name, final EtaConsumer consumer, final int count)
        {
            this.name = name;
            this.consumer = consumer;
            this.items = new ItemTrack[count];
            for (int k = 0; k < count; k++)
            {
                items[k] = new ItemTrack();
            }
        }

        boolean isTailLossRecovered()
        {
            return tailLossStatuses > tailLossStatusesBefore && isEveryItemOk();
        }

        boolean isEveryItemOk()
        {
            for (final ItemTrack item : items)
            {
                if (item.isSuspect)
                {
                    return false;
                }
            }
            return true;
        }

        boolean isEveryItemOpen()
        {
            for (final ItemTrack item : items)
            {
                if (!item.isOpen)
                {
                    return false;
                }
            }
            return true;
        }

        void on(final EtaMessage message, final long nowNs)
        {
            final int k = message.streamId() - FIRST_STREAM;
            if (k < 0 || k >= items.length)
            {
                return; // login, directory
            }
            final ItemTrack item = items[k];
            switch (message.msgClass())
            {
                case MsgClasses.REFRESH:
                    onImage(k, item, message, nowNs);
                    break;
                case MsgClasses.UPDATE:
                    onUpdate(k, item, message);
                    break;
                case MsgClasses.STATUS:
                    if (StreamStates.OPEN != message.streamState())
                    {
                        closed++;
                        if (examples.size() < 10)
                        {
                            examples.add("item " + k + " closed: " + message);
                        }
                    }
                    else if (DataStates.SUSPECT == message.dataState() && !item.isSuspect)
                    {
                        item.isSuspect = true;
                        item.suspectSinceNs = nowNs;
                        suspects++;
                        reasons.merge(String.valueOf(message.text()), 1L, Long::sum);
                        if (null != message.text() && message.text().startsWith("tail loss"))
                        {
                            tailLossStatuses++;
                        }
                    }
                    break;
                default:
                    break;
            }
        }

        private void onImage(final int k, final ItemTrack item, final EtaMessage message, final long nowNs)
        {
            final long counter = message.has(FieldIds.MDH_UPDSEQ) ? message.uint(FieldIds.MDH_UPDSEQ) : -1;
            if (counter >= 0 && counter < item.lastCounter)
            {
                staleImages++; // an image older than updates already delivered
                examples.add("item " + k + " image at " + counter + " after update " + item.lastCounter);
            }
            if (item.isSuspect && DataStates.OK == message.dataState())
            {
                item.isSuspect = false;
                recoveries++;
                recoveryMs.recordValue(TimeUnit.NANOSECONDS.toMillis(nowNs - item.suspectSinceNs));
            }
            item.isOpen = true;
            item.lastCounter = counter;
            item.updatesSinceImage = 0;
        }

        private void onUpdate(final int k, final ItemTrack item, final EtaMessage message)
        {
            if (!message.has(FieldIds.MDH_UPDSEQ))
            {
                return;
            }
            final long counter = message.uint(FieldIds.MDH_UPDSEQ);
            if (item.lastCounter >= 0)
            {
                if (counter > item.lastCounter + 1)
                {
                    if (item.isSuspect)
                    {
                        announcedLost += counter - item.lastCounter - 1;
                    }
                    else
                    {
                        silentGaps++;
                        if (examples.size() < 10)
                        {
                            examples.add("item " + k + ": " + item.lastCounter + " then " + counter + " while Ok");
                        }
                    }
                }
                else if (counter <= item.lastCounter)
                {
                    outOfOrder++;
                }
            }
            item.lastCounter = Math.max(item.lastCounter, counter);
            item.updatesSinceImage++;
        }

        @Override
        public String toString()
        {
            return name + " (" + items.length + " items): suspects " + suspects + ", recoveries " + recoveries +
                ", recovery ms p50 " + recoveryMs.getValueAtPercentile(50) + " p99 " +
                recoveryMs.getValueAtPercentile(99) + " max " + recoveryMs.getMaxValue() + ", lost while Suspect " +
                announcedLost + ", silent gaps " + silentGaps + ", out of order " + outOfOrder + ", stale images " +
                staleImages + ", closed " + closed + ", Suspect texts " + reasons +
                (examples.isEmpty() ? "" : ", first problems " + examples);
        }
    }

    /**
     * Drops a share of one stream's data frames (not heartbeats) while its rate is above zero. Called on the media
     * driver's receiver thread only.
     */
    static final class SwitchableLoss implements LossGenerator
    {
        static final LossGenerator NONE = (address, buffer, length) -> false;

        final AtomicLong dropped = new AtomicLong();
        volatile double rate;
        private final int streamId;
        private final Random random;

        SwitchableLoss(final int streamId, final long seed)
        {
            this.streamId = streamId;
            this.random = new Random(seed);
        }

        @Override
        public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer, final int length)
        {
            return false; // setup and other frames: never
        }

        @Override
        public boolean shouldDropFrame(
            final InetSocketAddress address,
            final UnsafeBuffer buffer,
            final int streamId,
            final int sessionId,
            final int termId,
            final int termOffset,
            final int length)
        {
            final double rate = this.rate;
            if (rate > 0 && streamId == this.streamId && length > DataHeaderFlyweight.HEADER_LENGTH &&
                random.nextDouble() < rate)
            {
                dropped.incrementAndGet();
                return true;
            }
            return false;
        }
    }
}
