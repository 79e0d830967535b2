package io.mdhub.common.cache;

import java.util.Arrays;

import org.agrona.ExpandableDirectByteBuffer;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMapFlyweight;

/**
 * What the images of one thread read payloads with: the FieldList and Map flyweights, two more FieldList flyweights
 * and a buffer for merging a Map entry's FieldList with an update's, and the reason of the last refusal. Everything
 * is reused (the buffer and arrays grow to the largest entry, then stay), so applying messages allocates nothing in
 * steady state. One per event loop or agent, shared by every image that thread owns.
 */
public final class ImageScratch
{
    private static final int INITIAL_FIELDS = 32;

    final RwfFieldListFlyweight fieldList = new RwfFieldListFlyweight();
    final RwfMapFlyweight map = new RwfMapFlyweight();
    final RwfFieldListFlyweight storedFields = new RwfFieldListFlyweight();
    final RwfFieldListFlyweight entryFields = new RwfFieldListFlyweight();
    final ExpandableDirectByteBuffer merged = new ExpandableDirectByteBuffer(256);
    int[] storedFids = new int[INITIAL_FIELDS];
    int[] entryFids = new int[INITIAL_FIELDS];
    int[] entryValueOffsets = new int[INITIAL_FIELDS];
    int[] entryValueLengths = new int[INITIAL_FIELDS];
    private int failedContainerType;
    private String errorDescription = RwfFieldListFlyweight.Error.NONE.description();

    void ensureFields(final int storedCount, final int entryCount)
    {
        if (storedCount > storedFids.length)
        {
            storedFids = Arrays.copyOf(storedFids, Math.max(storedCount, storedFids.length * 2));
        }
        if (entryCount > entryFids.length)
        {
            final int length = Math.max(entryCount, entryFids.length * 2);
            entryFids = Arrays.copyOf(entryFids, length);
            entryValueOffsets = Arrays.copyOf(entryValueOffsets, length);
            entryValueLengths = Arrays.copyOf(entryValueLengths, length);
        }
    }

    void fail(final int containerType, final String description)
    {
        failedContainerType = containerType;
        errorDescription = description;
    }

    /**
     * @return the DataTypes value of the payload that failed to decode in the last refused message: 132 FIELD_LIST,
     * or 137 MAP (the Map itself, or the FieldList of one of its entries).
     */
    public int failedContainerType()
    {
        return failedContainerType;
    }

    /**
     * @return a constant text saying why the last refused message was refused.
     */
    public String errorDescription()
    {
        return errorDescription;
    }
}
