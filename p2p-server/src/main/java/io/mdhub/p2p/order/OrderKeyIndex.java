package io.mdhub.p2p.order;

import static org.agrona.UnsafeAccess.UNSAFE;

/**
 * Off-heap index from an order's identity (client id, order id) to where it was stored (partition, epoch and
 * sequence): what makes a resend idempotent. An insert-only B+-tree of 4 KiB nodes cut from the store's
 * {@link StoreMemory}; nothing is removed (orders are kept for the life of the queue) until {@link #clear()}.
 * Single-threaded (the order agent).
 * <p>
 * <b>Why a tree.</b> A client's order ids mostly rise, so in key order its new orders land at the end of one leaf:
 * an order touches the few pages of the upper levels (hot for everyone) and that leaf, not a random page of a table
 * sized for every order the server may ever hold. Cold memory touched at random is what a host under memory
 * management (page ageing, reclaim scans) makes slow, and such a table holds all of it from the start. The tree's
 * memory follows the orders actually held, nothing is ever rehashed or moved beyond half a node per level, and
 * arrival order (replication lag, a partition-by-partition state transfer) costs leaf fill, never correctness.
 * <p>
 * <b>Splits.</b> A full node that takes a key at its end keeps its entries and starts a new right sibling with the
 * key, so rising ids fill leaves completely; one that takes a key just past a client's last entry splits there when
 * a quarter or more stays on each side (that client's later orders append to the left part); otherwise it splits in
 * half. Every node but the last of a run of appends is at least a quarter full.
 * <p>
 * Layout: a 16-byte header {@code [count int]} (the rest unused: entries stay 8-byte aligned), then entries; which
 * level a node is on is known from the descent. A leaf entry is
 * {@code [clientId 8][orderId 8][partition 4][epoch 4][sequence 8]}, 127 a leaf. An inner entry is
 * {@code [clientId 8][orderId 8][child address 8]}, 170 a node; its key is the least key of the child's subtree
 * (entry 0's is not compared).
 */
final class OrderKeyIndex
{
    /** Returned by {@link #sequence(long, long)} for an unknown order. */
    static final long MISSING = 0;
    /** Orders an index takes before it refuses more: the store then answers "order store full". */
    static final int MAX_ORDERS = 30_000_000;

    private static final int NODE_SIZE = 4096;
    private static final int HEADER = 16;
    private static final int COUNT_OFFSET = 0;
    private static final int CLIENT_OFFSET = 0;
    private static final int ORDER_OFFSET = 8;
    private static final int LEAF_ENTRY = 32;
    private static final int PARTITION_OFFSET = 16;
    private static final int EPOCH_OFFSET = 20;
    private static final int SEQUENCE_OFFSET = 24;
    private static final int INNER_ENTRY = 24;
    private static final int CHILD_OFFSET = 16;
    static final int LEAF_CAPACITY = (NODE_SIZE - HEADER) / LEAF_ENTRY;
    static final int INNER_CAPACITY = (NODE_SIZE - HEADER) / INNER_ENTRY;
    /** Levels above the leaves: 30 M orders in quarter-full nodes need 4. */
    private static final int MAX_INNER_LEVELS = 8;

    private final StoreMemory memory;
    private final int maxOrders;
    private long root;
    private int innerLevels;
    private int size;
    private int leaves;

    /** The last descent: the inner node and the child slot taken at each level (1 = just above the leaves). */
    private final long[] pathNodes = new long[MAX_INNER_LEVELS + 1];
    private final int[] pathSlots = new int[MAX_INNER_LEVELS + 1];
    private long leaf;
    private int leafPosition;
    /** The key of the last descent, valid until the tree changes: a put after a missed lookup does not descend. */
    private boolean isDescentValid;
    private long descentClientId;
    private long descentOrderId;

    private int lastPartition;
    private int lastEpoch;

    /**
     * @param memory    where nodes come from.
     * @param maxOrders orders taken before {@link #isFull()}.
     */
    OrderKeyIndex(final StoreMemory memory, final int maxOrders)
    {
        this.memory = memory;
        this.maxOrders = maxOrders;
        root = newLeaf();
    }

    /**
     * Remember where an order was stored; an order already known keeps its first entry.
     *
     * @return true if added, false if the order was already there.
     * @throws IllegalStateException when {@link #isFull()}.
     */
    boolean put(final long clientId, final long orderId, final int partition, final int epoch, final long sequence)
    {
        if (sequence <= 0)
        {
            throw new IllegalArgumentException("sequence must be positive: " + sequence);
        }
        if (!isDescentValid || descentClientId != clientId || descentOrderId != orderId)
        {
            descend(clientId, orderId);
        }
        if (leafPosition < count(leaf) && isKeyAt(leafEntry(leaf, leafPosition), clientId, orderId))
        {
            return false;
        }
        if (isFull())
        {
            throw new IllegalStateException("order identity index full: " + size + " orders");
        }
        isDescentValid = false;
        insertIntoLeaf(clientId, orderId, partition, epoch, sequence);
        size++;
        return true;
    }

