package io.mdhub.common.rwf;

import java.nio.ByteOrder;
import java.util.Arrays;

import org.agrona.DirectBuffer;

/**
 * The field ids a consumer's view asks for (RDM view type 1): an immutable set with a constant-time membership test
 * (one bit per field id between the view's lowest and highest, so a view of a few nearby fields takes a few words),
 * so filtering an update costs one lookup per field. Views are compared by their ids, so watchers of an item who ask
 * for the same fields can share one filtered copy of each message.
 */
public final class FieldView
{
    private final int[] fieldIds;
    private final int lowest;
    private final long[] bits;

    private FieldView(final int[] sortedUniqueIds)
    {
        this.fieldIds = sortedUniqueIds;
        this.lowest = 0 == sortedUniqueIds.length ? 0 : sortedUniqueIds[0];
        final int span = 0 == sortedUniqueIds.length ? 0 : sortedUniqueIds[sortedUniqueIds.length - 1] - lowest + 1;
        this.bits = new long[(span + Long.SIZE - 1) / Long.SIZE];
        for (final int fid : sortedUniqueIds)
        {
            final int index = fid - lowest;
            bits[index >>> 6] |= 1L << index;
        }
    }

    /**
     * @param fieldIds the view's field ids, in any order, duplicates allowed; each must fit an int16.
     * @return the view.
     * @throws IllegalArgumentException if an id is outside -32768..32767.
     */
    public static FieldView of(final int... fieldIds)
    {
        final int[] ids = Arrays.stream(fieldIds).sorted().distinct().toArray();
        for (final int fid : ids)
        {
            if (fid < Short.MIN_VALUE || fid > Short.MAX_VALUE)
            {
                throw new IllegalArgumentException("field id " + fid + " is outside -32768..32767");
            }
        }
        return new FieldView(ids);
    }

    /**
     * @param buffer holds field ids, int16 little-endian each (the backbone's form of a view).
     * @param offset where they start.
     * @param length their length in bytes; 0 means no view (every field).
     * @return the view, or null for every field.
     */
    public static FieldView read(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length <= 0)
        {
            return null;
        }
        final int[] ids = new int[length / Short.BYTES];
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] = buffer.getShort(offset + i * Short.BYTES, ByteOrder.LITTLE_ENDIAN);
        }
        return of(ids);
    }

    /**
     * @param a a view, or null for every field.
     * @param b another, or null for every field.
     * @return the fields either asks for; null (every field) if either is null.
     */
    public static FieldView union(final FieldView a, final FieldView b)
    {
        return null == a || null == b ? null : a.union(b);
    }

    /**
     * @param fieldId a field id as read from the wire (int16).
     * @return true if the view asks for it.
     */
    public boolean contains(final int fieldId)
    {
        final int index = fieldId - lowest;
        return index >= 0 && (index >>> 6) < bits.length && 0 != (bits[index >>> 6] & (1L << index));
    }

    /**
     * @param other another view, or null for "every field".
     * @return true if every field the other asks for is in this view (never for "every field").
     */
    public boolean covers(final FieldView other)
    {
        if (null == other)
        {
            return false;
        }
        for (final int fid : other.fieldIds)
        {
            if (!contains(fid))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return how many field ids the view names.
     */
    public int size()
    {
        return fieldIds.length;
    }

    /**
     * @return the field ids, sorted (a copy).
     */
    public int[] fieldIds()
    {
        return fieldIds.clone();
    }

    /**
     * @param other another view, or null for "every field".
     * @return a view of the fields either asks for; null (every field) if either is null.
     */
    public FieldView union(final FieldView other)
    {
        if (null == other)
        {
            return null;
        }
        final int[] both = Arrays.copyOf(fieldIds, fieldIds.length + other.fieldIds.length);
        System.arraycopy(other.fieldIds, 0, both, fieldIds.length, other.fieldIds.length);
        return of(both);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof FieldView && Arrays.equals(fieldIds, ((FieldView)other).fieldIds);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(fieldIds);
    }

    @Override
    public String toString()
    {
        return "FieldView" + Arrays.toString(fieldIds);
    }
}
