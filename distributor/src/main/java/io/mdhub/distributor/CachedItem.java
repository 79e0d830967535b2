package io.mdhub.distributor;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.ItemImage;

/**
 * One published item as the distributor keeps it: its handle, domain and name, the state and QoS of its last refresh
 * or status, the provider stream it arrives on, its item group (the group id of its provider's last refresh, or of a
 * status or group merge since), and (for FieldList and Map payloads) its image. Owned by the distributor's event
 * loop; read it only there.
 */
public final class CachedItem
{
    private static final byte[] NO_GROUP = new byte[0];

    private final int handle;
    /** Copied out of the name: every update reads it, and the name is one more cache line away. */
    private final int domainType;
    private final DistributedService service;
    private final ItemKey name;
    private final DirectBuffer nameBuffer;
    private final ByteBuffer nameByteBuffer;
    private final CachedImage cached;
    /** Grown only for a longer id (ids are usually 2 bytes), so a refresh keeping its group allocates nothing. */
    private byte[] groupId = NO_GROUP;
    private int groupIdLength;
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
     * @return a copy of the item's group id (for tools and tests; allocates); empty before the first refresh.
     */
    public byte[] groupId()
    {
        return Arrays.copyOf(groupId, groupIdLength);
    }

    /**
     * The item's group changes (a refresh or status carrying a group id, or a merge of its group).
     *
     * @param source buffer holding the new id.
     * @param offset its first byte.
     * @param length its length (at most 255: RWF ids are buf8).
     */
    void groupId(final DirectBuffer source, final int offset, final int length)
    {
        if (length > groupId.length)
        {
            groupId = new byte[length];
        }
        source.getBytes(offset, groupId, 0, length);
        groupIdLength = length;
    }

    /**
     * @param other  buffer holding a group id.
     * @param offset its first byte.
     * @param length its length.
     * @return true if the item belongs to that group.
     */
    boolean isInGroup(final DirectBuffer other, final int offset, final int length)
    {
        if (length != groupIdLength)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (groupId[i] != other.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the image as it is, for {@link ImageUpdates} to apply an update to.
     */
    CachedImage imageForUpdate()
    {
        return cached;
    }
}
