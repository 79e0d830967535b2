package io.mdhub.common.cache;

import java.util.Arrays;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfPrimitives;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;

/**
 * The current field values of one item, off-heap: what a refresh loaded plus every update applied since, ready to be
 * written out as one standard FieldList for a refresh from cache.
 * <p>
 * Layout: each field owns a slot in one {@link ExpandableDirectByteBuffer}; one int array, the field table, holds per
 * field index the fid, the slot offset, its capacity and the value length side by side. Field order is the order
 * fields first arrived (refresh order, then appended update fields), which is the order
 * {@link #encodeFieldList(MutableDirectBuffer, int)} writes them in.
 * <ul>
 *     <li>A new value that fits its slot is copied over the old one in place (the common update).</li>
 *     <li>A longer value moves to a new slot at the end; the old slot becomes garbage. When garbage exceeds the
 *     live bytes the slots are compacted into a second buffer which then becomes the image (amortised, no
 *     allocation once the buffers have grown).</li>
 *     <li>{@link #clear()} keeps every buffer and array, so a refresh on a warm image allocates nothing.</li>
 * </ul>
 * Why one table and a scan: a cache of 100,000 items is far larger than the CPU's caches, so each update finds its
 * image cold in memory and pays for every cache line it touches. A field's four numbers share a line, and an image
 * of ordinary size ({@value #SCAN_LIMIT} fields or fewer) finds a fid by scanning its table from just after the last
 * fid found: updates carry their fields in a steady order, so the scan mostly hits at its first step, and it
 * touches no hash table. An image that grows past that gets an Agrona {@link Int2IntHashMap} index
 * ({@code fid -> field index}); a refresh that clears it goes back to the scan, and the map is kept for the next time
 * the image grows (no allocation).
 * <p>
 * Single-threaded: the owner of the item (one event loop or agent) is the only reader and writer.
 */
public final class ItemImage
{
    /** Up to this many fields, a fid is found by scanning the field table; past it, by a hash index. */
    static final int SCAN_LIMIT = 32;
    /** Returned by the fid index for an absent field. */
    private static final int MISSING = -1;
    private static final int INITIAL_FIELDS = 16;
    private static final int INITIAL_BYTES = 256;
    private static final int SLOT_ALIGNMENT = 4;
    private static final int FLAGS_SIZE = 1;
    private static final int INFO_LENGTH = 3;
    private static final int INFO_SIZE_WITH_LENGTH = 1 + INFO_LENGTH;
    private static final int LONG_LENGTH_SIZE = 3;

    /** Field table entry: four ints per field index. */
    private static final int FID = 0;
    private static final int SLOT_OFFSET = 1;
    private static final int SLOT_CAPACITY = 2;
    private static final int VALUE_LENGTH = 3;
    private static final int STRIDE = 4;
    private static final int CACHE_LINE_BYTES = 64;
    private static final int INTS_PER_CACHE_LINE = CACHE_LINE_BYTES / Integer.BYTES;

    private int[] table = new int[INITIAL_FIELDS * STRIDE];
    private ExpandableDirectByteBuffer data = new ExpandableDirectByteBuffer(INITIAL_BYTES);
    private ExpandableDirectByteBuffer spare; // made on the first compaction: most images never need one
    private Int2IntHashMap indexByFid; // made when the image outgrows the scan: most images never need one
    private boolean isIndexed; // indexByFid holds every field; false after clear(), until the image outgrows the scan
    private int fieldCount;
    private int scanStart;
    private int dataEnd;
    private int liveBytes;
    private int garbageBytes;
    private int valueBytes;
    private int longLengthCount;
    private boolean hasInfo;
    private int dictionaryId;
    private int fieldListNum;

    /**
     * Forget every field (the buffers and index keep their capacity).
     */
    public void clear()
    {
        if (isIndexed)
        {
            indexByFid.clear();
            isIndexed = false;
        }
        fieldCount = 0;
        scanStart = 0;
        dataEnd = 0;
        liveBytes = 0;
        garbageBytes = 0;
        valueBytes = 0;
        longLengthCount = 0;
        hasInfo = false;
        dictionaryId = 0;
        fieldListNum = 0;
    }

    /**
     * Read one word of every cache line the field table and the values occupy, changing nothing: what applying an
     * update will touch, so that a pass over a burst's images has their misses in flight together
     * ({@link DeferredUpdates}).
     *
     * @return a sum of what was read.
     */
    public int touch()
    {
        final int[] table = this.table;
        int sum = 0;
        for (int i = 0, end = Math.min(table.length, fieldCount * STRIDE); i < end; i += INTS_PER_CACHE_LINE)
        {
            sum += table[i];
        }
        final ExpandableDirectByteBuffer data = this.data;
        for (int offset = 0; offset < dataEnd; offset += CACHE_LINE_BYTES)
        {
            sum += data.getByte(offset);
        }
        return sum;
    }

