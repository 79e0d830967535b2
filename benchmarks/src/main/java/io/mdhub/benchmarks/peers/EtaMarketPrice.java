package io.mdhub.benchmarks.peers;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.FieldListFlags;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.dictionary.FieldIds;

/**
 * The MarketPrice messages the ETA ends exchange, encoded and decoded with ETA's codec alone: a refresh of a quote
 * and a trade, and updates of the published benchmarks' 74-byte class (bid/ask with sizes, last trade and volume,
 * accumulated volume) carrying the publisher's sequence number in {@code MDH_UPDSEQ} and, in every n-th, the origin
 * {@code System.nanoTime()} in {@code MDH_ORGTIM}. Reused encoders and decoders: one instance per thread.
 */
final class EtaMarketPrice
{
    /** Bytes a message may take, with room to spare. */
    static final int MAX_BYTES = 256;

    private final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
    private final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
    private final FieldList fieldList = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();
    private final Real real = CodecFactory.createReal();
    private final UInt unsigned = CodecFactory.createUInt();
    private final Int signed = CodecFactory.createInt();
    private long sequence;
    private long originNs;

    /**
     * @param it        over the message's buffer.
     * @param streamId  the item's stream.
     * @param serviceId the provider's service.
     * @param name      the item's name.
     * @return an ETA {@link CodecReturnCodes} value.
     */
    int encodeRefresh(final EncodeIterator it, final int streamId, final int serviceId, final String name)
    {
        refresh.clear();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | RefreshMsgFlags.REFRESH_COMPLETE |
            RefreshMsgFlags.CLEAR_CACHE);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.qos().timeliness(QosTimeliness.REALTIME);
        refresh.qos().rate(QosRates.TICK_BY_TICK);
        refresh.msgKey().applyHasServiceId();
        refresh.msgKey().serviceId(serviceId);
        refresh.msgKey().applyHasName();
        refresh.msgKey().name().data(name);
        refresh.msgKey().applyHasNameType();
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        int ret = refresh.encodeInit(it, 0);
        if (ret < CodecReturnCodes.SUCCESS)
        {
            return ret;
        }
        ret = encodeFields(it, 0, 0);
        return ret < CodecReturnCodes.SUCCESS ? ret : refresh.encodeComplete(it, true);
    }

    /**
     * @param it       over the message's buffer.
     * @param streamId the item's stream.
     * @param sequence the publisher's sequence number.
     * @param originNs {@code System.nanoTime()} when sent, or 0 for none.
     * @return an ETA {@link CodecReturnCodes} value.
     */
    int encodeUpdate(final EncodeIterator it, final int streamId, final long sequence, final long originNs)
    {
        update.clear();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(streamId);
        update.containerType(DataTypes.FIELD_LIST);
        update.updateType(UpdateEventTypes.QUOTE);
        update.flags(UpdateMsgFlags.NONE);
        int ret = update.encodeInit(it, 0);
        if (ret < CodecReturnCodes.SUCCESS)
        {
            return ret;
        }
        ret = encodeFields(it, sequence, originNs);
        return ret < CodecReturnCodes.SUCCESS ? ret : update.encodeComplete(it, true);
    }

    private int encodeFields(final EncodeIterator it, final long sequence, final long originNs)
    {
        fieldList.clear();
        fieldList.flags(FieldListFlags.HAS_STANDARD_DATA);
        int ret = fieldList.encodeInit(it, null, 0);
        final long price = 10_000 + (sequence & 0x3F);
        ret = min(ret, encodeReal(it, FieldIds.BID, price - 1, RealHints.EXPONENT_2));
        ret = min(ret, encodeReal(it, FieldIds.ASK, price + 1, RealHints.EXPONENT_2));
        ret = min(ret, encodeReal(it, FieldIds.BIDSIZE, 100 + (sequence & 0xFF), RealHints.EXPONENT0));
        ret = min(ret, encodeReal(it, FieldIds.ASKSIZE, 200 + (sequence & 0xFF), RealHints.EXPONENT0));
        ret = min(ret, encodeReal(it, FieldIds.TRDPRC_1, price, RealHints.EXPONENT_2));
        ret = min(ret, encodeReal(it, FieldIds.TRDVOL_1, 1 + (sequence & 0x7F), RealHints.EXPONENT0));
        ret = min(ret, encodeReal(it, FieldIds.ACVOL_1, 64 * sequence, RealHints.EXPONENT0));
        entry.clear();
        entry.fieldId(FieldIds.MDH_UPDSEQ);
        entry.dataType(DataTypes.UINT);
        unsigned.value(sequence);
        ret = min(ret, entry.encode(it, unsigned));
        if (0 != originNs)
        {
            entry.clear();
            entry.fieldId(FieldIds.MDH_ORGTIM);
            entry.dataType(DataTypes.INT);
            signed.value(originNs);
            ret = min(ret, entry.encode(it, signed));
        }
        return ret < CodecReturnCodes.SUCCESS ? ret : fieldList.encodeComplete(it, true);
    }

    private int encodeReal(final EncodeIterator it, final int fieldId, final long value, final int hint)
    {
        entry.clear();
        entry.fieldId(fieldId);
        entry.dataType(DataTypes.REAL);
        real.value(value, hint);
        return entry.encode(it, real);
    }

    private static int min(final int a, final int b)
    {
        return Math.min(a, b);
    }

    /**
     * Decode an update's field list (the iterator past the message header, as {@code Msg.decode} leaves it), keeping
     * {@code MDH_UPDSEQ} and {@code MDH_ORGTIM}; every other field is skipped without a dictionary.
     *
     * @param it over the update's payload.
     * @return true when the update carried a sequence number.
     */
    boolean decodeUpdateFields(final DecodeIterator it)
    {
        sequence = 0;
        originNs = 0;
        if (CodecReturnCodes.SUCCESS != fieldList.decode(it, null))
        {
            return false;
        }
        int ret;
        while (CodecReturnCodes.END_OF_CONTAINER != (ret = entry.decode(it)))
        {
            if (CodecReturnCodes.SUCCESS != ret)
            {
                return false;
            }
            if (FieldIds.MDH_UPDSEQ == entry.fieldId() && CodecReturnCodes.SUCCESS == unsigned.decode(it))
            {
                sequence = unsigned.toLong();
            }
            else if (FieldIds.MDH_ORGTIM == entry.fieldId() && CodecReturnCodes.SUCCESS == signed.decode(it))
            {
                originNs = signed.toLong();
            }
        }
        return 0 != sequence;
    }

    /**
     * @return the sequence number of the last update decoded.
     */
    long sequence()
    {
        return sequence;
    }

    /**
     * @return the origin time of the last update decoded, or 0.
     */
    long originNs()
    {
        return originNs;
    }
}
