package io.mdhub.common.cache;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfMsgKeyDescriptor;
import io.mdhub.common.rwf.RwfPrimitives;

/**
 * What a cache must know to answer a request for an item without asking upstream: the field image (off-heap, in an
 * {@link ItemImage}) and the header of the item's last refresh or status — domain, name type, stream and data state,
 * state code and QoS. Fed with the messages of the item as they pass ({@link #applyRefresh}, {@link #applyUpdate},
 * {@link #applyStatus}); {@link ImageRefreshEncoder} writes it back out as one complete refresh.
 * <p>
 * Only FieldList payloads are imaged; an item whose refresh carries another container is remembered as such
 * ({@link #isFieldList()} false) and cannot be served from the cache. Single-threaded, like the image.
 */
public final class CachedImage
{
    /** A header member the item's messages have not carried (name type). */
    public static final int ABSENT = -1;

    private static final int DELAYED = 3;
    private static final int TIME_CONFLATED = 3;

    private final ItemImage image = new ItemImage();
    private int domainType;
    private int nameType = ABSENT;
    private int streamState;
    private int dataState;
    private int stateCode;
    private boolean hasQos;
    private int qosTimeliness;
    private int qosRate;
    private boolean qosDynamic;
    private int qosTimeInfo;
    private int qosRateInfo;
    private boolean isFieldList;
    private boolean isRefreshComplete;

    /**
     * @param domainType the item's RDM domain until a refresh says otherwise.
     */
    public CachedImage(final int domainType)
    {
        this.domainType = domainType;
    }

    /**
     * Take in a refresh (or a part of one): a part with CLEAR_CACHE, or the first FieldList of an item, replaces the
     * image; a later part adds its fields. The header follows the refresh. A refresh whose FieldList is malformed
     * changes nothing.
     *
     * @param refresh   a wrapped RefreshMsg.
     * @param fieldList scratch flyweight used to read the payload.
     * @return false if the payload is a FieldList that does not decode (the caller decides what that costs the
     * sender); true otherwise.
     */
    public boolean applyRefresh(final RwfMsgFlyweight refresh, final RwfFieldListFlyweight fieldList)
    {
        final boolean clear = 0 != (refresh.flags() & RwfMsgFlags.Refresh.CLEAR_CACHE) || !isFieldList;
        if (!applyPayload(refresh, fieldList, clear))
        {
            return false;
        }
        if (refresh.hasMsgKey() && 0 != (refresh.key().flags() & RwfMsgKeyDescriptor.HAS_NAME_TYPE))
        {
            nameType = refresh.key().nameType();
        }
        domainType = refresh.domainType();
        streamState = refresh.streamState();
        dataState = refresh.dataState();
        stateCode = refresh.stateCode();
        readQos(refresh);
        isRefreshComplete = 0 != (refresh.flags() & RwfMsgFlags.Refresh.REFRESH_COMPLETE);
        return true;
    }

    /**
     * Apply an update's fields to the image (nothing for a non-FieldList item).
     *
     * @param update    a wrapped UpdateMsg.
     * @param fieldList scratch flyweight used to read the payload.
     * @return false if the payload is a FieldList that does not decode.
     */
    public boolean applyUpdate(final RwfMsgFlyweight update, final RwfFieldListFlyweight fieldList)
    {
        return applyPayload(update, fieldList, false);
    }

    /**
     * Take the state of a status; CLEAR_CACHE empties the image, which then is not complete until the next refresh.
     *
     * @param status a wrapped StatusMsg.
     */
    public void applyStatus(final RwfMsgFlyweight status)
    {
        if (status.hasState())
        {
            streamState = status.streamState();
            dataState = status.dataState();
            stateCode = status.stateCode();
        }
        if (0 != (status.flags() & RwfMsgFlags.Status.CLEAR_CACHE))
        {
            image.clear();
            isRefreshComplete = false;
        }
    }

    /**
     * Set the state without a message (e.g. Open/Suspect when the item's publisher went away).
     *
     * @param streamState the stream state.
     * @param dataState   the data state.
     * @param stateCode   the state code.
     */
    public void state(final int streamState, final int dataState, final int stateCode)
    {
        this.streamState = streamState;
        this.dataState = dataState;
        this.stateCode = stateCode;
    }

