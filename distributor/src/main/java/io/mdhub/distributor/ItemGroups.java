package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.State;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

/**
 * Item groups, as an ADH keeps them for its providers: every item carries the group id of its provider's last refresh
 * (or status with a group id), and the provider's source directory (GROUP filter) speaks for whole groups at once.
 * A group's Status is applied to every item of that provider and service in the group and published per item through
 * the listener, exactly like a provider's own item status (so every p2p-server watching the item gets it, in order
 * with the item's other messages); a MergedToGroup moves the group's items to the other group, so later statuses of
 * that group reach them. Groups are per provider connection: the same id from another provider of the service is
 * another group.
 * <p>
 * One pass over the provider's items per directory entry, applying the entry's groups in their order to each item,
 * so a merge followed by a status of the merged-to group in one message reaches the merged items. Statuses are
 * published synchronously, so they stay in order with the provider's later messages; the backbone's bounded pending
 * store and read pause take a burst from a large group. A closing group status (Closed, ClosedRecover, Redirected)
 * drops its items as the provider's closing item status does, each right after its status. Directory messages are
 * rare admin traffic: a group's text becomes a String once per message; nothing is allocated per item. Owned by the
 * distributor's event loop.
 */
final class ItemGroups
{
    private final DistributorCore core;
    private final List<UnsafeBuffer> groupIds = new ArrayList<>();
    private final List<UnsafeBuffer> mergedToIds = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();
    private final IntArrayList closed = new IntArrayList();
    private final IntArrayList closedBy = new IntArrayList();
    private final Consumer<CachedItem> applyToItem = this::applyToItem;
    private List<Service.ServiceGroup> groups;
    private DistributedService service;

    ItemGroups(final DistributorCore core)
    {
        this.core = core;
    }

    /**
     * Apply the GROUP filter entries of one service of a provider's directory message.
     *
     * @param session the provider connection whose items the groups name.
     * @param service the service the directory entry is for.
     * @param groups  the entry's groups (ETA {@code Service.groupStateList()}), valid during the call.
     */
    void apply(final ProviderLink session, final DistributedService service, final List<Service.ServiceGroup> groups)
    {
        final int count = groups.size();
        if (0 == count)
        {
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final Service.ServiceGroup group = groups.get(i);
            view(groupIds, i, group.group());
            view(mergedToIds, i, group.checkHasMergedToGroup() ? group.mergedToGroup() : null);
            text(i, group.checkHasStatus() ? group.status() : null);
        }
        this.groups = groups;
        this.service = service;
        closed.clear();
        closedBy.clear();
        try
        {
            session.forEachItem(applyToItem);
            closeAll(session, service);
        }
        finally
        {
            this.groups = null;
            this.service = null;
        }
    }

    private void applyToItem(final CachedItem item)
    {
        if (service != item.service())
        {
            return;
        }
        for (int i = 0, count = groups.size(); i < count; i++)
        {
            final UnsafeBuffer groupId = groupIds.get(i);
            if (!item.isInGroup(groupId, 0, groupId.capacity()))
            {
                continue;
            }
            final Service.ServiceGroup group = groups.get(i);
            if (group.checkHasStatus())
            {
                if (ItemFeed.isClosed(group.status().streamState()))
                {
                    // published and dropped once the pass is over (the stream table cannot change during it), each
                    // drop right after its status; no later group applies to the item
                    closed.addInt(item.handle());
                    closedBy.addInt(i);
                    return;
                }
                status(item, group.status(), texts.get(i));
            }
            if (group.checkHasMergedToGroup())
            {
                final UnsafeBuffer mergedTo = mergedToIds.get(i);
                item.groupId(mergedTo, 0, mergedTo.capacity());
            }
        }
    }

    private void closeAll(final ProviderLink session, final DistributedService service)
    {
        for (int i = 0; i < closed.size(); i++)
        {
            final CachedItem item = service.cache().item(closed.getInt(i));
            if (null != item && session == item.owner)
            {
                final int index = closedBy.getInt(i);
                status(item, groups.get(index).status(), texts.get(index));
                core.items.drop(session, item);
            }
        }
        closed.clear();
        closedBy.clear();
    }

    private void status(final CachedItem item, final State state, final String text)
    {
        final int streamState = state.streamState();
        final int dataState = DataStates.NO_CHANGE == state.dataState() ? item.dataState() : state.dataState();
        final int code = state.code();
        item.cached().state(streamState, dataState, code);
        final int capacity = 256 + text.length();
        core.scratch.checkLimit(capacity);
        final int result = core.statusEncoder.encode(core.writer.begin(core.scratch, 0, capacity), item.domainType(),
            item.providerStreamId, streamState, dataState, code, text);
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("group status encoding failed: " + CodecReturnCodes.toString(result));
        }
        final int length = core.writer.encodedLength();
        if (ItemFeed.isClosed(streamState) && null != item.interest && !item.interest.waitingRequests.isEmpty())
        {
            core.sinkItems.onClosed(item, streamState, dataState, core.scratch, 0, length);
        }
        core.listener.onItemStatus(item.service().id(), item.handle(), streamState, dataState, code, core.scratch, 0,
            length);
    }

    private static void view(final List<UnsafeBuffer> views, final int index, final Buffer id)
    {
        while (views.size() <= index)
        {
            views.add(new UnsafeBuffer(0, 0));
        }
        final UnsafeBuffer view = views.get(index);
        if (null == id || 0 == id.length())
        {
            view.wrap(0, 0);
        }
        else
        {
            view.wrap(id.data(), id.position(), id.length());
        }
    }

    private void text(final int index, final State state)
    {
        while (texts.size() <= index)
        {
            texts.add("");
        }
        texts.set(index, null == state || 0 == state.text().length() ? "" : state.text().toString());
    }
}
