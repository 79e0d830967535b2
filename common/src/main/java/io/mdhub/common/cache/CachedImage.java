package io.mdhub.common.cache;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMapFlyweight;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfMsgKeyDescriptor;
import io.mdhub.common.rwf.RwfPrimitives;

/**
 * What a cache must know to answer a request for an item without asking upstream: the payload image (off-heap: an
 * {@link ItemImage} for a FieldList payload, a {@link MapImage} for a Map payload) and the header of the item's last
 * refresh or status — domain, name type, stream and data state, state code and QoS. Fed with the messages of the
 * item as they pass ({@link #applyRefresh}, {@link #applyUpdate}, {@link #applyStatus}); {@link ImageRefreshEncoder}
 * writes it back out as one complete refresh.
 * <p>
 * FieldList payloads (MarketPrice and the like) and Map payloads (MarketByOrder, MarketByPrice, MarketMaker, symbol
 * lists...) are imaged. An item whose refresh carries another container, or a Map the image cannot follow (set
 * definitions...), is remembered as such ({@link #isImaged()} false, {@link #noImageText()} says why) and cannot be
 * served from the cache until a refresh with CLEAR_CACHE brings something it can image. Single-threaded, like the
 * images.
 */
public final class CachedImage
{
    /** A header member the item's messages have not carried (name type). */
    public static final int ABSENT = -1;

    /** Refusal text: no refresh has loaded the image yet (or a status cleared it). */
    public static final String NOT_LOADED_TEXT = "no cached image for the item yet";
    /** Refusal text: the item's payload is a container the cache does not image. */
    public static final String OTHER_CONTAINER_TEXT =
        "no cached image for the item: its payload is neither a FieldList nor a Map";
    /** Refusal text: an update or refresh part changed the payload's container type without CLEAR_CACHE. */
    public static final String CONTAINER_CHANGED_TEXT =
        "no cached image for the item: its payload changed container type without CLEAR_CACHE";
    /** Refusal text: see {@link MapImage#SET_DEFS_REASON}. */
    public static final String MAP_SET_DEFS_TEXT = "no cached image for the item: " + MapImage.SET_DEFS_REASON;
    /** Refusal text: see {@link MapImage#SET_DATA_REASON}. */
    public static final String MAP_SET_DATA_TEXT = "no cached image for the item: " + MapImage.SET_DATA_REASON;
    /** Refusal text: see {@link MapImage#LAYOUT_CHANGED_REASON}. */
    public static final String MAP_LAYOUT_CHANGED_TEXT =
        "no cached image for the item: " + MapImage.LAYOUT_CHANGED_REASON;

    private static final int NOT_LOADED = -1;
    private static final int DELAYED = 3;
    private static final int TIME_CONFLATED = 3;

    /**
     * Made for the first FieldList: a cache that only follows the header (see {@link #applyRefreshState}) never
     * needs one, and it is the largest part of an item (~1 KB of heap and an off-heap buffer).
     */
    private ItemImage image;
    private MapImage mapImage; // made for the first Map: most items are FieldLists
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
    private int payloadType = NOT_LOADED;
    private boolean isImaged;
    private String noImageText = NOT_LOADED_TEXT;
    private boolean isRefreshComplete;
    /** The item's lock as its provider last sent it (a refresh's or status's PermData), so a cached refresh has it. */
    private byte[] permData = new byte[0];
    private int permDataLength;

    /**
     * @param domainType the item's RDM domain until a refresh says otherwise.
     */
    public CachedImage(final int domainType)
    {
        this.domainType = domainType;
    }

    /**
     * Take in a refresh (or a part of one): a part with CLEAR_CACHE, or the first refresh since the image was empty,
     * replaces the image; a later part adds its fields or entries as an update does. The header follows the refresh.
     * A refresh whose FieldList or Map is malformed changes nothing.
     *
     * @param refresh a wrapped RefreshMsg.
     * @param scratch the thread's scratch used to read the payload.
     * @return false if the payload is a FieldList or a Map that does not decode ({@code scratch} says why; the
     * caller decides what that costs the sender); true otherwise.
     */
    public boolean applyRefresh(final RwfMsgFlyweight refresh, final ImageScratch scratch)
    {
        final boolean clear = 0 != (refresh.flags() & RwfMsgFlags.Refresh.CLEAR_CACHE) || NOT_LOADED == payloadType;
        if (!applyPayload(refresh, scratch, clear))
        {
            return false;
        }
        applyRefreshState(refresh);
        return true;
    }

