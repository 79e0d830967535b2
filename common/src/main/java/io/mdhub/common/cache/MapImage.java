package io.mdhub.common.cache;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Hashing;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMapFlyweight;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfPrimitives;

/**
 * The current entries of one item whose payload is an RWF Map (MarketByOrder, MarketByPrice, MarketMaker, symbol
 * lists...), off-heap: what a refresh loaded plus every update applied since, keyed by each entry's encoded key.
 * <ul>
 *     <li>ADD sets an entry (adds it, or replaces it whole). UPDATE of a FieldList entry merges the update's fields
 *     into it as {@link ItemImage} does for an item (a known field replaced in place in the order it first came, a
 *     new one appended); UPDATE of another container replaces the entry; UPDATE of an unknown key adds it. DELETE
 *     removes the entry.</li>
 *     <li>Summary data is replaced whenever a message carries some; the key's primitive type, the entries' container
 *     type and the key field id come from the refresh. Entry permission data is kept (an UPDATE without any keeps
 *     the entry's).</li>
 *     <li>Keys are compared by their encoded bytes (ETA encodes a primitive in its one minimal form).</li>
 * </ul>
 * A Map with set definitions, an entry FieldList with set-defined data to merge, or a message whose key or entry
 * type differs from the image's cannot be imaged: {@link #apply} says so and the owner stops serving the image.
 * <p>
 * Layout: each entry owns a slot [key | permData | payload] in one {@link ExpandableDirectByteBuffer}; per entry
 * index, primitive arrays hold the slot's offset and capacity, the three lengths and the key's hash; an
 * open-addressing table (linear probing, backward-shift deletion) maps a key to its index without allocating. A
 * deleted entry's index is taken by the last entry, so entries are written out in arrival order except where a
 * delete moved the last one. Slots that outgrow their capacity move to the end; garbage is compacted into a second
 * buffer when it passes the live bytes, as in {@link ItemImage}. Buffers, arrays and table only grow, so a warm image
 * applies updates and refreshes without allocating. Single-threaded, like its owner.
 */
public final class MapImage
{
    /** {@link #apply} result: applied. */
    public static final int APPLIED = 0;
    /** {@link #apply} result: the Map is malformed (an UPDATE entry's FieldList does not decode); nothing changed. */
    public static final int MALFORMED = 1;
    /** {@link #apply} result: the image cannot follow this message (see {@link #notImagedReason()}). */
    public static final int NOT_IMAGEABLE = 2;

    /** Reason: the Map carries set definitions. */
    public static final String SET_DEFS_REASON = "Map payloads with set definitions are not cached";
    /** Reason: an entry FieldList with set-defined data had to be merged. */
    public static final String SET_DATA_REASON = "set-defined FieldList data in a Map entry cannot be merged";
    /** Reason: key type or entry container type changed without a CLEAR_CACHE refresh. */
    public static final String LAYOUT_CHANGED_REASON = "the Map's key type or entry type changed without CLEAR_CACHE";

    private static final int FIELD_LIST = 132;
    private static final int MAP = 137;
    private static final int NO_DATA = RwfMapFlyweight.NO_DATA;
    private static final int INITIAL_ENTRIES = 16;
    private static final int INITIAL_BYTES = 1024;
    private static final int SLOT_ALIGNMENT = 8;
    private static final int EMPTY = 0;
    private static final int ENTRY_OVERHEAD_BOUND = 1 + 2 + 2 + 3; // action, perm length, key length, payload length
    private static final int HEADER_BOUND = 3 + 2 + 2 + 2; // flags/key type/container, key fid, summary length, count

