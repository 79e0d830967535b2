package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;

/**
 * Encodes MarketPrice messages with reused ETA objects: a refresh (state, Qos realtime/tick-by-tick, key with
 * serviceId + name + RIC name type, FieldList) and an update (updateType, FieldList) whose fields are written through
 * the returned {@link FieldListWriter} and finished with {@link #complete()}; and a status and a close.
 */
public final class MarketPriceEncoder
{
    private static final int MAX_NAME_LENGTH = 255;

    private final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
    private com.refinitiv.eta.codec.Buffer permData;
    private final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
    private final StatusMsgEncoder status = new StatusMsgEncoder();
    private final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
    private final FieldListWriter fields = new FieldListWriter();
    private final Buffer name = CodecFactory.createBuffer();
    private final ByteBuffer nameCopy = ByteBuffer.allocateDirect(MAX_NAME_LENGTH);
    private com.refinitiv.eta.codec.Msg current;
    private EncodeIterator iterator;
    private int status0 = CodecReturnCodes.SUCCESS;

    /**
     * Start a refresh; write its fields, then call {@link #complete()}.
     *
     * @param iterator     to encode into.
     * @param streamId     the receiver's streamId.
     * @param serviceId    the serviceId in the key.
     * @param name         buffer holding the item name.
     * @param nameOffset   first byte of the name.
     * @param nameLength   length of the name, at most 255.
     * @param streamState  a {@code StreamStates} value (OPEN, or NON_STREAMING for a snapshot).
     * @param dataState    a {@code DataStates} value.
     * @param solicited    true when answering a request.
     * @param dictionaryId written in the FieldList info when &gt; 0.
     * @return the writer for the fields.
     */
    public FieldListWriter beginRefresh(
        final EncodeIterator iterator,
        final int streamId,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final int streamState,
        final int dataState,
        final boolean solicited,
        final int dictionaryId)
    {
        refresh.clear();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        int flags = RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | RefreshMsgFlags.REFRESH_COMPLETE
            | RefreshMsgFlags.CLEAR_CACHE;
        if (solicited)
        {
            flags |= RefreshMsgFlags.SOLICITED;
        }
        if (null != permData)
        {
            flags |= RefreshMsgFlags.HAS_PERM_DATA;
        }
        refresh.flags(flags);
        if (null != permData)
        {
            refresh.permData(permData);
        }
        refresh.state().streamState(streamState);
        refresh.state().dataState(dataState);
        refresh.qos().timeliness(QosTimeliness.REALTIME);
        refresh.qos().rate(QosRates.TICK_BY_TICK);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(serviceId);
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        nameCopy.clear();
        name.getBytes(nameOffset, nameCopy, 0, nameLength);
        this.name.data(nameCopy, 0, nameLength);
        refresh.msgKey().name(this.name);
        return begin(iterator, refresh, dictionaryId);
    }

    /**
     * @param lock the PermData (the item's lock, e.g. {@code "62"}) of the refreshes begun from now on, or null for
     *             none.
     * @return this.
     */
    public MarketPriceEncoder permData(final byte[] lock)
    {
        if (null == lock)
        {
            permData = null;
        }
        else
        {
            permData = CodecFactory.createBuffer();
            permData.data(java.nio.ByteBuffer.wrap(lock.clone()));
        }
        return this;
    }

    /**
     * Start an update; write its fields, then call {@link #complete()}.
     *
     * @param iterator   to encode into.
     * @param streamId   the receiver's streamId.
     * @param updateType an {@code UpdateEventTypes} value (QUOTE, TRADE...).
     * @return the writer for the fields.
     */
    public FieldListWriter beginUpdate(final EncodeIterator iterator, final int streamId, final int updateType)
    {
        update.clear();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(streamId);
        update.containerType(DataTypes.FIELD_LIST);
        update.updateType(updateType);
        return begin(iterator, update, 0);
    }

    private FieldListWriter begin(
        final EncodeIterator iterator, final com.refinitiv.eta.codec.Msg msg, final int dictionaryId)
    {
        this.iterator = iterator;
        this.current = msg;
        status0 = msg.encodeInit(iterator, 0);
        if (CodecReturnCodes.ENCODE_CONTAINER == status0)
        {
            status0 = fields.begin(iterator, dictionaryId, 0);
        }
        return fields;
    }

    /**
     * Finish the field list and the message started by {@code beginRefresh} or {@code beginUpdate}.
     *
     * @return SUCCESS, or the first ETA error met while encoding.
     */
    public int complete()
    {
        if (CodecReturnCodes.SUCCESS != status0)
        {
            return status0;
        }
        final int fieldsResult = fields.complete();
        final int msgResult = current.encodeComplete(iterator, CodecReturnCodes.SUCCESS == fieldsResult);
        return CodecReturnCodes.SUCCESS != fieldsResult ? fieldsResult : msgResult;
    }

    /**
     * Encode a StatusMsg with a state and text.
     *
     * @param iterator    to encode into.
     * @param streamId    the receiver's streamId.
     * @param streamState a {@code StreamStates} value.
     * @param dataState   a {@code DataStates} value.
     * @param code        a {@code StateCodes} value.
     * @param text        ASCII text (copied into a reused buffer; at most 32767 chars).
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeStatus(
        final EncodeIterator iterator,
        final int streamId,
        final int streamState,
        final int dataState,
        final int code,
        final CharSequence text)
    {
        return status.encode(iterator, DomainTypes.MARKET_PRICE, streamId, streamState, dataState, code, text);
    }

    /**
     * Encode a CloseMsg.
     *
     * @param iterator to encode into.
     * @param streamId the stream to close.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeClose(final EncodeIterator iterator, final int streamId)
    {
        close.clear();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.NO_DATA);
        return close.encode(iterator);
    }
}
