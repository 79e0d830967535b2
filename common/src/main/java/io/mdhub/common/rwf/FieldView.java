package io.mdhub.common.rwf;

import java.util.Arrays;

/**
 * The field ids a consumer's view asks for (RDM view type 1): an immutable set with a constant-time membership test
 * (one bit per possible field id, 8 KiB), so filtering an update costs one lookup per field. Views are compared by
 * their ids, so watchers of an item who ask for the same fields can share one filtered copy of each message.
 */
public final class FieldView
{
    private static final int FID_RANGE = 1 << 16;

    private final int[] fieldIds;
    private final long[] bits = new long[FID_RANGE / Long.SIZE];

    private FieldView(final int[] sortedUniqueIds)
    {
        this.fieldIds = sortedUniqueIds;
        for (final int fid : sortedUniqueIds)
        {
            final int index = fid & 0xFFFF;
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
     * @param fieldId a field id as read from the wire (int16).
     * @return true if the view asks for it.
     */
    public boolean contains(final int fieldId)
    {
        final int index = fieldId & 0xFFFF;
        return 0 != (bits[index >>> 6] & (1L << index));
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
