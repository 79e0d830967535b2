package io.mdhub.p2p.backbone;

import org.agrona.ExpandableArrayBuffer;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.mdhub.p2p.source.ItemSourceListener;

/**
 * The statuses a backbone item source makes up itself for an item's consumers, in the item's own domain: Open/Suspect
 * while it recovers or waits, Closed/Suspect NOT_FOUND for an item nobody publishes, ClosedRecover for a private
 * stream lost upstream. Reuses one buffer; owned by the worker's event loop.
 */
final class ItemStatuses
{
    private final ItemSourceListener listener;
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final StatusMsgEncoder encoder = new StatusMsgEncoder();
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(512);

    ItemStatuses(final ItemSourceListener listener)
    {
        this.listener = listener;
    }

    /**
     * The item's image is being asked for again, or it waits: Open/Suspect with the reason.
     */
    void suspect(final OpenItem item, final String text)
    {
        send(item, StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE, text);
    }

    /**
     * Nobody publishes the item: Closed/Suspect NOT_FOUND.
     */
    void notFound(final OpenItem item, final String text)
    {
        send(item, StreamStates.CLOSED, DataStates.SUSPECT, StateCodes.NOT_FOUND, text);
    }

    /**
     * A private stream whose upstream stream is lost: ClosedRecover, for its consumer to open it again.
     */
    void lostPrivate(final OpenItem item)
    {
        send(item, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, StateCodes.NONE,
            "private stream lost upstream: open it again");
    }

    private void send(
        final OpenItem item, final int streamState, final int dataState, final int code, final String text)
    {
        final int result = encoder.encode(writer.begin(buffer, 0, buffer.capacity()), item.domainType, 0,
            streamState, dataState, code, text);
        if (CodecReturnCodes.SUCCESS == result)
        {
            listener.onStatus(item.itemId, buffer, 0, writer.encodedLength());
        }
    }
}