    /**
     * Find an order; on success {@link #lastPartition()} and {@link #lastEpoch()} describe it.
     *
     * @return its sequence, or {@link #MISSING}.
     */
    long sequence(final long clientId, final long orderId)
    {
        descend(clientId, orderId);
        if (leafPosition < count(leaf))
        {
            final long entry = leafEntry(leaf, leafPosition);
            if (isKeyAt(entry, clientId, orderId))
            {
                lastPartition = UNSAFE.getInt(entry + PARTITION_OFFSET);
                lastEpoch = UNSAFE.getInt(entry + EPOCH_OFFSET);
                return UNSAFE.getLong(entry + SEQUENCE_OFFSET);
            }
        }
        return MISSING;
    }

    int lastPartition()
    {
        return lastPartition;
    }

    int lastEpoch()
    {
        return lastEpoch;
    }

    /**
     * @return true when it takes no more orders: the caller refuses new orders.
     */
    boolean isFull()
    {
        return size >= maxOrders;
    }

    int size()
    {
        return size;
    }

    /**
     * @return levels of inner nodes above the leaves (0 while one leaf holds everything).
     */
    int innerLevels()
    {
        return innerLevels;
    }

    /**
     * @return leaf nodes: with {@link #size()}, how full they are.
     */
    int leaves()
    {
        return leaves;
    }

    /**
     * Forget everything (a server that takes a full state transfer starts again), once the memory has been cleared:
     * the index starts again with one empty leaf.
     */
    void clear()
    {
        leaves = 0;
        root = newLeaf();
        innerLevels = 0;
        size = 0;
        isDescentValid = false;
    }

    private void descend(final long clientId, final long orderId)
    {
        long node = root;
        for (int level = innerLevels; level > 0; level--)
        {
            final int slot = childSlot(node, clientId, orderId);
            pathNodes[level] = node;
            pathSlots[level] = slot;
            node = UNSAFE.getLong(innerEntry(node, slot) + CHILD_OFFSET);
        }
        leaf = node;
        leafPosition = lowerBound(node, clientId, orderId);
        descentClientId = clientId;
        descentOrderId = orderId;
        isDescentValid = true;
    }

