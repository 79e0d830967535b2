package io.mdhub.distributor;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.ItemImage;

/**
 * One published item as the distributor keeps it: its handle, domain and name, the state and QoS of its last refresh
 * or status, the provider stream it arrives on, and (for FieldList and Map payloads) its image. Owned by the
 * distributor's event loop; read it only there.
 */
public final class CachedItem
{
    private final int handle;
    /** Copied out of the name: every update reads it, and the name is one more cache line away. */
    private final int domainType;
    private final DistributedService service;
    private final ItemKey name;
    private final DirectBuffer nameBuffer;
    private final ByteBuffer nameByteBuffer;
    private final CachedImage cached;
    ProviderLink owner;
    int providerStreamId;
    /** Set for an item of a sink-driven (mounted, interactive) service: who wants it; null for pushed items. */
    SinkInterest interest;

    CachedItem(final int handle, final DistributedService service, final ItemKey name)
    {
        this.handle = handle;
        this.domainType = name.domainType();
        this.service = service;
        this.name = name;
        this.nameBuffer = new UnsafeBuffer(name.bytes());
        this.nameByteBuffer = ByteBuffer.wrap(name.bytes());
        this.cached = new CachedImage(name.domainType());
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

    ItemKey itemKey()
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
     * @return the domain type (6 MarketPrice, 8 MarketByPrice...): part of the item's identity, fixed.
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
        return cached.streamState();
    }

    /**
     * @return the data state (1 ok, 2 suspect) of the last refresh or status.
     */
    public int dataState()
    {
        return cached.dataState();
    }

    /**
     * @return the state code of the last refresh or status.
     */
    public int stateCode()
    {
        return cached.stateCode();
    }

    /**
     * @return true once the last part of a refresh arrived.
     */
    public boolean isRefreshComplete()
    {
        return cached.isRefreshComplete();
    }

    /**
     * @return true if the item's payload is imaged (a FieldList or a Map), so a refresh can be written from the cache.
     */
    public boolean isImaged()
    {
        return cached().isImaged();
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
        return cached().image();
    }

    /**
     * @return the image with the header of the last refresh or status (what a refresh from the cache is made of), with
     * every update passed on so far applied.
     */
    public CachedImage cached()
    {
        service.imageUpdates().applyAll();
        return cached;
    }

    /**
     * @return the image as it is, for {@link ImageUpdates} to apply an update to.
     */
    CachedImage imageForUpdate()
    {
        return cached;
    }
}
