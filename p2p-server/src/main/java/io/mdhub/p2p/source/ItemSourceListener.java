package io.mdhub.p2p.source;

import org.agrona.DirectBuffer;

/**
 * What an {@link ItemSource} tells its fan-out worker, always on the worker's thread. The message buffers are only
 * valid during the call: the worker copies what it sends.
 */
public interface ItemSourceListener
{
    /**
     * A refresh (image) of an item.
     *
     * @param itemId    the worker's item id.
     * @param solicited true if it answers {@code open} or {@code refresh} (it goes to the watchers waiting for an
     *                  image), false for an unsolicited resync such as a recovery after a service came back (it goes
     *                  to every watcher).
     * @param buffer    holding one RWF RefreshMsg.
     * @param offset    of the message.
     * @param length    of the message.
     */
    void onRefresh(int itemId, boolean solicited, DirectBuffer buffer, int offset, int length);

    /**
     * An update of an item.
     *
     * @param itemId the worker's item id.
     * @param buffer holding one RWF UpdateMsg.
     * @param offset of the message.
     * @param length of the message.
     */
    void onUpdate(int itemId, DirectBuffer buffer, int offset, int length);

    /**
     * A status of an item: Open/Suspect while its service is down, or a Closed/ClosedRecover state that ends the
     * item (after which the source has forgotten it).
     *
     * @param itemId the worker's item id.
     * @param buffer holding one RWF StatusMsg.
     * @param offset of the message.
     * @param length of the message.
     */
    void onStatus(int itemId, DirectBuffer buffer, int offset, int length);

    /**
     * A service appeared or changed (state up/down, accepting requests).
     *
     * @param service its new description.
     */
    void onServiceChanged(ServiceInfo service);

    /**
     * A service is gone.
     *
     * @param serviceId its id.
     */
    void onServiceRemoved(int serviceId);

    /**
     * The source is about to deliver several events in one go (e.g. one poll of a stream). Between this and
     * {@link #onBatchEnd()} the worker holds its writes back and flushes them once at the end, so a burst costs one
     * write per consumer instead of one per message. A source that never calls it gets a flush per event in the
     * latency profile.
     */
    default void onBatchStart()
    {
    }

    /**
     * The events announced by {@link #onBatchStart()} have all been delivered.
     */
    default void onBatchEnd()
    {
    }

    /**
     * The outcome of a post sent with {@link ItemSource#post}.
     *
     * @param postRequestId the post's id.
     * @param nakCode       RWF NakCode; 0 when accepted.
     * @param text          holds the reason (ASCII), for a NAK.
     * @param offset        where it starts.
     * @param length        its length (0 for none).
     */
    default void onPostAck(
        final long postRequestId, final int nakCode, final DirectBuffer text, final int offset, final int length)
    {
    }

    /**
     * A provider's GenericMsg on an open item's stream.
     *
     * @param itemId the item.
     * @param buffer holds the GenericMsg.
     * @param offset where it starts.
     * @param length its length.
     */
    default void onGeneric(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
    }
}
