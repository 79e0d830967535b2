package io.mdhub.distributor;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.cache.ItemImage;

/**
 * One published item as the distributor keeps it: its handle and name, the state and QoS of its last refresh or
 * status, the provider stream it arrives on, and (for FieldList payloads) its field image. Owned by the distributor's
 * event loop; read it only there.
 */
public final class CachedItem
{
    /** Stream and data states, as on the wire. */
    static final int ABSENT = -1;

    private final int handle;
    private final DistributedService service;
    private final ItemName name;
    private final DirectBuffer nameBuffer;
    private final ByteBuffer nameByteBuffer;
    private final ItemImage image = new ItemImage();
    int domainType;
    int nameType = ABSENT;
    int streamState;
    int dataState;
    int stateCode;
    boolean hasQos;
    int qosTimeliness;
    int qosRate;
    boolean qosDynamic;
    int qosTimeInfo;
    int qosRateInfo;
    boolean isFieldList;
    boolean isRefreshComplete;
    ProviderSession owner;
    int providerStreamId;

    CachedItem(final int handle, final DistributedService service, final ItemName name, final int domainType)
    {
        this.handle = handle;
        this.service = service;
        this.name = name;
        this.nameBuffer = new UnsafeBuffer(name.bytes());
        this.nameByteBuffer = ByteBuffer.wrap(name.bytes());
        this.domainType = domainType;
    }

    /**
     * @return the distributor-wide item handle.
     */
    public int handle()
    {
        return handle;
    }

    /**
     * @return the service the item belongs to.
     */
    public DistributedService service()
    {
        return service;
    }

    /**
     * @return the item name (for tools and logs; allocates).
     */
    public String name()
    {
        return name.toString();
    }

    ItemName itemName()
    {
        return name;
    }

    /**
     * @return a buffer holding exactly the name bytes.
     */
    public DirectBuffer nameBuffer()
    {
        return nameBuffer;
    }

    ByteBuffer nameByteBuffer()
    {
        return nameByteBuffer;
    }

    /**
     * @return the domain type (6 MarketPrice...).
     */
    public int domainType()
    {
        return domainType;
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
     * @return true once the last part of a refresh arrived.
     */
    public boolean isRefreshComplete()
    {
        return isRefreshComplete;
    }

    /**
     * @return true if the item's payload is a FieldList, so {@link #image()} holds its fields.
     */
    public boolean isFieldList()
    {
        return isFieldList;
    }

    /**
     * @return true while a provider connection publishes the item; false when it is stale (its provider left).
     */
    public boolean hasOwner()
    {
        return null != owner;
    }

    /**
     * @return the field image.
     */
    public ItemImage image()
    {
        return image;
    }
}