    private ExpandableDirectByteBuffer data = new ExpandableDirectByteBuffer(INITIAL_BYTES);
    private ExpandableDirectByteBuffer spare; // made on the first compaction
    private ExpandableDirectByteBuffer summary; // made for the first summary
    private int[] slotOffsets = new int[INITIAL_ENTRIES];
    private int[] slotCapacities = new int[INITIAL_ENTRIES];
    private int[] keyLengths = new int[INITIAL_ENTRIES];
    private int[] permLengths = new int[INITIAL_ENTRIES];
    private int[] payloadLengths = new int[INITIAL_ENTRIES];
    private int[] hashes = new int[INITIAL_ENTRIES];
    private int[] table = new int[INITIAL_ENTRIES * 2]; // entry index + 1, or EMPTY
    private int mask = table.length - 1;
    private int probe; // table position of the last find
    private int entryCount;
    private int dataEnd;
    private int liveBytes;
    private int garbageBytes;
    private int contentBytes;
    private int permEntries;
    private boolean hasHeader;
    private int keyPrimitiveType;
    private int containerType = NO_DATA;
    private boolean hasKeyFieldId;
    private int keyFieldId;
    private int summaryLength = -1;
    private String notImagedReason;

    /**
     * Forget every entry and the header (buffers, arrays and table keep their capacity).
     */
    public void clear()
    {
        if (entryCount > 0)
        {
            Arrays.fill(table, EMPTY);
        }
        entryCount = 0;
        dataEnd = 0;
        liveBytes = 0;
        garbageBytes = 0;
        contentBytes = 0;
        permEntries = 0;
        hasHeader = false;
        keyPrimitiveType = 0;
        containerType = NO_DATA;
        hasKeyFieldId = false;
        keyFieldId = 0;
        summaryLength = -1;
        notImagedReason = null;
    }

    /**
     * Apply a Map: a refresh that clears the image (CLEAR_CACHE, or the first of the item), or a later refresh part
     * or an update whose entries change it. A malformed Map changes nothing.
     *
     * @param map     a successfully wrapped Map; it is rewound and iterated.
     * @param scratch the thread's scratch, for merging FieldList entries.
     * @param clear   true to replace the image (header, summary, entries) with the Map.
     * @return {@link #APPLIED}, {@link #MALFORMED} (scratch says why) or {@link #NOT_IMAGEABLE}.
     */
    public int apply(final RwfMapFlyweight map, final ImageScratch scratch, final boolean clear)
    {
        if (!map.isEmpty() && FIELD_LIST == map.containerType() && !checkUpdateEntries(map, scratch))
        {
            return MALFORMED;
        }
        if (clear)
        {
            clear();
        }
        if (map.isEmpty())
        {
            return APPLIED;
        }
        if (map.hasSetDefs())
        {
            return notImageable(SET_DEFS_REASON);
        }
        if (!hasHeader)
        {
            hasHeader = true;
            keyPrimitiveType = map.keyPrimitiveType();
            containerType = map.containerType();
        }
        else if (keyPrimitiveType != map.keyPrimitiveType() || containerType != map.containerType())
        {
            return notImageable(LAYOUT_CHANGED_REASON);
        }
        if (map.hasKeyFieldId())
        {
            hasKeyFieldId = true;
            keyFieldId = map.keyFieldId();
        }
        if (map.hasSummaryData())
        {
            putSummary(map.buffer(), map.summaryOffset(), map.summaryLength());
        }
        final DirectBuffer source = map.buffer();
        map.rewind();
        while (map.next())
        {
            final int keyOffset = map.keyOffset();
            final int keyLength = map.keyLength();
            final int hash = hash(source, keyOffset, keyLength);
            final int index = find(source, keyOffset, keyLength, hash);
            switch (map.action())
            {
                case RwfMapFlyweight.DELETE:
                    if (index >= 0)
                    {
                        remove(index);
                    }
                    break;
                case RwfMapFlyweight.UPDATE:
                    if (index >= 0)
                    {
                        if (FIELD_LIST == containerType)
                        {
                            if (!merge(index, map, scratch))
                            {
                                return notImageable(SET_DATA_REASON);
                            }
                        }
                        else
                        {
                            replace(index, source, map.permOffset(), map.permLength(), source, map.payloadOffset(),
                                map.payloadLength());
                        }
                        break;
                    }
                    insert(hash, map);
                    break;
                default: // ADD
                    if (index >= 0)
                    {
                        replace(index, source, map.permOffset(), Math.max(0, map.permLength()), source,
                            map.payloadOffset(), map.payloadLength());
                    }
                    else
                    {
                        insert(hash, map);
                    }
                    break;
            }
        }
        return APPLIED;
    }

