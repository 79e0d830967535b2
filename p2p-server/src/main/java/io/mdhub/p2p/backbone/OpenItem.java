package io.mdhub.p2p.backbone;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.rwf.FieldView;

/**
 * One item a backbone item source holds open for its worker's consumers, with its request, binding and retry state.
 * Owned by the worker's event loop.
 */
final class OpenItem
{
    /** No time set, in {@link #refusedSinceNs}. */
    static final long NONE = Long.MIN_VALUE;

    final int itemId;
    final int domainType;
    final int serviceId;
    final UnsafeBuffer name;
    boolean isStreaming;
    boolean isRecovering;
    boolean isQueued;
    boolean isHeld;
    boolean hadImage;
    boolean isAwaitingRetry;
    /** The fields its consumers want (a union), asked for with every request; null for every field. */
    FieldView view;
    /** A private stream: its own upstream stream, never asked for again by name. */
    boolean isPrivate;
    /** A private stream whose upstream stream is lost, to be closed. */
    boolean isLost;
    /** Listed among the items waiting for their provider: its distributors do not have it (yet). */
    boolean isWaitingForProvider;
    /** On the request check's list of outstanding items. */
    boolean isOutstanding;
    /** A multi-part answer is arriving: its later parts go where its first went. */
    boolean isAnswerInParts;
    boolean isAnswerSolicited;
    CarriedService awaitingPass;
    long requestedAtNs;
    long refusedSinceNs = NONE;
    long retryAtNs;
    long retryDelayNs;
    long requestId;
    int refusals;
    DistributorState distributor;
    int handle = -1;

    OpenItem(final int itemId, final int domainType, final int serviceId, final UnsafeBuffer name)
    {
        this.itemId = itemId;
        this.domainType = domainType;
        this.serviceId = serviceId;
        this.name = name;
    }

    /**
     * Bind the item to the distributor whose image answered it: its messages name the item by that handle.
     */
    void bind(final DistributorState distributor, final int handle)
    {
        unbind();
        this.distributor = distributor;
        this.handle = handle;
        distributor.itemByHandle.put(serviceId, handle, itemId);
    }

    void unbind()
    {
        if (null != distributor)
        {
            distributor.itemByHandle.remove(serviceId, handle);
            distributor = null;
        }
        handle = -1;
    }

    /**
     * @return true if the item's name is those bytes.
     */
    boolean isNamed(final DirectBuffer buffer, final int offset, final int length)
    {
        if (name.capacity() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (name.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }
}
