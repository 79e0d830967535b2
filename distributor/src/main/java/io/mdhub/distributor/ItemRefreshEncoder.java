package io.mdhub.distributor;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;

import io.mdhub.common.rwf.eta.EtaBufferView;
import io.mdhub.common.rwf.eta.EtaMsgWriter;

/**
 * Encodes a complete refresh of a cached item from its image with ETA: the item's last state and QoS, a key with the
 * requested serviceId, name and name type, CLEAR_CACHE and REFRESH_COMPLETE, and the image as one FieldList. The
 * image is written into a reused scratch buffer first and handed to ETA as the encoded data body. Reused objects;
 * single-threaded.
 */
final class ItemRefreshEncoder
{
    private final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer body = new ExpandableDirectByteBuffer(1024);
    private final EtaBufferView bodyView = new EtaBufferView();
    private final Buffer name = CodecFactory.createBuffer();
    private final Buffer emptyText = CodecFactory.createBuffer();

    ItemRefreshEncoder()
    {
        emptyText.data("");
    }

    /**
     * @return bytes written, or a negative ETA {@code CodecReturnCodes} value (e.g. BUFFER_TOO_SMALL), or FAILURE
     * when the item holds no FieldList image.
     */
    int encode(
        final CachedItem item,
        final int streamId,
        final int serviceId,
        final boolean solicited,
        final MutableDirectBuffer target,
        final int offset,
        final int capacity)
    {
        if (!item.isFieldList)
        {
            return CodecReturnCodes.FAILURE;
        }
        final int bodyLength = item.image().encodedLength();
        body.checkLimit(bodyLength);
        item.image().encodeFieldList(body, 0);

        refresh.clear();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(item.domainType);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        int flags = RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE;
        if (solicited)
        {
            flags |= RefreshMsgFlags.SOLICITED;
        }
        if (item.hasQos)
        {
            flags |= RefreshMsgFlags.HAS_QOS;
        }
        // ETA hands out qos() only once HAS_QOS is among the flags
        refresh.flags(flags);
        if (item.hasQos)
        {
            refresh.qos().timeliness(item.qosTimeliness);
            refresh.qos().rate(item.qosRate);
            refresh.qos().dynamic(item.qosDynamic);
            refresh.qos().timeInfo(item.qosTimeInfo);
            refresh.qos().rateInfo(item.qosRateInfo);
        }
        refresh.state().streamState(item.streamState);
        refresh.state().dataState(item.dataState);
        refresh.state().code(item.stateCode);
        refresh.state().text(emptyText);

        int keyFlags = MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME;
        if (CachedItem.ABSENT != item.nameType)
        {
            keyFlags |= MsgKeyFlags.HAS_NAME_TYPE;
            refresh.msgKey().nameType(item.nameType);
        }
        refresh.msgKey().flags(keyFlags);
        refresh.msgKey().serviceId(serviceId);
        name.data(item.nameByteBuffer(), 0, item.itemName().length());
        refresh.msgKey().name(name);
        refresh.encodedDataBody(bodyView.wrap(body, 0, bodyLength));

        final int result = refresh.encode(writer.begin(target, offset, capacity));
        return CodecReturnCodes.SUCCESS == result ? writer.encodedLength() : result;
    }
}