    /**
     * Forget the image and the header, as after construction.
     */
    public void clear()
    {
        image.clear();
        nameType = ABSENT;
        streamState = 0;
        dataState = 0;
        stateCode = 0;
        hasQos = false;
        isFieldList = false;
        isRefreshComplete = false;
    }

    private boolean applyPayload(
        final RwfMsgFlyweight msg, final RwfFieldListFlyweight fieldList, final boolean clear)
    {
        if (DataTypes.FIELD_LIST != msg.containerType())
        {
            if (clear)
            {
                isFieldList = false;
                image.clear();
            }
            return true;
        }
        if (!fieldList.wrap(msg.buffer(), msg.payloadOffset(), msg.payloadLength()))
        {
            return false;
        }
        if (clear)
        {
            isFieldList = true;
            image.applyRefresh(fieldList);
        }
        else if (isFieldList)
        {
            image.applyUpdate(fieldList);
        }
        return true;
    }

    private void readQos(final RwfMsgFlyweight refresh)
    {
        hasQos = 0 != (refresh.flags() & RwfMsgFlags.Refresh.HAS_QOS);
        if (!hasQos)
        {
            return;
        }
        // the QoS follows the state (its text) and the group id, and the permission data if present
        final DirectBuffer buffer = refresh.buffer();
        int position = refresh.stateTextOffset() + refresh.stateTextLength();
        position += 1 + (buffer.getByte(position) & 0xFF);
        if (0 != (refresh.flags() & RwfMsgFlags.Refresh.HAS_PERM_DATA))
        {
            position += RwfPrimitives.u15rbWidth(buffer, position) + RwfPrimitives.u15rb(buffer, position);
        }
        final int qos = buffer.getByte(position) & 0xFF;
        position++;
        qosTimeliness = qos >>> 5;
        qosRate = (qos >>> 1) & 0x0F;
        qosDynamic = 0 != (qos & 1);
        qosTimeInfo = 0;
        qosRateInfo = 0;
        if (DELAYED == qosTimeliness)
        {
            qosTimeInfo = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
            position += 2;
        }
        if (TIME_CONFLATED == qosRate)
        {
            qosRateInfo = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
        }
    }

    /**
     * @return true if a refresh could be written from the cache now: a complete FieldList image of an open stream
     * whose data is Ok.
     */
    public boolean isServable()
    {
        return isRefreshComplete && isFieldList && StreamStates.OPEN == streamState && DataStates.OK == dataState;
    }

    /**
     * @return the field image.
     */
    public ItemImage image()
    {
        return image;
    }

    /**
     * @return the RDM domain type.
     */
    public int domainType()
    {
        return domainType;
    }

    /**
     * @return the name type of the last refresh key that carried one, or {@link #ABSENT}.
     */
    public int nameType()
    {
        return nameType;
    }

    /**
     * @return the stream state of the last refresh or status.
     */
    public int streamState()
    {
        return streamState;
    }

    /**
     * @return the data state (1 ok, 2 suspect) of the last refresh or status.
     */
    public int dataState()
    {
        return dataState;
    }

    /**
     * @return the state code of the last refresh or status.
     */
    public int stateCode()
    {
        return stateCode;
    }

    /**
     * @return true if the last refresh carried a QoS.
     */
    public boolean hasQos()
    {
        return hasQos;
    }

    /**
     * @return QoS timeliness (1 real-time, 2 delayed unknown, 3 delayed).
     */
    public int qosTimeliness()
    {
        return qosTimeliness;
    }

    /**
     * @return QoS rate (1 tick-by-tick, 2 just-in-time conflated, 3 time conflated).
     */
    public int qosRate()
    {
        return qosRate;
    }

    /**
     * @return QoS dynamic flag.
     */
    public boolean qosDynamic()
    {
        return qosDynamic;
    }

    /**
     * @return QoS time info (delay in seconds) when delayed.
     */
    public int qosTimeInfo()
    {
        return qosTimeInfo;
    }

    /**
     * @return QoS rate info (conflation interval in ms) when time conflated.
     */
    public int qosRateInfo()
    {
        return qosRateInfo;
    }

    /**
     * @return true if the item's payload is a FieldList, so {@link #image()} holds its fields.
     */
    public boolean isFieldList()
    {
        return isFieldList;
    }

    /**
     * @return true once the last part of a refresh arrived (and no CLEAR_CACHE status since).
     */
    public boolean isRefreshComplete()
    {
        return isRefreshComplete;
    }
}
