package io.mdhub.common.cache;

import java.nio.ByteBuffer;

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
 * Writes a {@link CachedImage} out as one complete refresh with ETA: the image's last state and QoS, a key with the
 * given serviceId, name and the image's name type, CLEAR_CACHE and REFRESH_COMPLETE, and the image as one FieldList
 * (written into a reused scratch buffer first and handed to ETA as the encoded data body). Reused objects,
 * single-threaded: one encoder per event loop or agent.
 */
public final class ImageRefreshEncoder
{
    private final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer body = new ExpandableDirectByteBuffer(1024);
    private final EtaBufferView bodyView = new EtaBufferView();
    private final Buffer name = CodecFactory.createBuffer();
    private final Buffer emptyText = CodecFactory.createBuffer();

    /**
     * Ready to encode.
     */
    public ImageRefreshEncoder()
    {
        emptyText.data("");
    }

    /**
     * @param image      a cached image (usually {@link CachedImage#isServable()}).
     * @param streamId   stream id of the refresh.
     * @param serviceId  service id for the key.
     * @param itemName   buffer whose bytes from 0 are the item name.
     * @param nameLength length of the name.
     * @param solicited  whether the refresh answers a request.
     * @param target     where to write.
     * @param offset     first byte in target.
     * @param capacity   bytes available from offset.
     * @return bytes written, or a negative ETA {@code CodecReturnCodes} value (e.g. BUFFER_TOO_SMALL), or FAILURE
     * when the image holds no FieldList.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public int encode(
        final CachedImage image,
        final int streamId,
        final int serviceId,
        final ByteBuffer itemName,
        final int nameLength,
        final boolean solicited,
        final MutableDirectBuffer target,
        final int offset,
        final int capacity)
    {
        if (!image.isFieldList())
        {
            return CodecReturnCodes.FAILURE;
        }
        final int bodyLength = image.image().encodedLength();
        body.checkLimit(bodyLength);
        image.image().encodeFieldList(body, 0);

        refresh.clear();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(image.domainType());
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        int flags = RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE;
        if (solicited)
        {
            flags |= RefreshMsgFlags.SOLICITED;
        }
        if (image.hasQos())
        {
            flags |= RefreshMsgFlags.HAS_QOS;
        }
        // ETA hands out qos() only once HAS_QOS is among the flags
        refresh.flags(flags);
        if (image.hasQos())
        {
            refresh.qos().timeliness(image.qosTimeliness());
            refresh.qos().rate(image.qosRate());
            refresh.qos().dynamic(image.qosDynamic());
            refresh.qos().timeInfo(image.qosTimeInfo());
            refresh.qos().rateInfo(image.qosRateInfo());
        }
        refresh.state().streamState(image.streamState());
        refresh.state().dataState(image.dataState());
        refresh.state().code(image.stateCode());
        refresh.state().text(emptyText);

        int keyFlags = MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME;
        if (CachedImage.ABSENT != image.nameType())
        {
            keyFlags |= MsgKeyFlags.HAS_NAME_TYPE;
            refresh.msgKey().nameType(image.nameType());
        }
        refresh.msgKey().flags(keyFlags);
        refresh.msgKey().serviceId(serviceId);
        name.data(itemName, 0, nameLength);
        refresh.msgKey().name(name);
        refresh.encodedDataBody(bodyView.wrap(body, 0, bodyLength));

        final int result = refresh.encode(writer.begin(target, offset, capacity));
        return CodecReturnCodes.SUCCESS == result ? writer.encodedLength() : result;
    }
}
