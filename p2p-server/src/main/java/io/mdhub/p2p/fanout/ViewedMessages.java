package io.mdhub.p2p.fanout;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.FieldViewFilter;
import io.mdhub.common.rwf.RwfMsgFlyweight;

/**
 * The copies of a source message that watchers with views get. For an update, each distinct view's copy is filtered
 * once and kept in scratch memory until the next update, so ten watchers with the same view cost one filtering;
 * views are told apart by their field ids, and the first {@link #MAX_VIEWS_PER_UPDATE} distinct ones of an update are
 * kept (others are filtered per watcher). A refresh is filtered per watcher: refreshes are rare. Worker thread only.
 */
final class ViewedMessages
{
    /** Distinct views whose filtered copies of one update are kept. */
    static final int MAX_VIEWS_PER_UPDATE = 8;

    private final FieldViewFilter filter = new FieldViewFilter();
    private final RwfMsgFlyweight source = new RwfMsgFlyweight();
    private final RwfMsgFlyweight refresh = new RwfMsgFlyweight();
    private final FieldView[] views = new FieldView[MAX_VIEWS_PER_UPDATE];
    private final int[] offsets = new int[MAX_VIEWS_PER_UPDATE];
    private final int[] lengths = new int[MAX_VIEWS_PER_UPDATE];
    private final int[] kept = new int[MAX_VIEWS_PER_UPDATE];
    private UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private UnsafeBuffer refreshScratch = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private boolean isFilterable;
    private int viewCount;
    private int used;
    private int currentOffset;
    private int currentLength;
    private int currentKept;

    /**
     * @param message the source's refresh, wrapped.
     * @param view    the watcher's view.
     * @return a flyweight over the refresh with only the view's fields, or the message itself if its payload is not
     * a field list.
     */
    RwfMsgFlyweight refresh(final RwfMsgFlyweight message, final FieldView view)
    {
        if (!filter.isFilterable(message))
        {
            return message;
        }
        if (refreshScratch.capacity() < message.length())
        {
            refreshScratch = new UnsafeBuffer(ByteBuffer.allocateDirect(message.length()));
        }
        final int length = filter.filter(message, view, refreshScratch, 0);
        return length > 0 && refresh.wrap(refreshScratch, 0, length) ? refresh : message;
    }

    /**
     * Start on a new update: the copies of the last one are dropped.
     */
    void beginUpdate(final DirectBuffer buffer, final int offset, final int length)
    {
        viewCount = 0;
        used = 0;
        isFilterable = source.wrap(buffer, offset, length) && filter.isFilterable(source);
        if (isFilterable && scratch.capacity() < length * (MAX_VIEWS_PER_UPDATE + 1))
        {
            scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(length * (MAX_VIEWS_PER_UPDATE + 1)));
        }
    }

    /**
     * @param view a watcher's view.
     * @return false if the update is to be sent whole (not a field list); true with {@link #buffer()},
     * {@link #offset()}, {@link #length()} and {@link #keptFields()} describing the view's copy.
     */
    boolean filterUpdate(final FieldView view)
    {
        if (!isFilterable)
        {
            return false;
        }
        for (int i = 0; i < viewCount; i++)
        {
            if (views[i] == view || views[i].equals(view))
            {
                select(offsets[i], lengths[i], kept[i]);
                return true;
            }
        }
        final int offset = viewCount < MAX_VIEWS_PER_UPDATE ? used : MAX_VIEWS_PER_UPDATE * source.length();
        final int length = filter.filter(source, view, scratch, offset);
        if (length < 0)
        {
            return false;
        }
        if (viewCount < MAX_VIEWS_PER_UPDATE)
        {
            views[viewCount] = view;
            offsets[viewCount] = offset;
            lengths[viewCount] = length;
            kept[viewCount] = filter.keptFields();
            viewCount++;
            used += length;
        }
        select(offset, length, filter.keptFields());
        return true;
    }

    private void select(final int offset, final int length, final int keptFields)
    {
        currentOffset = offset;
        currentLength = length;
        currentKept = keptFields;
    }

    DirectBuffer buffer()
    {
        return scratch;
    }

    int offset()
    {
        return currentOffset;
    }

    int length()
    {
        return currentLength;
    }

    int keptFields()
    {
        return currentKept;
    }
}