    /**
     * Every UPDATE entry's FieldList must decode before anything is changed (set-defined data is left to the merge,
     * which reports it as not imageable).
     */
    private static boolean checkUpdateEntries(final RwfMapFlyweight map, final ImageScratch scratch)
    {
        map.rewind();
        while (map.next())
        {
            if (RwfMapFlyweight.UPDATE == map.action() &&
                !scratch.entryFields.wrap(map.buffer(), map.payloadOffset(), map.payloadLength()) &&
                RwfFieldListFlyweight.Error.SET_DATA_UNSUPPORTED != scratch.entryFields.error())
            {
                scratch.fail(MAP, scratch.entryFields.error().description());
                return false;
            }
        }
        return true;
    }

    private int notImageable(final String reason)
    {
        notImagedReason = reason;
        return NOT_IMAGEABLE;
    }

    private void putSummary(final DirectBuffer source, final int offset, final int length)
    {
        if (null == summary)
        {
            summary = new ExpandableDirectByteBuffer(Math.max(64, length));
        }
        summary.checkLimit(length);
        summary.putBytes(0, source, offset, length);
        summaryLength = length;
    }

    // ---------------------------------------------------------------- FieldList merge

    /**
     * Merge an UPDATE entry's fields into the stored entry's FieldList: the stored list's flags and info, its fields
     * in their order with the update's values where the update has the field (its last occurrence), then the
     * update's new fields in the order they first appear.
     *
     * @return false if either list carries set-defined data (or the stored one does not decode).
     */
    private boolean merge(final int index, final RwfMapFlyweight map, final ImageScratch scratch)
    {
        final int storedOffset = payloadOffset(index);
        final int storedLength = payloadLengths[index];
        final RwfFieldListFlyweight stored = scratch.storedFields;
        final RwfFieldListFlyweight update = scratch.entryFields;
        if (!stored.wrap(data, storedOffset, storedLength) ||
            !update.wrap(map.buffer(), map.payloadOffset(), map.payloadLength()))
        {
            return false;
        }
        scratch.ensureFields(stored.count(), update.count());
        final int[] storedFids = scratch.storedFids;
        final int[] updateFids = scratch.entryFids;
        final int[] updateOffsets = scratch.entryValueOffsets;
        final int[] updateLengths = scratch.entryValueLengths;
        int storedCount = 0;
        while (stored.next())
        {
            storedFids[storedCount++] = stored.fieldId();
        }
        int updateCount = 0;
        while (update.next())
        {
            updateFids[updateCount] = update.fieldId();
            updateOffsets[updateCount] = update.valueOffset();
            updateLengths[updateCount] = update.valueLength();
            updateCount++;
        }

        final ExpandableDirectByteBuffer out = scratch.merged;
        out.checkLimit(storedLength + map.payloadLength() + RwfFieldListFlyweight.COUNT_SIZE + 1);
        // flags and info of the stored list, which always gets standard data now
        final int headerLength = stored.hasInfo() ? 2 + (data.getByte(storedOffset + 1) & 0xFF) : 1;
        out.putBytes(0, data, storedOffset, headerLength);
        out.putByte(0, (byte)(stored.flags() | RwfFieldListFlyweight.HAS_STANDARD_DATA));
        final int countOffset = headerLength;
        int position = countOffset + RwfFieldListFlyweight.COUNT_SIZE;
        int count = 0;
        final DirectBuffer source = map.buffer();
        stored.rewind();
        while (stored.next())
        {
            final int fid = stored.fieldId();
            final int replacement = lastIndexOf(updateFids, updateCount, fid);
            if (replacement >= 0)
            {
                position = putField(out, position, fid, source, updateOffsets[replacement],
                    updateLengths[replacement]);
            }
            else
            {
                position = putField(out, position, fid, data, stored.valueOffset(), stored.valueLength());
            }
            count++;
        }
        for (int i = 0; i < updateCount; i++)
        {
            final int fid = updateFids[i];
            if (lastIndexOf(storedFids, storedCount, fid) < 0 && lastIndexOf(updateFids, i, fid) < 0)
            {
                final int last = lastIndexOf(updateFids, updateCount, fid);
                position = putField(out, position, fid, source, updateOffsets[last], updateLengths[last]);
                count++;
            }
        }
        out.putShort(countOffset, (short)count, RwfMsgDescriptor.BYTE_ORDER);
        replace(index, source, map.permOffset(), map.permLength(), out, 0, position);
        return true;
    }

