package io.mdhub.distributor;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.NakCodes;

import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;

/**
 * Consumers' posts that reach the distributor over the backbone, as an ADH takes them: a post to an item of a
 * non-interactive service is applied to the item's cache and published to every watcher as if its provider had sent
 * it; a post to a mounted interactive provider's service is forwarded to that provider ({@link SinkDrivenItems}),
 * whose ACK or NAK comes back later. Every outcome ends in one {@link DistributorListener#onPostAck} for the posting
 * p2p-server; a post that cannot be delivered is refused with a NakCode and a reason, counted and logged at debug.
 * Event loop only.
 */
public final class ItemPosts
{
    private static final Logger LOG = LoggerFactory.getLogger(ItemPosts.class);

    private final RwfMsgFlyweight post = new RwfMsgFlyweight();
    private DistributorCore core;

    void attach(final DistributorCore core)
    {
        this.core = core;
    }

    /**
     * A post from the backbone for a service of this distributor.
     *
     * @param consumerId    the posting p2p-server.
     * @param sourceIndex   its posting item source.
     * @param postRequestId to echo in the outcome.
     * @param service       the service posted to.
     * @param domainType    the item's domain.
     * @param buffer        holds the item name and the consumer's PostMsg.
     * @param nameOffset    where the name starts.
     * @param nameLength    its length.
     * @param rwfOffset     where the PostMsg starts.
     * @param rwfLength     its length.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public void onPost(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final DistributedService service,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        if (!post.wrap(buffer, rwfOffset, rwfLength) || RwfMsgDescriptor.POST != post.msgClass())
        {
            refuse(consumerId, sourceIndex, postRequestId, service.id(), NakCodes.INVALID_CONTENT,
                "not a well-formed PostMsg");
            return;
        }
        if (service.isSinkDriven())
        {
            final int result = core.sinkItems.post(SinkDrivenItems.watcher(consumerId, sourceIndex), postRequestId,
                service, domainType, buffer, nameOffset, nameLength, rwfOffset, rwfLength);
            if (SinkDrivenItems.POST_FORWARDED == result)
            {
                core.counters.postsForwarded().increment();
            }
            else
            {
                refuse(consumerId, sourceIndex, postRequestId, service.id(), result, core.sinkItems.postRefusal());
            }
            return;
        }
        final ItemCache cache = service.cache();
        final int handle = cache.handle(domainType, buffer, nameOffset, nameLength);
        final CachedItem item = ItemCache.NO_HANDLE == handle ? null : cache.item(handle);
        if (null == item)
        {
            refuse(consumerId, sourceIndex, postRequestId, service.id(), NakCodes.SYMBOL_UNKNOWN,
                "item not found: posts update items their provider publishes");
            return;
        }
        if (DataTypes.MSG != post.containerType() ||
            !core.msg.wrap(buffer, post.payloadOffset(), post.payloadLength()))
        {
            refuse(consumerId, sourceIndex, postRequestId, service.id(), NakCodes.INVALID_CONTENT,
                "a post carries an UpdateMsg or a RefreshMsg");
            return;
        }
        final int nakCode = core.items.applyPost(item, buffer);
        if (NakCodes.NONE != nakCode)
        {
            refuse(consumerId, sourceIndex, postRequestId, service.id(), nakCode, core.items.postRefusal());
            return;
        }
        core.counters.postsApplied().increment();
        core.listener.onPostAck(consumerId, sourceIndex, postRequestId, service.id(), NakCodes.NONE, "");
    }

    private void refuse(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final String why)
    {
        core.counters.postsRefused().increment();
        LOG.debug("{}: post {} of p2p-server {} refused (NAK {}): {}", core.component, postRequestId, consumerId,
            nakCode, why);
        core.listener.onPostAck(consumerId, sourceIndex, postRequestId, serviceId, nakCode, why);
    }
}
