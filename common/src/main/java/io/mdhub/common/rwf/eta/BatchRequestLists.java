package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.rdm.ElementNames;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the element lists of batch messages with ETA: the {@code :ItemList} (Array of ASCII names) of a batch
 * request and the {@code :StreamIdList} (Array of INT) of a batch close. Used by every RSSL server that accepts
 * batches (the p2p-server, the interactive source). Reused objects: one instance per thread.
 */
public final class BatchRequestLists
{
    /** Longest item name accepted in an item list (a longer one makes the list malformed). */
    public static final int MAX_NAME_LENGTH = 255;
    private static final int MAX_ITEMS = 100_000;

    private final ElementList elementList = CodecFactory.createElementList();
    private final ElementEntry elementEntry = CodecFactory.createElementEntry();
    private final Array array = CodecFactory.createArray();
    private final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
    private final Buffer value = CodecFactory.createBuffer();
    private final Int intValue = CodecFactory.createInt();
    private final IntArrayList nameOffsets = new IntArrayList();
    private final IntArrayList nameLengths = new IntArrayList();
    private final IntArrayList streamIds = new IntArrayList();
    private byte[] names = new byte[4096];
    private final UnsafeBuffer namesBuffer = new UnsafeBuffer(names);

    /**
     * Decode {@code :ItemList} from the payload the iterator is positioned on.
     *
     * @param iterator positioned on the request's payload (an ElementList).
     * @return the number of names, or -1 if the payload is not a well-formed item list.
     */
    public int decodeItemList(final DecodeIterator iterator)
    {
        nameOffsets.clear();
        nameLengths.clear();
        try
        {
            return readItemList(iterator);
        }
        catch (final RuntimeException ex)
        {
            EtaDecoding.malformed();
            nameOffsets.clear();
            nameLengths.clear();
            return -1;
        }
    }

    private int readItemList(final DecodeIterator iterator)
    {
        if (!findArray(iterator, ElementNames.BATCH_ITEM_LIST))
        {
            return -1;
        }
        int used = 0;
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = arrayEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result || CodecReturnCodes.SUCCESS != value.decode(iterator) ||
                value.length() > MAX_NAME_LENGTH || nameOffsets.size() >= MAX_ITEMS)
            {
                return -1;
            }
            final int length = value.length();
            if (used + length > names.length)
            {
                names = java.util.Arrays.copyOf(names, Math.max(names.length * 2, used + length));
                namesBuffer.wrap(names);
            }
            for (int i = 0; i < length; i++)
            {
                names[used + i] = value.data().get(value.position() + i);
            }
            nameOffsets.addInt(used);
            nameLengths.addInt(length);
            used += length;
        }
        return nameOffsets.size();
    }

    /**
     * @return the names of the last item list, one after another (see {@link #nameOffset}, {@link #nameLength}).
     */
    public UnsafeBuffer names()
    {
        return namesBuffer;
    }

    /**
     * @param index a name of the last item list.
     * @return where it starts in {@link #names()}.
     */
    public int nameOffset(final int index)
    {
        return nameOffsets.getInt(index);
    }

    /**
     * @param index a name of the last item list.
     * @return its length (0 for an empty name).
     */
    public int nameLength(final int index)
    {
        return nameLengths.getInt(index);
    }

    /**
     * Decode {@code :StreamIdList} from the payload the iterator is positioned on.
     *
     * @param iterator positioned on the close's payload (an ElementList).
     * @return the stream ids (valid until the next call), or null if the payload is not a well-formed stream id list.
     */
    public IntArrayList decodeStreamIdList(final DecodeIterator iterator)
    {
        streamIds.clear();
        try
        {
            return readStreamIdList(iterator);
        }
        catch (final RuntimeException ex)
        {
            EtaDecoding.malformed();
            streamIds.clear();
            return null;
        }
    }

    private IntArrayList readStreamIdList(final DecodeIterator iterator)
    {
        if (!findArray(iterator, ElementNames.BATCH_STREAMID_LIST))
        {
            return null;
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = arrayEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result || CodecReturnCodes.SUCCESS != intValue.decode(iterator) ||
                streamIds.size() >= MAX_ITEMS)
            {
                return null;
            }
            streamIds.addInt((int)intValue.toLong());
        }
        return streamIds;
    }

    private boolean findArray(final DecodeIterator iterator, final Buffer wantedName)
    {
        elementList.clear();
        if (CodecReturnCodes.SUCCESS != elementList.decode(iterator, null))
        {
            return false;
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = elementEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result)
            {
                return false;
            }
            if (DataTypes.ARRAY == elementEntry.dataType() && elementEntry.name().equals(wantedName))
            {
                array.clear();
                return CodecReturnCodes.SUCCESS == array.decode(iterator);
            }
        }
        return false;
    }
}
