package io.mdhub.distributor;

import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;

import io.mdhub.common.cache.ImageRefreshEncoder;

/**
 * The items of one service. Non-interactive services are broadcast, so the cache holds every item a provider
 * published, by (domain, name) and by handle, up to the service's item limit: the same name in two domains (a
 * MarketPrice and a MarketByPrice item, say) is two items. Lookups compare the domain and the name's bytes in place
 * (no allocation); adding an item allocates its record and image once. Owned by the distributor's event loop.
 */
public final class ItemCache
{
    /** Returned by {@link #handle(int, DirectBuffer, int, int)} for an unknown item. */
    public static final int NO_HANDLE = -1;

    private final Object2IntHashMap<ItemKey> handleByKey = new Object2IntHashMap<>(NO_HANDLE);
    private final Int2ObjectHashMap<CachedItem> itemByHandle = new Int2ObjectHashMap<>();
    private final ItemKey probe = new ItemKey();
    private final ImageRefreshEncoder refreshEncoder;
    private final int maxItems;

    ItemCache(final int maxItems, final ImageRefreshEncoder refreshEncoder)
    {
        this.maxItems = maxItems;
        this.refreshEncoder = refreshEncoder;
    }

    /**
     * @param domainType the item's RDM domain.
     * @param name       buffer holding the item name.
     * @param nameOffset first byte.
     * @param nameLength length.
     * @return the handle of the item of that domain and name, or {@link #NO_HANDLE}.
     */
    public int handle(final int domainType, final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        return handleByKey.getValue(probe.probe(domainType, name, nameOffset, nameLength));
    }

    /**
     * @param handle an item handle.
     * @return the item, or null if this cache does not hold it.
     */
    public CachedItem item(final int handle)
    {
        return itemByHandle.get(handle);
    }

    /**
     * @return number of cached items.
     */
    public int size()
    {
        return itemByHandle.size();
    }

    /**
     * @return true when no further item fits.
     */
    public boolean isFull()
    {
        return itemByHandle.size() >= maxItems;
    }

    /**
     * Visit every item (not on a hot path: tools, provider loss).
     *
     * @param action called per item; must not add or remove items.
     */
    public void forEach(final Consumer<CachedItem> action)
    {
        itemByHandle.values().forEach(action);
    }

    CachedItem add(
        final int handle,
        final DistributedService service,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final int domainType)
    {
        final ItemKey key = ItemKey.copyOf(domainType, name, nameOffset, nameLength);
        final CachedItem item = new CachedItem(handle, service, key);
        handleByKey.put(key, handle);
        itemByHandle.put(handle, item);
        return item;
    }

    /**
     * Add an item found by handle only: a private stream, which another request of the same name must not find.
     */
    CachedItem addUnnamed(
        final int handle,
        final DistributedService service,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final int domainType)
    {
        final CachedItem item = new CachedItem(handle, service,
            ItemKey.copyOf(domainType, name, nameOffset, nameLength));
        itemByHandle.put(handle, item);
        return item;
    }

    void remove(final CachedItem item)
    {
        if (handleByKey.getValue(item.itemKey()) == item.handle())
        {
            handleByKey.removeKey(item.itemKey()); // not an unnamed item's: another item may have its name
        }
        itemByHandle.remove(item.handle());
    }

    /**
     * Encode a complete refresh of an item from its image (state, QoS, key, FieldList or Map) for a consumer.
     *
     * @param handle    the item.
     * @param streamId  the consumer's streamId.
     * @param serviceId the serviceId to put in the key (the consumer-facing id).
     * @param solicited true when answering a request.
     * @param target    where to write (backed by a ByteBuffer or a byte array).
     * @param offset    first byte.
     * @param capacity  bytes available.
     * @return bytes written, or a negative ETA {@code CodecReturnCodes} value (unknown handle and items without
     * a FieldList or Map image give FAILURE).
     */
    public int encodeRefresh(
        final int handle,
        final int streamId,
        final int serviceId,
        final boolean solicited,
        final MutableDirectBuffer target,
        final int offset,
        final int capacity)
    {
        final CachedItem item = itemByHandle.get(handle);
        if (null == item)
        {
            return com.refinitiv.eta.codec.CodecReturnCodes.FAILURE;
        }
        return refreshEncoder.encode(item.cached(), streamId, serviceId, item.nameByteBuffer(),
            item.itemKey().length(), solicited, target, offset, capacity);
    }
}