    private static int lastIndexOf(final int[] fids, final int count, final int fid)
    {
        for (int i = count - 1; i >= 0; i--)
        {
            if (fids[i] == fid)
            {
                return i;
            }
        }
        return -1;
    }

    private static int putField(
        final MutableDirectBuffer out,
        final int position,
        final int fid,
        final DirectBuffer source,
        final int valueOffset,
        final int valueLength)
    {
        int at = position;
        out.putShort(at, (short)fid, RwfMsgDescriptor.BYTE_ORDER);
        at += RwfFieldListFlyweight.FIELD_ID_SIZE;
        if (valueLength >= RwfPrimitives.U16OB_LONG_FORM_PREFIX)
        {
            out.putByte(at, (byte)RwfPrimitives.U16OB_LONG_FORM_PREFIX);
            out.putShort(at + 1, (short)valueLength, RwfMsgDescriptor.BYTE_ORDER);
            at += 3;
        }
        else
        {
            out.putByte(at++, (byte)valueLength);
        }
        out.putBytes(at, source, valueOffset, valueLength);
        return at + valueLength;
    }

    // ---------------------------------------------------------------- entries and slots

    private void insert(final int hash, final RwfMapFlyweight map)
    {
        if (entryCount == slotOffsets.length)
        {
            growEntryArrays();
        }
        if ((entryCount + 1) * 2 > table.length)
        {
            growTable();
        }
        final int keyLength = map.keyLength();
        final int permLength = Math.max(0, map.permLength());
        final int payloadLength = map.payloadLength();
        final int content = keyLength + permLength + payloadLength;
        final int capacity = slotCapacity(content);
        final int slot = allocateSlot(capacity);
        final DirectBuffer source = map.buffer();
        data.putBytes(slot, source, map.keyOffset(), keyLength);
        data.putBytes(slot + keyLength, source, map.permOffset(), permLength);
        data.putBytes(slot + keyLength + permLength, source, map.payloadOffset(), payloadLength);
        final int index = entryCount++;
        slotOffsets[index] = slot;
        slotCapacities[index] = capacity;
        keyLengths[index] = keyLength;
        permLengths[index] = permLength;
        payloadLengths[index] = payloadLength;
        hashes[index] = hash;
        int position = hash & mask;
        while (EMPTY != table[position])
        {
            position = (position + 1) & mask;
        }
        table[position] = index + 1;
        liveBytes += capacity;
        contentBytes += content;
        permEntries += permLength > 0 ? 1 : 0;
    }

    /**
     * Replace an entry's permission data (unless permLength is negative: keep it) and payload.
     */
    private void replace(
        final int index,
        final DirectBuffer permSource,
        final int permOffset,
        final int permLength,
        final DirectBuffer source,
        final int offset,
        final int length)
    {
        final int keyLength = keyLengths[index];
        final int oldPermLength = permLengths[index];
        final boolean keepPerm = permLength < 0;
        final int newPermLength = keepPerm ? oldPermLength : permLength;
        final int content = keyLength + newPermLength + length;
        contentBytes += content - (keyLength + oldPermLength + payloadLengths[index]);
        permEntries += (newPermLength > 0 ? 1 : 0) - (oldPermLength > 0 ? 1 : 0);
        int slot = slotOffsets[index];
        if (content > slotCapacities[index])
        {
            final int capacity = slotCapacity(content);
            final int moved = allocateSlot(capacity);
            data.putBytes(moved, data, slot, keyLength + (keepPerm ? oldPermLength : 0));
            garbageBytes += slotCapacities[index];
            liveBytes += capacity - slotCapacities[index];
            slotOffsets[index] = moved;
            slotCapacities[index] = capacity;
            slot = moved;
        }
        if (!keepPerm)
        {
            data.putBytes(slot + keyLength, permSource, permOffset, permLength);
        }
        data.putBytes(slot + keyLength + newPermLength, source, offset, length);
        permLengths[index] = newPermLength;
        payloadLengths[index] = length;
        if (garbageBytes > liveBytes && garbageBytes > INITIAL_BYTES)
        {
            compact();
        }
    }

