package io.mdhub.distributor;

import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;

/**
 * Encodes an item StatusMsg (any domain) with a state and an ASCII text, with reused ETA objects: the Closed
 * answers to providers, the Open/Suspect events the distributor makes when a provider leaves, and the backbone's
 * Closed statuses. Not thread safe.
 */
public final class ItemStatusEncoder
{
    private static final int MAX_TEXT_LENGTH = 0x7FFF;

    private final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
    private final Buffer text = CodecFactory.createBuffer();
    private final ByteBuffer textBytes = ByteBuffer.allocateDirect(MAX_TEXT_LENGTH);

    /**
     * @param iterator    positioned on the target buffer.
     * @param domainType  the item's domain.
     * @param streamId    the stream.
     * @param streamState RWF StreamState.
     * @param dataState   RWF DataState.
     * @param code        RWF StateCode.
     * @param stateText   ASCII text.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encode(
        final EncodeIterator iterator,
        final int domainType,
        final int streamId,
        final int streamState,
        final int dataState,
        final int code,
        final CharSequence stateText)
    {
        status.clear();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(domainType);
        status.streamId(streamId);
        status.containerType(DataTypes.NO_DATA);
        status.flags(StatusMsgFlags.HAS_STATE);
        status.state().streamState(streamState);
        status.state().dataState(dataState);
        status.state().code(code);
        final int length = Math.min(stateText.length(), MAX_TEXT_LENGTH);
        for (int i = 0; i < length; i++)
        {
            textBytes.put(i, (byte)stateText.charAt(i));
        }
        text.data(textBytes, 0, length);
        status.state().text(text);
        return status.encode(iterator);
    }
}
