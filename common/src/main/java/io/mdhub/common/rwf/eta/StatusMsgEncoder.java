package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;

/**
 * Encodes an item StatusMsg of any domain with a state and an ASCII text, reusing its ETA objects so that a status
 * costs no allocation: the one StatusMsg writer of the distributor, the p2p-server and the tools. Text longer than
 * the encoder's cap is cut at the cap. Not thread safe.
 */
public final class StatusMsgEncoder
{
    /**
     * The longest text an RWF state may carry (its length is a 15-bit field).
     */
    public static final int MAX_TEXT_LENGTH = 0x7FFF;

    private final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
    private final Buffer text = CodecFactory.createBuffer();
    private final ByteBuffer textBytes;
    private final int maxTextLength;

    /**
     * An encoder that writes at most {@link #MAX_TEXT_LENGTH} text bytes.
     */
    public StatusMsgEncoder()
    {
        this(MAX_TEXT_LENGTH);
    }

    /**
     * @param maxTextLength the longest text written, 0 to {@link #MAX_TEXT_LENGTH}; longer text is cut.
     */
    public StatusMsgEncoder(final int maxTextLength)
    {
        if (maxTextLength < 0 || maxTextLength > MAX_TEXT_LENGTH)
        {
            throw new IllegalArgumentException(
                "maxTextLength must be 0.." + MAX_TEXT_LENGTH + ": " + maxTextLength);
        }
        this.maxTextLength = maxTextLength;
        this.textBytes = ByteBuffer.allocateDirect(Math.max(1, maxTextLength));
    }

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
        final int length = Math.min(stateText.length(), maxTextLength);
        for (int i = 0; i < length; i++)
        {
            // the text may quote what a client sent (an item name): anything outside ASCII becomes '?'
            final char c = stateText.charAt(i);
            textBytes.put(i, c < 0x80 ? (byte)c : (byte)'?');
        }
        text.data(textBytes, 0, length);
        status.state().text(text);
        return status.encode(iterator);
    }
}
