package io.mdhub.common.cache;

import java.util.ArrayList;
import java.util.List;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Updates whose application to their items' images waits until the burst they came in has been passed on. Applying
 * an update touches its item's image, which for a large watchlist is cold memory: done in line it delays every later
 * update of the burst by a cache miss or more; done after the burst's writes (and wake-ups), it delays nobody. The
 * bytes are copied (the burst's buffers are reused), in arrival order, with the target each is for.
 * <p>
 * The owner must {@link #applyAll apply} them before anything reads or replaces an image (a refresh, a status, a
 * close, an answer from the cache), so that the images read are exactly those an in-line application would give.
 * Single-threaded.
 *
 * @param <T> what an update applies to.
 */
public final class DeferredUpdates<T>
{
    private static final int HEADER_BYTES = 2 * Integer.BYTES;
    private static final int INITIAL_BYTES = 64 * 1024;

    /**
     * Applies one update.
     *
     * @param <T> what it applies to.
     */
    @FunctionalInterface
    public interface Applier<T>
    {
        /**
         * @param target what the update is for.
         * @param key    the int given with it.
         * @param buffer holding the update's bytes, valid during the call.
         * @param offset first byte.
         * @param length bytes.
         */
        void apply(T target, int key, DirectBuffer buffer, int offset, int length);
    }

    /**
     * Reads what applying an update to a target will touch, without changing it.
     *
     * @param <T> what an update applies to.
     */
    @FunctionalInterface
    public interface Toucher<T>
    {
        /**
         * @param target what an update waits for.
         * @return anything computed from the memory read (summed and kept, so that the reads stay).
         */
        int touch(T target);
    }

    private final ExpandableDirectByteBuffer records = new ExpandableDirectByteBuffer(INITIAL_BYTES);
    private final List<T> targets = new ArrayList<>();
    private int limit;
    private int touched;
    private boolean isApplying;

    /**
     * Keep an update for later.
     *
     * @param target what it applies to.
     * @param key    an int passed back with it (an item id, a handle).
     * @param buffer holding its bytes.
     * @param offset first byte.
     * @param length bytes.
     */
    public void add(final T target, final int key, final DirectBuffer buffer, final int offset, final int length)
    {
        records.putInt(limit, key);
        records.putInt(limit + Integer.BYTES, length);
        records.putBytes(limit + HEADER_BYTES, buffer, offset, length);
        limit += BitUtil.align(HEADER_BYTES + length, Integer.BYTES);
        targets.add(target);
    }

    /**
     * @return true when nothing waits.
     */
    public boolean isEmpty()
    {
        return targets.isEmpty();
    }

    /**
     * @return updates waiting.
     */
    public int size()
    {
        return targets.size();
    }

    /**
     * Touch every waiting update's target first, then apply them in arrival order and forget them. A call made while
     * they are being applied (the applier reading an image) returns at once. The targets of a
     * burst are independent of each other, so the touching pass has their cache misses outstanding together (a
     * processor keeps many loads in flight when no load waits for another), where applying one after the other waits
     * for each target's misses in turn.
     *
     * @param toucher reads a target's memory, or null for none.
     * @param applier applies one.
     */
    public void applyAll(final Toucher<T> toucher, final Applier<T> applier)
    {
        if (isApplying || targets.isEmpty())
        {
            return;
        }
        isApplying = true;
        try
        {
            final int size = targets.size();
            if (null != toucher)
            {
                int sum = 0;
                for (int i = 0; i < size; i++)
                {
                    sum += toucher.touch(targets.get(i));
                }
                touched += sum;
            }
            int offset = 0;
            for (int i = 0; i < size; i++)
            {
                final int key = records.getInt(offset);
                final int length = records.getInt(offset + Integer.BYTES);
                applier.apply(targets.get(i), key, records, offset + HEADER_BYTES, length);
                offset += BitUtil.align(HEADER_BYTES + length, Integer.BYTES);
            }
        }
        finally
        {
            targets.clear();
            limit = 0;
            isApplying = false;
        }
    }

    /**
     * @return the sum of what the touching passes read (kept so that the reads are not optimised away).
     */
    public int touched()
    {
        return touched;
    }
}
