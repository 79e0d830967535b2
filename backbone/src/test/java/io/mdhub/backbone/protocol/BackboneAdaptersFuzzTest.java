package io.mdhub.backbone.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.mdhub.common.codecs.backbone.ConsumerAnnouncementEncoder;
import io.mdhub.common.codecs.backbone.ItemCloseEncoder;
import io.mdhub.common.codecs.backbone.ItemGenericEncoder;
import io.mdhub.common.codecs.backbone.ItemPostEncoder;
import io.mdhub.common.codecs.backbone.ItemRefreshEncoder;
import io.mdhub.common.codecs.backbone.ItemRequestEncoder;
import io.mdhub.common.codecs.backbone.ItemStatusEncoder;
import io.mdhub.common.codecs.backbone.ItemUpdateEncoder;
import io.mdhub.common.codecs.backbone.MessageHeaderEncoder;
import io.mdhub.common.codecs.backbone.PostAckEncoder;
import io.mdhub.common.codecs.backbone.ProviderGenericEncoder;
import io.mdhub.common.codecs.backbone.RecoveryRequestEncoder;
import io.mdhub.common.codecs.backbone.ServiceAnnouncementEncoder;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The backbone's SBE adapters, {@link MarketDataAdapter} (the p2p-servers' data stream) and {@link ControlAdapter}
 * (the distributors' control stream), fed random bytes and mutated valid encodings of every message through
 * {@code onFragment(buffer, offset, length, header)} as Aeron hands over an assembled message. They never throw,
 * every region they give their listener lies inside the fragment, and a fragment is either given to the listener or
 * counted as malformed, never both. The fragment ends where its buffer ends, so Agrona's bounds checks catch any
 * read past it.
 */
@FuzzGuarded
class BackboneAdaptersFuzzTest
{
    private static final int GUARD = 8;
    private static final List<byte[]> DATA = dataMessages();
    private static final List<byte[]> CONTROL = controlMessages();

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
    private final AtomicCounter malformed = counters.newCounter("malformed");
    private final Regions regions = new Regions();
    private final MarketDataAdapter data = new MarketDataAdapter(regions, malformed);
    private final ControlAdapter control = new ControlAdapter(regions, malformed);
    private final Header header = aeronHeader();

    @Property
    void dataStreamOfRandomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        deliver(bytes, true);
    }

    @Property
    void mutatedDataMessages(@ForAll("mutatedData") final byte[] bytes)
    {
        deliver(bytes, true);
    }

    @Property
    void controlStreamOfRandomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        deliver(bytes, false);
    }

    @Property
    void mutatedControlMessages(@ForAll("mutatedControl") final byte[] bytes)
    {
        deliver(bytes, false);
    }

    /**
     * Found by {@link #mutatedDataMessages}: a service announcement whose second service has state 127 made the
     * generated enum getter throw (IllegalArgumentException) out of the adapter. An unknown state is not UP.
     */
    @Example
    void anAnnouncedServiceOfUnknownStateIsNotUp()
    {
        deliver(new byte[] {
            24, 0, 1, 0, 100, 0, 1, 0, 3, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 1, 0, 0, 0, 0, 0,
            0, 0, 24, 0, 2, 0, 1, 0, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6,
            0, 78, 73, 95, 80, 85, 66, 44, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 11, 0, 68, 73, 82, 69, 67, 84, 95, 70, 69, 69, 68}, true);
        assertEquals(3, regions.calls, "the announcement and both services");
        assertFalse(regions.isLastServiceUp);
    }

    /**
     * Found by {@link #mutatedControlMessages}: an ItemPost whose RWF length is 0x8000000F passed the length check
     * as a negative int and reached the listener as a negative length.
     */
    @Example
    void anItemPostWhoseRwfLengthPassesTwoToTheThirtyOneIsMalformed()
    {
        deliver(new byte[] {
            24, 0, 14, 0, 100, 0, 1, 0, 4, 0, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 5, 0, 84, 82,
            73, 46, 5, 0, 84, 82, 73, 46, 78, 15, 0, 0, -128, 0, 8, 4, 6, 0, 0, 0, 5, 64, -124, 2, 0, 0, 0, 1}, false);
        assertEquals(0, regions.calls);
    }

    /**
     * Found by {@link #mutatedControlMessages}: an ItemClose whose header gives a fixed block shorter than the
     * schema's had its fields read from beyond the message (an IndexOutOfBoundsException at the buffer's end).
     */
    @Example
    void anItemCloseWithAShortFixedBlockIsMalformed()
    {
        deliver(new byte[] {18, 0, 12, 0, 100, 0, 0, 4, 0, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 5}, false);
        assertEquals(0, regions.calls);
    }

    @Provide
    Arbitrary<byte[]> mutatedData()
    {
        return ByteMutations.mutated(Arbitraries.of(DATA));
    }

    @Provide
    Arbitrary<byte[]> mutatedControl()
    {
        return ByteMutations.mutated(Arbitraries.of(CONTROL));
    }

    private void deliver(final byte[] bytes, final boolean isData)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[GUARD + bytes.length]);
        buffer.putBytes(GUARD, bytes);
        regions.start(GUARD, GUARD + bytes.length);
        final long malformedBefore = malformed.get();
        final Action action = isData ?
            data.onFragment(buffer, GUARD, bytes.length, header) :
            control.onFragment(buffer, GUARD, bytes.length, header);
        assertEquals(Action.CONTINUE, action, "the listener took every message");
        final long counted = malformed.get() - malformedBefore;
        assertTrue(1 == counted && 0 == regions.calls || 0 == counted && regions.calls > 0,
            () -> "counted " + counted + " as malformed, listener called " + regions.calls + " times");
    }

    private static Header aeronHeader()
    {
        final Header header = new Header(0, 16);
        header.buffer(new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH]));
        header.offset(0);
        return header;
    }

    private static List<byte[]> dataMessages()
    {
        final List<byte[]> messages = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final byte[] rwf = {0, 8, 4, 6, 0, 0, 0, 5, 0x40, (byte)0x84, 2, 0, 0, 0, 1};

        final ServiceAnnouncementEncoder announcement = new ServiceAnnouncementEncoder();
        final ServiceAnnouncementEncoder.ServicesEncoder services = announcement.wrapAndApplyHeader(out, 0, header)
            .distributorId(3).epoch(5).intervalMs(100).timestampNs(1).servicesCount(2);
        services.next().serviceId(1).serviceName("NI_PUB");
        services.next().serviceId(300).serviceName("DIRECT_FEED");
        messages.add(copy(out, announcement.limit()));

        final ItemRefreshEncoder refresh = new ItemRefreshEncoder();
        refresh.wrapAndApplyHeader(out, 0, header).serviceId(1).itemHandle(7).itemName("TRI.N").putRwf(rwf, 0, 15);
        messages.add(copy(out, refresh.limit()));

        final ItemUpdateEncoder update = new ItemUpdateEncoder();
        update.wrapAndApplyHeader(out, 0, header).serviceId(1).itemHandle(7).putRwf(rwf, 0, 15);
        messages.add(copy(out, update.limit()));

        final ItemStatusEncoder status = new ItemStatusEncoder();
        status.wrapAndApplyHeader(out, 0, header).serviceId(1).itemHandle(7).putRwf(rwf, 0, 6);
        messages.add(copy(out, status.limit()));

        final PostAckEncoder postAck = new PostAckEncoder();
        postAck.wrapAndApplyHeader(out, 0, header).serviceId(1).text("denied");
        messages.add(copy(out, postAck.limit()));

        final ProviderGenericEncoder generic = new ProviderGenericEncoder();
        generic.wrapAndApplyHeader(out, 0, header).serviceId(1).itemHandle(7).putRwf(rwf, 0, 15);
        messages.add(copy(out, generic.limit()));
        return messages;
    }

    private static List<byte[]> controlMessages()
    {
        final List<byte[]> messages = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final byte[] rwf = {0, 8, 4, 6, 0, 0, 0, 5, 0x40, (byte)0x84, 2, 0, 0, 0, 1};
        final byte[] view = {22, 0, 25, 0, (byte)0x9C, (byte)0xFF};

        final ConsumerAnnouncementEncoder announcement = new ConsumerAnnouncementEncoder();
        announcement.wrapAndApplyHeader(out, 0, header).consumerId(4).epoch(2).intervalMs(100);
        messages.add(copy(out, announcement.limit()));

        final ItemRequestEncoder request = new ItemRequestEncoder();
        request.wrapAndApplyHeader(out, 0, header).consumerId(4).serviceId(1).itemName("TRI.N").putView(view, 0, 6);
        messages.add(copy(out, request.limit()));

        final ItemCloseEncoder close = new ItemCloseEncoder();
        close.wrapAndApplyHeader(out, 0, header).consumerId(4).serviceId(1).itemHandle(7);
        messages.add(copy(out, close.limit()));

        final RecoveryRequestEncoder recovery = new RecoveryRequestEncoder();
        recovery.wrapAndApplyHeader(out, 0, header).consumerId(4).serviceId(1).itemHandle(7);
        messages.add(copy(out, recovery.limit()));

        final ItemPostEncoder post = new ItemPostEncoder();
        post.wrapAndApplyHeader(out, 0, header).consumerId(4).serviceId(1).itemName("TRI.N").putRwf(rwf, 0, 15);
        messages.add(copy(out, post.limit()));

        final ItemGenericEncoder generic = new ItemGenericEncoder();
        generic.wrapAndApplyHeader(out, 0, header).consumerId(4).serviceId(1).itemHandle(7).putRwf(rwf, 0, 15);
        messages.add(copy(out, generic.limit()));
        return messages;
    }

    private static byte[] copy(final UnsafeBuffer buffer, final int length)
    {
        return Arrays.copyOf(buffer.byteArray(), length);
    }

    /**
     * Checks every region the adapters hand over lies inside the fragment, and reads it.
     */
    private static final class Regions implements MarketDataListener, ControlListener
    {
        int start;
        int end;
        int calls;
        boolean isLastServiceUp;

        void start(final int start, final int end)
        {
            this.start = start;
            this.end = end;
            this.calls = 0;
        }

        private void region(final DirectBuffer buffer, final int offset, final int length)
        {
            assertTrue(offset >= start && length >= 0 && offset + length <= end,
                () -> "[" + offset + ", +" + length + ") outside the fragment [" + start + ", " + end + ")");
            for (int i = 0; i < length; i++)
            {
                buffer.getByte(offset + i);
            }
        }

        @Override
        public void onAnnouncement(
            final int distributorId, final long epoch, final int intervalMs, final long timestampNs,
            final int serviceCount)
        {
            calls++;
            assertTrue(serviceCount >= 0);
        }

        @Override
        public void onServiceAnnounced(
            final int distributorId, final int serviceId, final boolean isUp, final boolean isAcceptingRequests,
            final long lastSequence, final int itemCount, final long capabilities, final DirectBuffer buffer,
            final int nameOffset, final int nameLength)
        {
            calls++;
            isLastServiceUp = isUp;
            region(buffer, nameOffset, nameLength);
        }

        @Override
        public boolean onItemRefresh(
            final int serviceId, final int itemHandle, final long sequence, final long originTimestampNs,
            final long requestId, final int domainType, final int flags, final DirectBuffer buffer,
            final int nameOffset, final int nameLength, final int rwfOffset, final int rwfLength)
        {
            calls++;
            region(buffer, nameOffset, nameLength);
            region(buffer, rwfOffset, rwfLength);
            return true;
        }

        @Override
        public boolean onItemUpdate(
            final int serviceId, final int itemHandle, final long sequence, final long originTimestampNs,
            final DirectBuffer buffer, final int rwfOffset, final int rwfLength)
        {
            calls++;
            region(buffer, rwfOffset, rwfLength);
            return true;
        }

        @Override
        public boolean onItemStatus(
            final int serviceId, final int itemHandle, final long sequence, final long originTimestampNs,
            final long requestId, final int streamState, final int dataState, final DirectBuffer buffer,
            final int rwfOffset, final int rwfLength)
        {
            calls++;
            region(buffer, rwfOffset, rwfLength);
            return true;
        }

        @Override
        public void onPostAck(
            final int consumerId, final int sourceIndex, final long postRequestId, final int serviceId,
            final int nakCode, final DirectBuffer buffer, final int textOffset, final int textLength)
        {
            calls++;
            region(buffer, textOffset, textLength);
        }

        @Override
        public void onItemGeneric(
            final int serviceId, final int itemHandle, final DirectBuffer buffer, final int rwfOffset,
            final int rwfLength)
        {
            calls++;
            region(buffer, rwfOffset, rwfLength);
        }

        @Override
        public void onConsumerAnnouncement(
            final int consumerId, final long epoch, final int intervalMs, final long timestampNs)
        {
            calls++;
        }

        @Override
        public boolean onItemRequest(
            final int consumerId, final int sourceIndex, final long requestId, final int serviceId,
            final int domainType, final boolean isStreaming, final DirectBuffer buffer, final int nameOffset,
            final int nameLength, final int viewOffset, final int viewLength)
        {
            calls++;
            region(buffer, nameOffset, nameLength);
            region(buffer, viewOffset, viewLength);
            return true;
        }

        @Override
        public void onItemClose(
            final int consumerId, final int sourceIndex, final long distributorEpoch, final int serviceId,
            final int itemHandle)
        {
            calls++;
        }

        @Override
        public boolean onRecoveryRequest(
            final int consumerId, final int serviceId, final int itemHandle, final int domainType,
            final long lastSequence)
        {
            calls++;
            return true;
        }

        @Override
        public boolean onItemPost(
            final int consumerId, final int sourceIndex, final long postRequestId, final long distributorEpoch,
            final int serviceId, final int domainType, final DirectBuffer buffer, final int nameOffset,
            final int nameLength, final int rwfOffset, final int rwfLength)
        {
            calls++;
            region(buffer, nameOffset, nameLength);
            region(buffer, rwfOffset, rwfLength);
            return true;
        }

        @Override
        public boolean onPrivateItemRequest(
            final int consumerId, final int sourceIndex, final long requestId, final int serviceId,
            final int domainType, final DirectBuffer buffer, final int nameOffset, final int nameLength,
            final int viewOffset, final int viewLength)
        {
            calls++;
            region(buffer, nameOffset, nameLength);
            region(buffer, viewOffset, viewLength);
            return true;
        }

        @Override
        public void onItemGeneric(
            final int consumerId, final int sourceIndex, final long distributorEpoch, final int serviceId,
            final int itemHandle, final DirectBuffer buffer, final int rwfOffset, final int rwfLength)
        {
            calls++;
            region(buffer, rwfOffset, rwfLength);
        }
    }
}
