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
 * Layout: each field owns a slot in one {@link ExpandableDirectByteBuffer}; {@code fid -> field index} is an Agrona
 * {@link Int2IntHashMap}, and per field index primitive arrays hold the fid, the slot offset, its capacity and the
 * value length. Field order is the order fields first arrived (refresh order, then appended update fields), which is
 * the order {@link #encodeFieldList(MutableDirectBuffer, int)} writes them in.
 * <ul>
 *     <li>A new value that fits its slot is copied over the old one in place (the common update).</li>
 *     <li>A longer value moves to a new slot at the end; the old slot becomes garbage. When garbage exceeds the
 *     live bytes the slots are compacted into a second buffer which then becomes the image (amortised, no
 *     allocation once the buffers have grown).</li>
 *     <li>{@link #clear()} keeps every buffer and array, so a refresh on a warm image allocates nothing.</li>
 * </ul>
 * Single-threaded: the owner of the item (one event loop or agent) is the only reader and writer.
 */
public final class ItemImage
{
    /** Returned by the fid index for an absent field. */
    private static final int MISSING = -1;
    private static final int INITIAL_FIELDS = 16;
    private static final int INITIAL_BYTES = 256;
    private static final int SLOT_ALIGNMENT = 4;
    private static final int FLAGS_SIZE = 1;
    private static final int INFO_LENGTH = 3;
    private static final int INFO_SIZE_WITH_LENGTH = 1 + INFO_LENGTH;
    private static final int LONG_LENGTH_SIZE = 3;

    private final Int2IntHashMap indexByFid = new Int2IntHashMap(INITIAL_FIELDS * 2, 0.65f, MISSING);
    private ExpandableDirectByteBuffer data = new ExpandableDirectByteBuffer(INITIAL_BYTES);
    private ExpandableDirectByteBuffer spare; // made on the first compaction: most images never need one
    private int[] fids = new int[INITIAL_FIELDS];
    private int[] slotOffsets = new int[INITIAL_FIELDS];
    private int[] slotCapacities = new int[INITIAL_FIELDS];
    private int[] valueLengths = new int[INITIAL_FIELDS];
    private int fieldCount;
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
        indexByFid.clear();
        fieldCount = 0;
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
        final int index = indexByFid.get(fid);
        if (MISSING == index)
        {
            append(fid, source, valueOffset, valueLength);
            return;
        }
        final int oldLength = valueLengths[index];
        valueBytes += valueLength - oldLength;
        longLengthCount += (isLong(valueLength) ? 1 : 0) - (isLong(oldLength) ? 1 : 0);
        if (valueLength <= slotCapacities[index])
        {
            data.putBytes(slotOffsets[index], source, valueOffset, valueLength);
            valueLengths[index] = valueLength;
            return;
        }
        garbageBytes += slotCapacities[index];
        liveBytes -= slotCapacities[index];
        final int capacity = slotCapacity(valueLength);
        final int slot = allocateSlot(capacity);
        data.putBytes(slot, source, valueOffset, valueLength);
        slotOffsets[index] = slot;
        slotCapacities[index] = capacity;
        valueLengths[index] = valueLength;
        liveBytes += capacity;
        if (garbageBytes > liveBytes && garbageBytes > INITIAL_BYTES)
        {
            compact();
        }
    }

    private void append(final int fid, final DirectBuffer source, final int valueOffset, final int valueLength)
    {
        if (fieldCount == fids.length)
        {
            growFieldArrays();
        }
        final int capacity = slotCapacity(valueLength);
        final int slot = allocateSlot(capacity);
        data.putBytes(slot, source, valueOffset, valueLength);
        final int index = fieldCount++;
        fids[index] = fid;
        slotOffsets[index] = slot;
        slotCapacities[index] = capacity;
        valueLengths[index] = valueLength;
        indexByFid.put(fid, index);
        liveBytes += capacity;
        valueBytes += valueLength;
        longLengthCount += isLong(valueLength) ? 1 : 0;
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
        int position = 0;
        for (int i = 0; i < fieldCount; i++)
        {
            final int capacity = slotCapacities[i];
            target.checkLimit(position + capacity);
            target.putBytes(position, data, slotOffsets[i], valueLengths[i]);
            slotOffsets[i] = position;
            position += capacity;
        }
        spare = data;
        data = target;
        dataEnd = position;
        liveBytes = position;
        garbageBytes = 0;
    }

    private void growFieldArrays()
    {
        final int newLength = fids.length * 2;
        fids = Arrays.copyOf(fids, newLength);
        slotOffsets = Arrays.copyOf(slotOffsets, newLength);
        slotCapacities = Arrays.copyOf(slotCapacities, newLength);
        valueLengths = Arrays.copyOf(valueLengths, newLength);
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
        return MISSING != indexByFid.get(fid);
    }

    /**
     * @param fid a field id.
     * @return length of its encoded value (0 = blank), or -1 if absent.
     */
    public int valueLength(final int fid)
    {
        final int index = indexByFid.get(fid);
        return MISSING == index ? MISSING : valueLengths[index];
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
        final int index = indexByFid.get(fid);
        if (MISSING == index)
        {
            return MISSING;
        }
        target.putBytes(offset, data, slotOffsets[index], valueLengths[index]);
        return valueLengths[index];
    }

    /**
     * @param index a field index, 0 to {@link #fieldCount()} - 1, in arrival order.
     * @return the field id at that index.
     */
    public int fieldIdAt(final int index)
    {
        return fids[index];
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
        for (int i = 0; i < fieldCount; i++)
        {
            target.putShort(position, (short)fids[i], RwfMsgDescriptor.BYTE_ORDER);
            position += RwfFieldListFlyweight.FIELD_ID_SIZE;
            final int valueLength = valueLengths[i];
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
            target.putBytes(position, data, slotOffsets[i], valueLength);
            position += valueLength;
        }
        return position - offset;
    }
}
