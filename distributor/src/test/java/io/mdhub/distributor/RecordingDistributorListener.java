package io.mdhub.distributor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import org.agrona.DirectBuffer;

import io.mdhub.common.test.MdTests;

/**
 * Records every distributor event (with a copy of its RWF bytes) for tests; the event loop adds, the test thread
 * reads.
 */
final class RecordingDistributorListener implements DistributorListener
{
    /**
     * One recorded event. Fields that do not apply to the event type are -1 or null.
     */
    record Event(String type, int serviceId, int itemHandle, int a, int b, int c, String name, byte[] rwf)
    {
        @Override
        public String toString()
        {
            return type + "(service=" + serviceId + " item=" + itemHandle + " " + a + "," + b + "," + c +
                (null != name ? " " + name : "") + ")";
        }
    }

    final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

    @Override
    public void onServiceChanged(
        final int serviceId, final String serviceName, final int serviceState, final int acceptingRequests)
    {
        events.add(new Event("service", serviceId, -1, serviceState, acceptingRequests, -1, serviceName, null));
    }

    @Override
    public void onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final byte[] nameBytes = new byte[name.capacity()];
        name.getBytes(0, nameBytes);
        events.add(new Event("refresh", serviceId, itemHandle, domainType, refreshFlags, (int)connectionId,
            new String(nameBytes, StandardCharsets.US_ASCII), copy(rwf, rwfOffset, rwfLength)));
    }

    @Override
    public void onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int updateType,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        events.add(new Event("update", serviceId, itemHandle, domainType, updateType, -1, null,
            copy(rwf, rwfOffset, rwfLength)));
    }

    @Override
    public void onItemStatus(
        final int serviceId,
        final int itemHandle,
        final int streamState,
        final int dataState,
        final int stateCode,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        events.add(new Event("status", serviceId, itemHandle, streamState, dataState, stateCode, null,
            copy(rwf, rwfOffset, rwfLength)));
    }

    @Override
    public void onItemDropped(final int serviceId, final int itemHandle, final int domainType)
    {
        events.add(new Event("dropped", serviceId, itemHandle, domainType, -1, -1, null, null));
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    /**
     * Wait until at least count events were recorded, then return them all.
     */
    List<Event> await(final int count)
    {
        MdTests.await(() -> count + " events, have " + events, () -> events.size() >= count);
        return new ArrayList<>(events);
    }

    /**
     * Wait for the next event of a type after the given index.
     */
    Event awaitNext(final String type)
    {
        MdTests.await(() -> "a " + type + " event, have " + events,
            () -> events.stream().anyMatch((e) -> e.type().equals(type)));
        final Event event = events.stream().filter((e) -> e.type().equals(type)).findFirst().orElseThrow();
        events.remove(event);
        return event;
    }

    String types()
    {
        return events.stream().map(Event::type).collect(Collectors.joining(","));
    }
}