    /**
     * Take in a refresh's header only (name type, domain, states, QoS, completeness) and leave the payload alone: for
     * an item whose image is not kept, so the item can still say what state it is in. The image, if any, is as it
     * was; nothing is decoded, so a malformed payload goes unnoticed here as it would in an update.
     *
     * @param refresh a wrapped RefreshMsg.
     */
    public void applyRefreshState(final RwfMsgFlyweight refresh)
    {
        if (refresh.hasMsgKey() && 0 != (refresh.key().flags() & RwfMsgKeyDescriptor.HAS_NAME_TYPE))
        {
            nameType = refresh.key().nameType();
        }
        domainType = refresh.domainType();
        streamState = refresh.streamState();
        dataState = refresh.dataState();
        stateCode = refresh.stateCode();
        readQos(refresh);
        readPermData(refresh);
        isRefreshComplete = 0 != (refresh.flags() & RwfMsgFlags.Refresh.REFRESH_COMPLETE);
    }

    /**
     * A message's PermData replaces the lock kept; one without keeps it (only a refresh's first part need carry it).
     */
    private void readPermData(final RwfMsgFlyweight msg)
    {
        final int length = msg.permDataLength();
        if (msg.permDataOffset() < 0)
        {
            return;
        }
        if (permData.length < length)
        {
            permData = new byte[length];
        }
        msg.buffer().getBytes(msg.permDataOffset(), permData, 0, length);
        permDataLength = length;
    }

    /**
     * Apply an update's fields or Map entries to the image (nothing for an item that is not imaged; an update without
     * data changes nothing).
     *
     * @param update  a wrapped UpdateMsg.
     * @param scratch the thread's scratch used to read the payload.
     * @return false if the payload is a FieldList or a Map that does not decode ({@code scratch} says why).
     */
    public boolean applyUpdate(final RwfMsgFlyweight update, final ImageScratch scratch)
    {
        return applyPayload(update, scratch, false);
    }

    /**
     * Read the memory applying a FieldList update touches, changing nothing (see {@link ItemImage#touch()}).
     *
     * @return a sum of what was read.
     */
    public int touch()
    {
        return null != image ? image.touch() : 0;
    }

