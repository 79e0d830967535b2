package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.agrona.DirectBuffer;

import io.aeron.Subscription;
import io.mdhub.backbone.protocol.MarketDataAdapter;
import io.mdhub.backbone.protocol.MarketDataListener;
import io.mdhub.common.test.MdTests;

/**
 * Test side of the backbone data stream: an adapter polled by the test thread and a listener recording every message
 * with copies of its bytes, so tests can wait for and inspect what the distributor published.
 */
final class RecordingBackboneListener implements MarketDataListener
{
    record Event(
        String type,
        int serviceId,
        int handle,
        long sequence,
        long originNs,
        long requestId,
        int domainType,
        int flags,
        int streamState,
        int dataState,
        String name,
        byte[] rwf,
        boolean isUp,
        long lastSequence,
        int itemCount,
        long capabilities)
    {
        @Override
        public String toString()
        {
            return type + " s=" + serviceId + " h=" + handle + " seq=" + sequence + " req=" + requestId + " flags=" +
                flags + " stream=" + streamState + " data=" + dataState + " name=" + name + " up=" + isUp + " last=" +
                lastSequence + " items=" + itemCount;
        }
    }

    final List<Event> events = new ArrayList<>();
    private final MarketDataAdapter adapter;
    private final Subscription subscription;

    RecordingBackboneListener(final Subscription subscription, final org.agrona.concurrent.status.AtomicCounter bad)
    {
        this.subscription = subscription;
        this.adapter = new MarketDataAdapter(this, bad);
    }

    int poll()
    {
        return adapter.poll(subscription, 100);
    }

    /**
     * Poll until a message matching the predicate arrives (after those already recorded are checked) and return it.
     */
    Event await(final String what, final Predicate<Event> match)
    {
        final Event[] found = new Event[1];
        MdTests.await(() -> what + "; got " + describe(), () ->
        {
            poll();
            for (final Event event : events)
            {
                if (match.test(event))
                {
                    found[0] = event;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /**
     * Poll until count messages (announcements excluded) of a type have arrived, and return them in order.
     */
    List<Event> awaitData(final String type, final int count)
    {
        MdTests.await(() -> count + " " + type + "; got " + describe(), () ->
        {
            poll();
            return data(type).size() >= count;
        });
        return data(type);
    }

    List<Event> data(final String type)
    {
        return events.stream().filter((e) -> type.equals(e.type())).collect(Collectors.toList());
    }

    List<Event> dataMessages()
    {
        return events.stream()
            .filter((e) -> !"service".equals(e.type()) && !"announce".equals(e.type())).collect(Collectors.toList());
    }

    String describe()
    {
        return dataMessages().stream().map(Event::toString).collect(Collectors.joining("\n  ", "\n  ", ""));
    }

    @Override
    public void onAnnouncement(
        final int distributorId, final long epoch, final int intervalMs, final long timestampNs, final int count)
    {
        events.add(new Event("announce", count, distributorId, 0, timestampNs, epoch, 0, intervalMs, 0, 0, null, null,
            false, 0, 0, 0));
    }

    @Override
    public void onServiceAnnounced(
        final int distributorId,
        final int serviceId,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final long lastSequence,
        final int itemCount,
        final long capabilities,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        events.add(new Event("service", serviceId, -1, 0, 0, 0, 0, 0, 0, 0,
            buffer.getStringWithoutLengthAscii(nameOffset, nameLength), null, isUp, lastSequence, itemCount,
            capabilities));
    }

    @Override
    public boolean onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int domainType,
        final int flags,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        events.add(new Event("refresh", serviceId, itemHandle, sequence, originTimestampNs, requestId, domainType,
            flags, 0, 0, buffer.getStringWithoutLengthAscii(nameOffset, nameLength), copy(buffer, rwfOffset, rwfLength),
            false, 0, 0, 0));
        return true;
    }

    @Override
    public boolean onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        events.add(new Event("update", serviceId, itemHandle, sequence, originTimestampNs, 0, 0, 0, 0, 0, null,
            copy(buffer, rwfOffset, rwfLength), false, 0, 0, 0));
        return true;
    }

    @Override
    public boolean onItemStatus(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int streamState,
        final int dataState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        events.add(new Event("status", serviceId, itemHandle, sequence, originTimestampNs, requestId, 0, 0,
            streamState, dataState, null, copy(buffer, rwfOffset, rwfLength), false, 0, 0, 0));
        return true;
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }
}