    /**
     * Replace the image with the fields of a refresh (or the first part of a multi-part refresh: the caller decides,
     * from CLEAR_CACHE, whether a refresh part clears the image or is applied like an update).
     *
     * @param fieldList a successfully wrapped FieldList; it is rewound and iterated.
     */
    public void applyRefresh(final RwfFieldListFlyweight fieldList)
    {
        clear();
        hasInfo = fieldList.hasInfo();
        dictionaryId = fieldList.dictionaryId();
        fieldListNum = fieldList.fieldListNum();
        applyUpdate(fieldList);
    }

    /**
     * Apply the fields of an update (or of a later refresh part) one by one: replace a known field, append a new
     * one.
     *
     * @param fieldList a successfully wrapped FieldList; it is rewound and iterated.
     */
    public void applyUpdate(final RwfFieldListFlyweight fieldList)
    {
        fieldList.rewind();
        final DirectBuffer source = fieldList.buffer();
        while (fieldList.next())
        {
            put(fieldList.fieldId(), source, fieldList.valueOffset(), fieldList.valueLength());
        }
    }

    /**
     * Set one field's encoded value.
     *
     * @param fid         the field id.
     * @param source      buffer holding the value bytes.
     * @param valueOffset first value byte.
     * @param valueLength value length (0 = blank), at most 65535.
     */
    public void put(final int fid, final DirectBuffer source, final int valueOffset, final int valueLength)
    {
        final int index = indexOf(fid);
        if (MISSING == index)
        {
            append(fid, source, valueOffset, valueLength);
            return;
        }
        final int entry = index * STRIDE;
        final int[] table = this.table;
        final int oldLength = table[entry + VALUE_LENGTH];
        valueBytes += valueLength - oldLength;
        longLengthCount += (isLong(valueLength) ? 1 : 0) - (isLong(oldLength) ? 1 : 0);
        table[entry + VALUE_LENGTH] = valueLength;
        if (valueLength <= table[entry + SLOT_CAPACITY])
        {
            data.putBytes(table[entry + SLOT_OFFSET], source, valueOffset, valueLength);
            return;
        }
        garbageBytes += table[entry + SLOT_CAPACITY];
        liveBytes -= table[entry + SLOT_CAPACITY];
        final int capacity = slotCapacity(valueLength);
        final int slot = allocateSlot(capacity);
        data.putBytes(slot, source, valueOffset, valueLength);
        table[entry + SLOT_OFFSET] = slot;
        table[entry + SLOT_CAPACITY] = capacity;
        liveBytes += capacity;
        if (garbageBytes > liveBytes && garbageBytes > INITIAL_BYTES)
        {
            compact();
        }
    }

    private int indexOf(final int fid)
    {
        if (isIndexed)
        {
            return indexByFid.get(fid);
        }
        final int[] table = this.table;
        final int count = fieldCount;
        int index = scanStart;
        for (int scanned = 0; scanned < count; scanned++, index++)
        {
            if (index == count)
            {
                index = 0;
            }
            if (table[index * STRIDE + FID] == fid)
            {
                scanStart = index + 1;
                return index;
            }
        }
        return MISSING;
    }

    private void append(final int fid, final DirectBuffer source, final int valueOffset, final int valueLength)
    {
        if (fieldCount * STRIDE == table.length)
        {
            table = Arrays.copyOf(table, table.length * 2);
        }
        final int capacity = slotCapacity(valueLength);
        final int slot = allocateSlot(capacity);
        data.putBytes(slot, source, valueOffset, valueLength);
        final int index = fieldCount++;
        final int entry = index * STRIDE;
        table[entry + FID] = fid;
        table[entry + SLOT_OFFSET] = slot;
        table[entry + SLOT_CAPACITY] = capacity;
        table[entry + VALUE_LENGTH] = valueLength;
        liveBytes += capacity;
        valueBytes += valueLength;
        longLengthCount += isLong(valueLength) ? 1 : 0;
        if (isIndexed)
        {
            indexByFid.put(fid, index);
        }
        else if (fieldCount > SCAN_LIMIT)
        {
            indexAllFields();
        }
    }

    /**
     * @return true while fids are looked up in the hash index rather than scanned for (for tests).
     */
    boolean isIndexed()
    {
        return isIndexed;
    }

    private void indexAllFields()
    {
        if (null == indexByFid)
        {
            indexByFid = new Int2IntHashMap(fieldCount * 2, 0.65f, MISSING);
        }
        isIndexed = true;
        for (int index = 0; index < fieldCount; index++)
        {
            indexByFid.put(table[index * STRIDE + FID], index);
        }
    }

    private static int slotCapacity(final int valueLength)
    {
        // round up so values that grow by a byte or two (prices, volumes) keep their slot
        return BitUtil.align(Math.max(valueLength, 1), SLOT_ALIGNMENT);
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
        final int[] table = this.table;
        int position = 0;
        for (int entry = 0, end = fieldCount * STRIDE; entry < end; entry += STRIDE)
        {
            final int capacity = table[entry + SLOT_CAPACITY];
            target.checkLimit(position + capacity);
            target.putBytes(position, data, table[entry + SLOT_OFFSET], table[entry + VALUE_LENGTH]);
            table[entry + SLOT_OFFSET] = position;
            position += capacity;
        }
        spare = data;
        data = target;
        dataEnd = position;
        liveBytes = position;
        garbageBytes = 0;
    }