    private void remove(final int index)
    {
        // backward-shift deletion: later members of the probe run move into the hole unless their home lies after it
        int hole = probe;
        int position = hole;
        while (true)
        {
            position = (position + 1) & mask;
            final int value = table[position];
            if (EMPTY == value)
            {
                break;
            }
            final int home = hashes[value - 1] & mask;
            final boolean stays = hole <= position ? hole < home && home <= position : hole < home || home <= position;
            if (!stays)
            {
                table[hole] = value;
                hole = position;
            }
        }
        table[hole] = EMPTY;

        garbageBytes += slotCapacities[index];
        liveBytes -= slotCapacities[index];
        contentBytes -= keyLengths[index] + permLengths[index] + payloadLengths[index];
        permEntries -= permLengths[index] > 0 ? 1 : 0;
        final int last = --entryCount;
        if (index != last)
        {
            int at = hashes[last] & mask;
            while (table[at] != last + 1)
            {
                at = (at + 1) & mask;
            }
            table[at] = index + 1;
            slotOffsets[index] = slotOffsets[last];
            slotCapacities[index] = slotCapacities[last];
            keyLengths[index] = keyLengths[last];
            permLengths[index] = permLengths[last];
            payloadLengths[index] = payloadLengths[last];
            hashes[index] = hashes[last];
        }
        if (0 == entryCount)
        {
            dataEnd = 0;
            liveBytes = 0;
            garbageBytes = 0;
        }
        else if (garbageBytes > liveBytes && garbageBytes > INITIAL_BYTES)
        {
            compact();
        }
    }

    private int find(final DirectBuffer source, final int keyOffset, final int keyLength, final int hash)
    {
        int position = hash & mask;
        while (true)
        {
            final int value = table[position];
            if (EMPTY == value)
            {
                probe = position;
                return -1;
            }
            final int index = value - 1;
            if (hashes[index] == hash && keyLengths[index] == keyLength &&
                keyEquals(slotOffsets[index], source, keyOffset, keyLength))
            {
                probe = position;
                return index;
            }
            position = (position + 1) & mask;
        }
    }

