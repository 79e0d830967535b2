package io.mdhub.backbone.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntSupplier;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.codecs.backbone.BooleanType;
import io.mdhub.common.codecs.backbone.ItemUpdateEncoder;
import io.mdhub.common.codecs.backbone.MessageHeaderEncoder;
import io.mdhub.common.codecs.backbone.ServiceAnnouncementEncoder;
import io.mdhub.common.codecs.backbone.ServiceState;
import io.mdhub.common.concurrent.DoorbellRinger;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The backbone protocol end to end over an embedded driver (IPC): what a publisher encodes, an adapter hands to its
 * listener with the same values and bytes; large images travel fragmented; back-pressure from a listener redelivers;
 * malformed messages are counted and skipped without stopping the stream.
 */
@InterruptAfter(30)
class BackboneProtocolTest
{
    private static final String CHANNEL = "aeron:ipc";
    private static final int DATA_STREAM = 101;
    private static final int CONTROL_STREAM = 102;

    @TempDir
    Path dir;

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final AtomicCounter backPressure = counters.newCounter("back-pressure");
    private final AtomicCounter malformed = counters.newCounter("malformed");
    private BackboneNode node;
    private Aeron aeron;

    @BeforeEach
    void launch()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
    }

    @AfterEach
    void close()
    {
        aeron.close();
        node.close();
    }

    @Test
    void dataStreamRoundTripsEveryMessageIncludingAFragmentedImage()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        awaitReady(subscription, publication);
        final MarketDataPublisher publisher = new MarketDataPublisher(
            new BackbonePublication(publication, 3, backPressure));
        final RecordingMarketDataListener listener = new RecordingMarketDataListener();
        final MarketDataAdapter adapter = new MarketDataAdapter(listener, malformed);

        final byte[] smallRefresh = random(120, 1);
        final byte[] largeRefresh = random(50_000, 2);
        final byte[] update = random(57, 3);
        final UnsafeBuffer name = new UnsafeBuffer("TRI.N".getBytes(StandardCharsets.US_ASCII));

        assertTrue(publisher.announce(7, 99L, 1000, 5L, services()) > 0);
        assertTrue(publisher.refresh(1, 10, 1, 111L, 0, 6, RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE,
            name, 0, name.capacity(), new UnsafeBuffer(smallRefresh), 0, smallRefresh.length) > 0);
        assertTrue(publisher.refresh(1, 11, 2, 112L, 42, 6,
            RefreshFlags.SOLICITED | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE,
            name, 0, name.capacity(), new UnsafeBuffer(largeRefresh), 0, largeRefresh.length) > 0);
        assertTrue(publisher.update(1, 10, 3, 113L, new UnsafeBuffer(update), 0, update.length) > 0);
        final byte[] statusText = "closed".getBytes(StandardCharsets.US_ASCII);
        assertTrue(publisher.status(1, 11, 4, 114L, 0, 4, 2, new UnsafeBuffer(statusText), 0, statusText.length) > 0);
        assertTrue(publisher.status(1, -1, 5, 115L, 43, 4, 2, new UnsafeBuffer(statusText), 0, 6) > 0);

        pollUntil(adapter, subscription, () -> listener.events.size(), 8);
        assertEquals(List.of(
            "announce d=7 epoch=99 interval=1000 count=2",
            "service d=7 id=1 up=true accepting=true last=4 items=2 caps=64 name=NI_PUB",
            "service d=7 id=300 up=false accepting=false last=0 items=0 caps=96 name=SECOND",
            "refresh s=1 h=10 seq=1 ts=111 req=0 domain=6 flags=6 name=TRI.N rwf=120",
            "refresh s=1 h=11 seq=2 ts=112 req=42 domain=6 flags=7 name=TRI.N rwf=50000",
            "update s=1 h=10 seq=3 ts=113 rwf=57",
            "status s=1 h=11 seq=4 req=0 stream=4 data=2 rwf=closed",
            "status s=1 h=-1 seq=5 req=43 stream=4 data=2 rwf=closed"), listener.events);
        assertArrayEquals(smallRefresh, listener.rwf.get(0));
        assertArrayEquals(largeRefresh, listener.rwf.get(1), "fragmented image reassembled exactly");
        assertArrayEquals(update, listener.rwf.get(2));
        assertEquals(0, malformed.get());
    }

    @Test
    void listenerBackPressureRedeliversTheSameMessage()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        awaitReady(subscription, publication);
        final MarketDataPublisher publisher = new MarketDataPublisher(
            new BackbonePublication(publication, 3, backPressure));
        final RecordingMarketDataListener listener = new RecordingMarketDataListener();
        final MarketDataAdapter adapter = new MarketDataAdapter(listener, malformed);
        final UnsafeBuffer name = new UnsafeBuffer("A".getBytes(StandardCharsets.US_ASCII));
        final UnsafeBuffer rwf = new UnsafeBuffer(random(30, 4));

        publisher.refresh(2, 1, 1, 0, 0, 6, RefreshFlags.COMPLETE, name, 0, 1, rwf, 0, 30);
        publisher.update(2, 1, 2, 0, rwf, 0, 30);
        listener.refusals = 2;

        pollUntil(adapter, subscription, () -> listener.events.size(), 2);
        assertTrue(listener.events.get(0).startsWith("refresh s=2 h=1 seq=1"), listener.events::toString);
        assertTrue(listener.events.get(1).startsWith("update s=2 h=1 seq=2"), listener.events::toString);
        assertEquals(0, listener.refusals, "refused twice, then delivered");
    }

    @Test
    void heartbeatsWakeNoSleepingSubscriberWhereDataAndAnswersDo()
    {
        final ExclusivePublication data = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        final ExclusivePublication control = aeron.addExclusivePublication(CHANNEL, CONTROL_STREAM);
        final Subscription dataSubscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final Subscription controlSubscription = aeron.addSubscription(CHANNEL, CONTROL_STREAM);
        awaitReady(dataSubscription, data);
        awaitReady(controlSubscription, control);
        final DoorbellRinger dataRinger = DoorbellRinger.forPublication(aeron, data);
        final DoorbellRinger controlRinger = DoorbellRinger.forPublication(aeron, control);
        final MarketDataPublisher publisher =
            new MarketDataPublisher(new BackbonePublication(data, 3, backPressure, dataRinger));
        final ControlPublisher controlPublisher =
            new ControlPublisher(new BackbonePublication(control, 3, backPressure, controlRinger), 5, 2);

        assertTrue(publisher.announce(7, 99L, 100, 5L, services()) > 0);
        assertTrue(controlPublisher.announce(3L, 1000, 6L) > 0);
        assertFalse(dataRinger.ringIfPublished(), "a distributor's heartbeat waits for the sleeper's tick");
        assertFalse(controlRinger.ringIfPublished(), "a p2p-server's heartbeat waits for the sleeper's tick");

        assertTrue(publisher.update(1, 1, 1, 0, new UnsafeBuffer(random(10, 3)), 0, 10) > 0);
        assertTrue(controlPublisher.requestItem(1L, 1, 6, true, new UnsafeBuffer(new byte[] {(byte)'A'}), 0, 1) > 0);
        assertTrue(dataRinger.ringIfPublished(), "live data wakes the sleepers");
        assertTrue(controlRinger.ringIfPublished(), "an item request wakes the sleepers");
        dataRinger.close();
        controlRinger.close();
    }

    @Test
    void malformedAndForeignMessagesAreCountedAndSkipped()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        awaitReady(subscription, publication);
        final BackbonePublication backbone = new BackbonePublication(publication, 3, backPressure);
        final MarketDataPublisher publisher = new MarketDataPublisher(backbone);
        final RecordingMarketDataListener listener = new RecordingMarketDataListener();
        final MarketDataAdapter adapter = new MarketDataAdapter(listener, malformed);

        final UnsafeBuffer bad = new UnsafeBuffer(new byte[64]);
        backbone.offer(bad, 0, 4); // shorter than a header
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        header.wrap(bad, 0).blockLength(ItemUpdateEncoder.BLOCK_LENGTH).templateId(ItemUpdateEncoder.TEMPLATE_ID)
            .schemaId(999).version(1);
        backbone.offer(bad, 0, 40); // another schema
        final ItemUpdateEncoder update = new ItemUpdateEncoder();
        update.wrapAndApplyHeader(bad, 0, header).serviceId(1).itemHandle(1).sequence(1).originTimestampNs(0);
        bad.putInt(update.limit(), 1_000_000); // RWF length far beyond the message
        backbone.offer(bad, 0, update.limit() + 4 + 8);
        header.wrap(bad, 0).templateId(77).schemaId(MessageHeaderEncoder.SCHEMA_ID);
        backbone.offer(bad, 0, 40); // unknown template

        final UnsafeBuffer rwf = new UnsafeBuffer(random(10, 5));
        publisher.update(1, 1, 2, 0, rwf, 0, 10);

        pollUntil(adapter, subscription, () -> listener.events.size(), 1);
        assertEquals("update s=1 h=1 seq=2 ts=0 rwf=10", listener.events.get(0));
        assertEquals(4, malformed.get());
    }

    @Test
    void anAnnouncementIsCheckedWholeBeforeTheListenerHearsAnyOfIt()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        awaitReady(subscription, publication);
        final BackbonePublication backbone = new BackbonePublication(publication, 3, backPressure);
        final MarketDataPublisher publisher = new MarketDataPublisher(backbone);
        final RecordingMarketDataListener listener = new RecordingMarketDataListener();
        final MarketDataAdapter adapter = new MarketDataAdapter(listener, malformed);

        final UnsafeBuffer bad = new UnsafeBuffer(new byte[256]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final ServiceAnnouncementEncoder announcement = new ServiceAnnouncementEncoder();
        final ServiceAnnouncementEncoder.ServicesEncoder group = announcement.wrapAndApplyHeader(bad, 0, header)
            .distributorId(9).epoch(1).intervalMs(100).timestampNs(0).servicesCount(2);
        group.next().serviceId(1).state(ServiceState.UP).acceptingRequests(BooleanType.TRUE).lastSequence(0)
            .itemCount(0).capabilities(0).serviceName("GOOD");
        group.next().serviceId(2).state(ServiceState.UP).acceptingRequests(BooleanType.TRUE).lastSequence(0)
            .itemCount(0).capabilities(0).serviceName("BAD");
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + announcement.encodedLength();
        bad.putShort(length - 5, (short)200, ByteOrder.LITTLE_ENDIAN); // the last name overruns
        backbone.offer(bad, 0, length);
        header.wrap(bad, 0).blockLength(4); // a fixed block shorter than the schema's
        backbone.offer(bad, 0, length);
        assertTrue(publisher.announce(7, 99L, 1000, 5L, services()) > 0);

        pollUntil(adapter, subscription, () -> listener.events.size(), 3);
        assertEquals("announce d=7 epoch=99 interval=1000 count=2", listener.events.get(0),
            "nothing of the malformed announcements reached the listener: " + listener.events);
        assertEquals(2, malformed.get());
    }

    @Test
    void theAdapterNamesThePublicationEachMessageCameFrom()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        final ExclusivePublication first = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        final ExclusivePublication second = aeron.addExclusivePublication(CHANNEL, DATA_STREAM);
        awaitReady(subscription, first, second);
        final RecordingMarketDataListener listener = new RecordingMarketDataListener();
        final MarketDataAdapter adapter = new MarketDataAdapter(listener, malformed);
        listener.adapter = adapter;
        final UnsafeBuffer rwf = new UnsafeBuffer(random(10, 6));
        new MarketDataPublisher(new BackbonePublication(first, 3, backPressure)).update(1, 1, 1, 0, rwf, 0, 10);
        new MarketDataPublisher(new BackbonePublication(second, 3, backPressure)).update(1, 1, 1, 0, rwf, 0, 10);

        pollUntil(adapter, subscription, () -> listener.events.size(), 2);
        assertEquals(Set.of(first.sessionId(), second.sessionId()), new HashSet<>(listener.sessions));
    }

    @Test
    void controlStreamRoundTripsEveryMessage()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, CONTROL_STREAM);
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, CONTROL_STREAM);
        awaitReady(subscription, publication);
        final ControlPublisher publisher = new ControlPublisher(
            new BackbonePublication(publication, 3, backPressure), 5, 2);
        final List<String> events = new ArrayList<>();
        final ControlAdapter adapter = new ControlAdapter(new ControlListener()
        {
            public void onConsumerAnnouncement(
                final int consumerId, final long epoch, final int intervalMs, final long timestampNs)
            {
                events.add("announce c=" + consumerId + " epoch=" + epoch + " interval=" + intervalMs);
            }

            @SuppressWarnings("checkstyle:ParameterNumber") // the listener's primitives
            public boolean onItemRequest(
                final int consumerId, final int sourceIndex, final long requestId, final int serviceId,
                final int domainType, final boolean isStreaming, final DirectBuffer buffer, final int nameOffset,
                final int nameLength, final int viewOffset, final int viewLength)
            {
                events.add("request c=" + consumerId + "/" + sourceIndex + " req=" + requestId + " s=" + serviceId +
                    " domain=" + domainType + " streaming=" + isStreaming + " name=" +
                    buffer.getStringWithoutLengthAscii(nameOffset, nameLength));
                return true;
            }

            public void onItemClose(
                final int consumerId, final int sourceIndex, final long distributorEpoch, final int serviceId,
                final int itemHandle)
            {
                events.add("close c=" + consumerId + "/" + sourceIndex + " d=" + distributorEpoch + " s=" + serviceId +
                    " h=" + itemHandle);
            }

            public boolean onRecoveryRequest(
                final int consumerId, final int serviceId, final int itemHandle, final int domainType,
                final long lastSequence)
            {
                events.add(
                    "recover c=" + consumerId + " s=" + serviceId + " h=" + itemHandle + " domain=" + domainType +
                    " last=" + lastSequence);
                return true;
            }
        }, malformed);

        final UnsafeBuffer name = new UnsafeBuffer("VOD.L".getBytes(StandardCharsets.US_ASCII));
        assertTrue(publisher.announce(3L, 500, 9L) > 0);
        assertTrue(publisher.requestItem(77, 300, 6, false, name, 0, name.capacity()) > 0);
        assertTrue(publisher.closeItem(99L, 300, 12) > 0);
        assertTrue(publisher.requestRecovery(300, -1, 41) > 0);
        assertTrue(publisher.requestRecovery(300, 12, 8, 42) > 0);

        MdTests.await(() -> "control messages, got " + events, () ->
        {
            adapter.poll(subscription, 10);
            return events.size() >= 5;
        });
        assertEquals(List.of(
            "announce c=5 epoch=3 interval=500",
            "request c=5/2 req=77 s=300 domain=6 streaming=false name=VOD.L",
            "close c=5/2 d=99 s=300 h=12",
            "recover c=5 s=300 h=-1 domain=0 last=41",
            "recover c=5 s=300 h=12 domain=8 last=42"), events);
    }

    @Test
    void notConnectedIsReturnedNotThrownAndIsNotBackPressure()
    {
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, 150);
        final MarketDataPublisher publisher = new MarketDataPublisher(
            new BackbonePublication(publication, 3, backPressure));
        final UnsafeBuffer rwf = new UnsafeBuffer(new byte[8]);
        assertEquals(Publication.NOT_CONNECTED, publisher.update(1, 1, 1, 0, rwf, 0, 8));
        assertEquals(0, backPressure.get());
    }

    /**
     * Connected is not yet writable: the driver raises a new publication's position limit on its next duty cycle,
     * and until then every offer is back-pressured, which a loaded machine can stretch past the bounded retries.
     */
    private static void awaitReady(final Subscription subscription, final ExclusivePublication... publications)
    {
        MdTests.await("stream connected and writable", () ->
        {
            for (final ExclusivePublication publication : publications)
            {
                if (!publication.isConnected() || publication.positionLimit() <= publication.position())
                {
                    return false;
                }
            }
            return subscription.imageCount() == publications.length;
        });
    }

    private static void pollUntil(
        final MarketDataAdapter adapter, final Subscription subscription, final IntSupplier count, final int expected)
    {
        MdTests.await(() -> "expected " + expected + " messages, got " + count.getAsInt(), () ->
        {
            adapter.poll(subscription, 10);
            return count.getAsInt() >= expected;
        });
    }

    private static AnnouncedServices services()
    {
        return new AnnouncedServices()
        {
            public int count()
            {
                return 2;
            }

            public int serviceId(final int index)
            {
                return 0 == index ? 1 : 300;
            }

            public String name(final int index)
            {
                return 0 == index ? "NI_PUB" : "SECOND";
            }

            public boolean isUp(final int index)
            {
                return 0 == index;
            }

            public boolean isAcceptingRequests(final int index)
            {
                return 0 == index;
            }

            public long lastSequence(final int index)
            {
                return 0 == index ? 4 : 0;
            }

            public int itemCount(final int index)
            {
                return 0 == index ? 2 : 0;
            }

            public long capabilities(final int index)
            {
                return 0 == index ? 1L << 6 : (1L << 5) | (1L << 6);
            }
        };
    }

    private static byte[] random(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