    private static boolean isLong(final int valueLength)
    {
        return valueLength >= RwfPrimitives.U16OB_LONG_FORM_PREFIX;
    }

    /**
     * @return number of fields in the image.
     */
    public int fieldCount()
    {
        return fieldCount;
    }

    /**
     * @param fid a field id.
     * @return true if the image holds the field.
     */
    public boolean contains(final int fid)
    {
        return MISSING != indexOf(fid);
    }

    /**
     * @param fid a field id.
     * @return length of its encoded value (0 = blank), or -1 if absent.
     */
    public int valueLength(final int fid)
    {
        final int index = indexOf(fid);
        return MISSING == index ? MISSING : table[index * STRIDE + VALUE_LENGTH];
    }

    /**
     * Copy a field's encoded value out.
     *
     * @param fid    a field id.
     * @param target where to copy.
     * @param offset first byte in target.
     * @return the value length, or -1 if absent.
     */
    public int getValue(final int fid, final MutableDirectBuffer target, final int offset)
    {
        final int index = indexOf(fid);
        if (MISSING == index)
        {
            return MISSING;
        }
        final int entry = index * STRIDE;
        target.putBytes(offset, data, table[entry + SLOT_OFFSET], table[entry + VALUE_LENGTH]);
        return table[entry + VALUE_LENGTH];
    }

    /**
     * @param index a field index, 0 to {@link #fieldCount()} - 1, in arrival order.
     * @return the field id at that index.
     */
    public int fieldIdAt(final int index)
    {
        return table[index * STRIDE + FID];
    }

    /**
     * @return true if the last refresh's FieldList carried dictionaryId and fieldListNum (they are written back).
     */
    public boolean hasInfo()
    {
        return hasInfo;
    }

    /**
     * @return the dictionaryId of the last refresh's FieldList.
     */
    public int dictionaryId()
    {
        return dictionaryId;
    }

    /**
     * @return the fieldListNum of the last refresh's FieldList.
     */
    public int fieldListNum()
    {
        return fieldListNum;
    }

    /**
     * @return exact number of bytes {@link #encodeFieldList(MutableDirectBuffer, int)} writes.
     */
    public int encodedLength()
    {
        final int infoSize = hasInfo ? INFO_SIZE_WITH_LENGTH + (dictionaryId >= RwfPrimitives.U15RB_LONG_FORM_BIT ?
            1 : 0) : 0;
        return FLAGS_SIZE + infoSize + RwfFieldListFlyweight.COUNT_SIZE +
            fieldCount * (RwfFieldListFlyweight.FIELD_ID_SIZE + 1) + longLengthCount * (LONG_LENGTH_SIZE - 1) +
            valueBytes;
    }

    /**
     * Write the image as a standard FieldList: flags, info (if the refresh had it), count, then every field in
     * arrival order. The target must have {@link #encodedLength()} bytes from offset (an expandable buffer grows).
     *
     * @param target where to write.
     * @param offset first byte.
     * @return bytes written.
     */
    public int encodeFieldList(final MutableDirectBuffer target, final int offset)
    {
        int position = offset;
        final int flags = RwfFieldListFlyweight.HAS_STANDARD_DATA | (hasInfo ?
            RwfFieldListFlyweight.HAS_FIELD_LIST_INFO : 0);
        target.putByte(position++, (byte)flags);
        if (hasInfo)
        {
            final boolean longId = dictionaryId >= RwfPrimitives.U15RB_LONG_FORM_BIT;
            target.putByte(position++, (byte)(INFO_LENGTH + (longId ? 1 : 0)));
            if (longId)
            {
                target.putByte(position++, (byte)(RwfPrimitives.U15RB_LONG_FORM_BIT | (dictionaryId >>> 8)));
            }
            target.putByte(position++, (byte)dictionaryId);
            target.putShort(position, (short)fieldListNum, RwfMsgDescriptor.BYTE_ORDER);
            position += 2;
        }
        target.putShort(position, (short)fieldCount, RwfMsgDescriptor.BYTE_ORDER);
        position += RwfFieldListFlyweight.COUNT_SIZE;
        final int[] table = this.table;
        for (int entry = 0, end = fieldCount * STRIDE; entry < end; entry += STRIDE)
        {
            target.putShort(position, (short)table[entry + FID], RwfMsgDescriptor.BYTE_ORDER);
            position += RwfFieldListFlyweight.FIELD_ID_SIZE;
            final int valueLength = table[entry + VALUE_LENGTH];
            if (isLong(valueLength))
            {
                target.putByte(position, (byte)RwfPrimitives.U16OB_LONG_FORM_PREFIX);
                target.putShort(position + 1, (short)valueLength, RwfMsgDescriptor.BYTE_ORDER);
                position += LONG_LENGTH_SIZE;
            }
            else
            {
                target.putByte(position++, (byte)valueLength);
            }
            target.putBytes(position, data, table[entry + SLOT_OFFSET], valueLength);
            position += valueLength;
        }
        return position - offset;
    }
}