    /** The first leaf entry whose key is not below the given one. */
    private static int lowerBound(final long leaf, final long clientId, final long orderId)
    {
        int low = 0;
        int high = count(leaf);
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (compare(leafEntry(leaf, middle), clientId, orderId) < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }

    /** The last child whose least key is not above the given one (child 0 when none is). */
    private static int childSlot(final long node, final long clientId, final long orderId)
    {
        int low = 1;
        int high = count(node);
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (compare(innerEntry(node, middle), clientId, orderId) <= 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low - 1;
    }

    private void insertIntoLeaf(
        final long clientId, final long orderId, final int partition, final int epoch, final long sequence)
    {
        final int count = count(leaf);
        if (count < LEAF_CAPACITY)
        {
            writeLeafEntry(leaf, leafPosition, count, clientId, orderId, partition, epoch, sequence);
            return;
        }
        final int split = splitPoint(leaf, count, leafPosition, clientId, LEAF_ENTRY);
        final long right = newLeaf();
        moveTail(leaf, right, split, count, LEAF_ENTRY);
        if (isLeftOfSplit(leafPosition, split, count))
        {
            writeLeafEntry(leaf, leafPosition, split, clientId, orderId, partition, epoch, sequence);
        }
        else
        {
            writeLeafEntry(right, leafPosition - split, count - split, clientId, orderId, partition, epoch, sequence);
        }
        insertIntoParent(1, leaf, right);
    }

    /**
     * Make room for a node's new right sibling in the node above it, splitting upwards as far as needed.
     */
    private void insertIntoParent(final int level, final long left, final long right)
    {
        final long firstOfRight = firstEntry(right);
        final long clientId = UNSAFE.getLong(firstOfRight + CLIENT_OFFSET);
        final long orderId = UNSAFE.getLong(firstOfRight + ORDER_OFFSET);
        if (level > innerLevels)
        {
            if (level > MAX_INNER_LEVELS)
            {
                throw new IllegalStateException("order identity index deeper than " + MAX_INNER_LEVELS + " levels");
            }
            final long newRoot = newNode();
            final long firstOfLeft = firstEntry(left);
            writeInnerEntry(newRoot, 0, 0, UNSAFE.getLong(firstOfLeft + CLIENT_OFFSET),
                UNSAFE.getLong(firstOfLeft + ORDER_OFFSET), left);
            writeInnerEntry(newRoot, 1, 1, clientId, orderId, right);
            root = newRoot;
            innerLevels = level;
            return;
        }
        final long parent = pathNodes[level];
        final int position = pathSlots[level] + 1;
        final int count = count(parent);
        if (count < INNER_CAPACITY)
        {
            writeInnerEntry(parent, position, count, clientId, orderId, right);
            return;
        }
        final int split = splitPoint(parent, count, position, clientId, INNER_ENTRY);
        final long sibling = newNode();
        moveTail(parent, sibling, split, count, INNER_ENTRY);
        if (isLeftOfSplit(position, split, count))
        {
            writeInnerEntry(parent, position, split, clientId, orderId, right);
        }
        else
        {
            writeInnerEntry(sibling, position - split, count - split, clientId, orderId, right);
        }
        insertIntoParent(level + 1, parent, sibling);
    }

    /**
     * Where a full node of {@code count} entries splits for a key going in at {@code position}: at its end for an
     * append, just past the same client's last entry when a quarter or more stays on each side, else in half.
     */
    private static int splitPoint(
        final long node, final int count, final int position, final long clientId, final int entrySize)
    {
        if (position == count)
        {
            return count;
        }
        final int quarter = count / 4;
        if (position >= quarter && position <= count - quarter &&
            UNSAFE.getLong(node + HEADER + (long)(position - 1) * entrySize + CLIENT_OFFSET) == clientId &&
            UNSAFE.getLong(node + HEADER + (long)position * entrySize + CLIENT_OFFSET) != clientId)
        {
            return position;
        }
        return count / 2;
    }

    /** An append split leaves the left node full, so the key starts the right one; any other goes left if it can. */
    private static boolean isLeftOfSplit(final int position, final int split, final int count)
    {
        return position < split || (position == split && split < count);
    }

    private static void moveTail(final long from, final long to, final int split, final int count, final int entrySize)
    {
        UNSAFE.copyMemory(from + HEADER + (long)split * entrySize, to + HEADER, (long)(count - split) * entrySize);
        setCount(from, split);
        setCount(to, count - split);
    }

    private static void writeLeafEntry(
        final long node,
        final int position,
        final int count,
        final long clientId,
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence)
    {
        final long entry = openGap(node, position, count, LEAF_ENTRY);
        UNSAFE.putLong(entry + CLIENT_OFFSET, clientId);
        UNSAFE.putLong(entry + ORDER_OFFSET, orderId);
        UNSAFE.putInt(entry + PARTITION_OFFSET, partition);
        UNSAFE.putInt(entry + EPOCH_OFFSET, epoch);
        UNSAFE.putLong(entry + SEQUENCE_OFFSET, sequence);
    }

    private static void writeInnerEntry(
        final long node, final int position, final int count, final long clientId, final long orderId,
        final long child)
    {
        final long entry = openGap(node, position, count, INNER_ENTRY);
        UNSAFE.putLong(entry + CLIENT_OFFSET, clientId);
        UNSAFE.putLong(entry + ORDER_OFFSET, orderId);
        UNSAFE.putLong(entry + CHILD_OFFSET, child);
    }

    /** Shift the entries from {@code position} on one place right and count one more; returns the free entry. */
    private static long openGap(final long node, final int position, final int count, final int entrySize)
    {
        final long entry = node + HEADER + (long)position * entrySize;
        if (position < count)
        {
            UNSAFE.copyMemory(entry, entry + entrySize, (long)(count - position) * entrySize); // overlap-safe
        }
        setCount(node, count + 1);
        return entry;
    }

    private long newLeaf()
    {
        leaves++;
        return newNode();
    }

    private long newNode()
    {
        final long node = memory.allocate(NODE_SIZE);
        UNSAFE.putInt(node + COUNT_OFFSET, 0);
        return node;
    }

    private static long firstEntry(final long node)
    {
        return node + HEADER;
    }

    private static long leafEntry(final long node, final int position)
    {
        return node + HEADER + (long)position * LEAF_ENTRY;
    }

    private static long innerEntry(final long node, final int position)
    {
        return node + HEADER + (long)position * INNER_ENTRY;
    }

    private static int count(final long node)
    {
        return UNSAFE.getInt(node + COUNT_OFFSET);
    }

    private static void setCount(final long node, final int count)
    {
        UNSAFE.putInt(node + COUNT_OFFSET, count);
    }

    private static boolean isKeyAt(final long entry, final long clientId, final long orderId)
    {
        return UNSAFE.getLong(entry + CLIENT_OFFSET) == clientId && UNSAFE.getLong(entry + ORDER_OFFSET) == orderId;
    }

    private static int compare(final long entry, final long clientId, final long orderId)
    {
        final long entryClientId = UNSAFE.getLong(entry + CLIENT_OFFSET);
        return entryClientId != clientId ? Long.compare(entryClientId, clientId) :
            Long.compare(UNSAFE.getLong(entry + ORDER_OFFSET), orderId);
    }
}
