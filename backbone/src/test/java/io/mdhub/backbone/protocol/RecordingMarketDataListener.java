package io.mdhub.backbone.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

/**
 * Test listener: records each message as a line of text (RWF bytes as a hex digest of length and content hash), and
 * can refuse the next N refreshes to exercise back-pressure.
 */
final class RecordingMarketDataListener implements MarketDataListener
{
    final List<String> events = new ArrayList<>();
    final List<byte[]> rwf = new ArrayList<>();
    final List<Integer> sessions = new ArrayList<>();
    MarketDataAdapter adapter;
    int refusals;

    @Override
    public void onAnnouncement(
        final int distributorId, final long epoch, final int intervalMs, final long timestampNs, final int count)
    {
        events.add("announce d=" + distributorId + " epoch=" + epoch + " interval=" + intervalMs + " count=" + count);
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
        events.add("service d=" + distributorId + " id=" + serviceId + " up=" + isUp + " accepting=" +
            isAcceptingRequests + " last=" + lastSequence + " items=" + itemCount + " caps=" + capabilities +
            " name=" + buffer.getStringWithoutLengthAscii(nameOffset, nameLength));
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
        if (refusals > 0)
        {
            refusals--;
            return false;
        }
        events.add("refresh s=" + serviceId + " h=" + itemHandle + " seq=" + sequence + " ts=" + originTimestampNs +
            " req=" + requestId + " domain=" + domainType + " flags=" + flags + " name=" +
            buffer.getStringWithoutLengthAscii(nameOffset, nameLength) + " rwf=" + rwfLength);
        rwf.add(copy(buffer, rwfOffset, rwfLength));
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
        if (null != adapter)
        {
            sessions.add(adapter.sessionId());
        }
        events.add("update s=" + serviceId + " h=" + itemHandle + " seq=" + sequence + " ts=" + originTimestampNs +
            " rwf=" + rwfLength);
        rwf.add(copy(buffer, rwfOffset, rwfLength));
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
        events.add("status s=" + serviceId + " h=" + itemHandle + " seq=" + sequence + " req=" + requestId +
            " stream=" + streamState +
            " data=" + dataState + " rwf=" + new String(copy(buffer, rwfOffset, rwfLength), StandardCharsets.US_ASCII));
        return true;
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }
}