    private boolean keyEquals(final int slot, final DirectBuffer source, final int keyOffset, final int keyLength)
    {
        for (int i = 0; i < keyLength; i++)
        {
            if (data.getByte(slot + i) != source.getByte(keyOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static int hash(final DirectBuffer source, final int offset, final int length)
    {
        int h = length;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + source.getByte(offset + i);
        }
        return Hashing.hash(h);
    }

    private static int slotCapacity(final int content)
    {
        return (Math.max(content, 1) + SLOT_ALIGNMENT - 1) & -SLOT_ALIGNMENT;
    }

    private int allocateSlot(final int capacity)
    {
        final int slot = dataEnd;
        dataEnd += capacity;
        data.checkLimit(dataEnd);
        return slot;
    }

    private void compact()
    {
        final ExpandableDirectByteBuffer target =
            null != spare ? spare : new ExpandableDirectByteBuffer(data.capacity());
        int position = 0;
        for (int i = 0; i < entryCount; i++)
        {
            final int capacity = slotCapacities[i];
            target.checkLimit(position + capacity);
            target.putBytes(position, data, slotOffsets[i], keyLengths[i] + permLengths[i] + payloadLengths[i]);
            slotOffsets[i] = position;
            position += capacity;
        }
        spare = data;
        data = target;
        dataEnd = position;
        liveBytes = position;
        garbageBytes = 0;
    }

    private void growEntryArrays()
    {
        final int length = slotOffsets.length * 2;
        slotOffsets = Arrays.copyOf(slotOffsets, length);
        slotCapacities = Arrays.copyOf(slotCapacities, length);
        keyLengths = Arrays.copyOf(keyLengths, length);
        permLengths = Arrays.copyOf(permLengths, length);
        payloadLengths = Arrays.copyOf(payloadLengths, length);
        hashes = Arrays.copyOf(hashes, length);
    }

    private void growTable()
    {
        table = new int[table.length * 2];
        mask = table.length - 1;
        for (int i = 0; i < entryCount; i++)
        {
            int position = hashes[i] & mask;
            while (EMPTY != table[position])
            {
                position = (position + 1) & mask;
            }
            table[position] = i + 1;
        }
    }

    // ---------------------------------------------------------------- reading the image

    /**
     * @return true once a non-empty Map gave the image its header (key and entry types).
     */
    public boolean hasHeader()
    {
        return hasHeader;
    }

    /**
     * @return why the last {@link #apply} returned {@link #NOT_IMAGEABLE}, or null.
     */
    public String notImagedReason()
    {
        return notImagedReason;
    }

    /**
     * @return the DataTypes value of the keys' primitive type.
     */
    public int keyPrimitiveType()
    {
        return keyPrimitiveType;
    }

    /**
     * @return the DataTypes value of the entries' container type.
     */
    public int containerType()
    {
        return containerType;
    }

    /**
     * @return true if the refresh named the keys' field id.
     */
    public boolean hasKeyFieldId()
    {
        return hasKeyFieldId;
    }

    /**
     * @return the keys' field id.
     */
    public int keyFieldId()
    {
        return keyFieldId;
    }

    /**
     * @return true if summary data is held.
     */
    public boolean hasSummary()
    {
        return summaryLength >= 0;
    }

    /**
     * @return the buffer holding the summary data from 0, or null before the first.
     */
    public DirectBuffer summary()
    {
        return summary;
    }

    /**
     * @return length of the summary data, -1 without.
     */
    public int summaryLength()
    {
        return summaryLength;
    }

    /**
     * @return number of entries.
     */
    public int entryCount()
    {
        return entryCount;
    }

    /**
     * @return number of entries that carry permission data.
     */
    public int permEntryCount()
    {
        return permEntries;
    }

    /**
     * @return the buffer holding the entries (valid until the image next changes).
     */
    public DirectBuffer data()
    {
        return data;
    }

    /**
     * @param index an entry index, 0 to {@link #entryCount()} - 1.
     * @return offset of its encoded key in {@link #data()}.
     */
    public int keyOffset(final int index)
    {
        return slotOffsets[index];
    }

    /**
     * @param index an entry index.
     * @return length of its encoded key.
     */
    public int keyLength(final int index)
    {
        return keyLengths[index];
    }

    /**
     * @param index an entry index.
     * @return offset of its permission data in {@link #data()}.
     */
    public int permOffset(final int index)
    {
        return slotOffsets[index] + keyLengths[index];
    }

    /**
     * @param index an entry index.
     * @return length of its permission data (0 = none).
     */
    public int permLength(final int index)
    {
        return permLengths[index];
    }

    /**
     * @param index an entry index.
     * @return offset of its payload in {@link #data()}.
     */
    public int payloadOffset(final int index)
    {
        return slotOffsets[index] + keyLengths[index] + permLengths[index];
    }

    /**
     * @param index an entry index.
     * @return length of its payload.
     */
    public int payloadLength(final int index)
    {
        return payloadLengths[index];
    }

    /**
     * @return an upper bound of the bytes the image takes written out as one Map.
     */
    public int encodedLengthBound()
    {
        return HEADER_BOUND + Math.max(0, summaryLength) + entryCount * ENTRY_OVERHEAD_BOUND + contentBytes;
    }
}
