package io.mdhub.common.cache;

import java.nio.ByteBuffer;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Map;
import com.refinitiv.eta.codec.MapEntry;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MapFlags;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;

import io.mdhub.common.rwf.eta.EtaBufferView;
import io.mdhub.common.rwf.eta.EtaMsgWriter;

/**
 * Writes a {@link CachedImage} out as one complete refresh with ETA: the image's last state and QoS, a key with the
 * given serviceId, name and the image's name type, CLEAR_CACHE and REFRESH_COMPLETE, and the image as one FieldList
 * or one Map — written into a reused scratch buffer first (the FieldList by {@link ItemImage}, the Map by ETA's Map
 * encoder: its header, the summary data, then every entry as an ADD with its pre-encoded key, permission data and
 * payload) and handed to ETA as the encoded data body. Reused objects, single-threaded: one encoder per event loop or
 * agent.
 */
public final class ImageRefreshEncoder
{
    private final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer body = new ExpandableDirectByteBuffer(1024);
    private final EtaBufferView bodyView = new EtaBufferView();
    private final Buffer name = CodecFactory.createBuffer();
    private final Buffer emptyText = CodecFactory.createBuffer();
    private final EtaMsgWriter bodyWriter = new EtaMsgWriter();
    private final Map map = CodecFactory.createMap();
    private final MapEntry entry = CodecFactory.createMapEntry();
    private final EtaBufferView summaryView = new EtaBufferView();
    private final EtaBufferView keyView = new EtaBufferView();
    private final EtaBufferView permView = new EtaBufferView();
    private final EtaBufferView lockView = new EtaBufferView();
    private final UnsafeBuffer lockBytes = new UnsafeBuffer(new byte[0]);
    private final EtaBufferView payloadView = new EtaBufferView();

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
     * when the image holds neither a FieldList nor a Map ({@link CachedImage#noImageText()} says why).
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
        final int bodyLength;
        if (image.isFieldList())
        {
            bodyLength = image.image().encodedLength();
            body.checkLimit(bodyLength);
            image.image().encodeFieldList(body, 0);
        }
        else if (image.isMap())
        {
            bodyLength = encodeMap(image.mapImage());
            if (bodyLength < 0)
            {
                return bodyLength;
            }
        }
        else
        {
            return CodecReturnCodes.FAILURE;
        }

        refresh.clear();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(image.domainType());
        refresh.streamId(streamId);
        refresh.containerType(image.payloadType());
        int flags = RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE;
        if (solicited)
        {
            flags |= RefreshMsgFlags.SOLICITED;
        }
        if (image.hasQos())
        {
            flags |= RefreshMsgFlags.HAS_QOS;
        }
        if (image.permDataLength() > 0)
        {
            // the provider's lock goes with every image: the p2p-servers check entitlements against it
            flags |= RefreshMsgFlags.HAS_PERM_DATA;
            lockBytes.wrap(image.permData(), 0, image.permDataLength());
            refresh.permData(lockView.wrap(lockBytes, 0, image.permDataLength()));
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

    /**
     * Write a Map image into the body buffer with ETA's Map encoder.
     *
     * @return the Map's length (0 for an image without a header: an empty payload), or a negative
     * {@code CodecReturnCodes} value.
     */
    private int encodeMap(final MapImage image)
    {
        if (!image.hasHeader())
        {
            return 0;
        }
        final int capacity = image.encodedLengthBound();
        body.checkLimit(capacity);
        final EncodeIterator iterator = bodyWriter.begin(body, 0, capacity);
        map.clear();
        int flags = 0;
        if (image.hasKeyFieldId())
        {
            flags |= MapFlags.HAS_KEY_FIELD_ID;
            map.keyFieldId(image.keyFieldId());
        }
        if (image.hasSummary())
        {
            flags |= MapFlags.HAS_SUMMARY_DATA;
            map.encodedSummaryData(summaryView.wrap(image.summary(), 0, image.summaryLength()));
        }
        if (image.permEntryCount() > 0)
        {
            flags |= MapFlags.HAS_PER_ENTRY_PERM_DATA;
        }
        map.flags(flags);
        map.keyPrimitiveType(image.keyPrimitiveType());
        map.containerType(image.containerType());
        int result = map.encodeInit(iterator, 0, 0);
        if (result < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        final boolean hasPayload = DataTypes.NO_DATA != image.containerType();
        for (int i = 0, count = image.entryCount(); i < count; i++)
        {
            entry.clear();
            entry.action(MapEntryActions.ADD);
            if (image.permLength(i) > 0)
            {
                entry.applyHasPermData();
                entry.permData(permView.wrap(image.data(), image.permOffset(i), image.permLength(i)));
            }
            entry.encodedKey(keyView.wrap(image.data(), image.keyOffset(i), image.keyLength(i)));
            if (hasPayload)
            {
                entry.encodedData(payloadView.wrap(image.data(), image.payloadOffset(i), image.payloadLength(i)));
            }
            result = entry.encode(iterator);
            if (result < CodecReturnCodes.SUCCESS)
            {
                return result;
            }
        }
        result = map.encodeComplete(iterator, true);
        if (result < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        return bodyWriter.encodedLength();
    }
}