    /**
     * Check an update's FieldList as {@link #applyUpdate} reads it, without touching any image: for an update that is
     * passed on at once and applied later ({@link DeferredUpdates}).
     *
     * @param update  a wrapped message whose container is a FieldList.
     * @param scratch the thread's scratch used to read the payload; its FieldList flyweight is left wrapped on it.
     * @return false if the FieldList does not decode ({@code scratch} says why).
     */
    public static boolean isWellFormedFieldList(final RwfMsgFlyweight update, final ImageScratch scratch)
    {
        final RwfFieldListFlyweight fieldList = scratch.fieldList;
        if (!fieldList.wrap(update.buffer(), update.payloadOffset(), update.payloadLength()))
        {
            scratch.fail(DataTypes.FIELD_LIST, fieldList.error().description());
            return false;
        }
        return true;
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
        readPermData(status);
        if (0 != (status.flags() & RwfMsgFlags.Status.CLEAR_CACHE))
        {
            clearPayload();
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
        clearPayload();
        nameType = ABSENT;
        streamState = 0;
        dataState = 0;
        stateCode = 0;
        hasQos = false;
        isRefreshComplete = false;
        permDataLength = 0;
    }

    /**
     * @return the length of the item's lock (its provider's PermData), 0 if it has none.
     */
    public int permDataLength()
    {
        return permDataLength;
    }

    /**
     * @return the item's lock bytes (the first {@link #permDataLength()} of them).
     */
    public byte[] permData()
    {
        return permData;
    }

    private void clearPayload()
    {
        clearFieldImage();
        if (null != mapImage)
        {
            mapImage.clear();
        }
        payloadType = NOT_LOADED;
        isImaged = false;
        noImageText = NOT_LOADED_TEXT;
    }

    private void clearFieldImage()
    {
        if (null != image)
        {
            image.clear();
        }
    }

    private boolean applyPayload(final RwfMsgFlyweight msg, final ImageScratch scratch, final boolean clear)
    {
        final int containerType = msg.containerType();
        switch (containerType)
        {
            case DataTypes.FIELD_LIST:
                return applyFieldList(msg, scratch, clear);
            case DataTypes.MAP:
                return applyMap(msg, scratch, clear);
            default:
                if (clear)
                {
                    clearPayload();
                    payloadType = containerType;
                    noImageText = OTHER_CONTAINER_TEXT;
                }
                else if (DataTypes.NO_DATA != containerType && containerType != payloadType)
                {
                    notImaged(CONTAINER_CHANGED_TEXT);
                }
                return true;
        }
    }

    private boolean applyFieldList(final RwfMsgFlyweight msg, final ImageScratch scratch, final boolean clear)
    {
        if (!isWellFormedFieldList(msg, scratch))
        {
            return false;
        }
        final RwfFieldListFlyweight fieldList = scratch.fieldList;
        if (clear)
        {
            clearPayload();
            payloadType = DataTypes.FIELD_LIST;
            isImaged = true;
            noImageText = null;
            image().applyRefresh(fieldList);
        }
        else if (DataTypes.FIELD_LIST != payloadType)
        {
            notImaged(CONTAINER_CHANGED_TEXT);
        }
        else if (isImaged)
        {
            image.applyUpdate(fieldList);
        }
        return true;
    }

    private boolean applyMap(final RwfMsgFlyweight msg, final ImageScratch scratch, final boolean clear)
    {
        final RwfMapFlyweight map = scratch.map;
        if (!map.wrap(msg.buffer(), msg.payloadOffset(), msg.payloadLength()))
        {
            scratch.fail(DataTypes.MAP, map.error().description());
            return false;
        }
        if (!clear && (DataTypes.MAP != payloadType || !isImaged))
        {
            if (DataTypes.MAP != payloadType)
            {
                notImaged(CONTAINER_CHANGED_TEXT);
            }
            return true;
        }
        if (null == mapImage)
        {
            mapImage = new MapImage();
        }
        final int result = mapImage.apply(map, scratch, clear);
        if (MapImage.MALFORMED == result)
        {
            return false;
        }
        if (clear)
        {
            clearFieldImage();
            payloadType = DataTypes.MAP;
            isImaged = true;
            noImageText = null;
        }
        if (MapImage.NOT_IMAGEABLE == result)
        {
            notImaged(mapText(mapImage.notImagedReason()));
        }
        return true;
    }

    private static String mapText(final String reason)
    {
        if (MapImage.SET_DEFS_REASON.equals(reason))
        {
            return MAP_SET_DEFS_TEXT;
        }
        return MapImage.SET_DATA_REASON.equals(reason) ? MAP_SET_DATA_TEXT : MAP_LAYOUT_CHANGED_TEXT;
    }

    private void notImaged(final String text)
    {
        isImaged = false;
        noImageText = text;
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
     * @return true if a refresh could be written from the cache now: a complete FieldList or Map image of an open
     * stream whose data is Ok.
     */
    public boolean isServable()
    {
        return isRefreshComplete && isImaged && StreamStates.OPEN == streamState && DataStates.OK == dataState;
    }

    /**
     * @return the field image (of a FieldList item; empty, and made now, if the item never had one).
     */
    public ItemImage image()
    {
        if (null == image)
        {
            image = new ItemImage();
        }
        return image;
    }

    /**
     * @return the entry image of a Map item, or null if the item never had a Map payload.
     */
    public MapImage mapImage()
    {
        return mapImage;
    }

    /**
     * @return the DataTypes value of the payload of the item's last refresh (132 FIELD_LIST, 137 MAP...), or -1
     * before the first refresh.
     */
    public int payloadType()
    {
        return payloadType;
    }

    /**
     * @return true if the payload is imaged ({@link #isFieldList()} or {@link #isMap()}), so a refresh can be
     * written from the cache.
     */
    public boolean isImaged()
    {
        return isImaged;
    }

    /**
     * @return null while imaged; otherwise a constant text saying why there is no image, for the status that refuses
     * a request.
     */
    public String noImageText()
    {
        return noImageText;
    }

    /**
     * @return an upper bound of the bytes the imaged payload takes written out (0 if not imaged).
     */
    public int encodedPayloadLength()
    {
        if (!isImaged)
        {
            return 0;
        }
        return DataTypes.MAP == payloadType ? mapImage.encodedLengthBound() : image.encodedLength();
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
     * @return true if the item's payload is an imaged FieldList, so {@link #image()} holds its fields.
     */
    public boolean isFieldList()
    {
        return isImaged && DataTypes.FIELD_LIST == payloadType;
    }

    /**
     * @return true if the item's payload is an imaged Map, so {@link #mapImage()} holds its entries.
     */
    public boolean isMap()
    {
        return isImaged && DataTypes.MAP == payloadType;
    }

    /**
     * @return true once the last part of a refresh arrived (and no CLEAR_CACHE status since).
     */
    public boolean isRefreshComplete()
    {
        return isRefreshComplete;
    }
}
