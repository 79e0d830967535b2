package io.mdhub.benchmarks.source;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

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

/**
 * Reads the payload of batch messages with ETA: the {@code :ItemList} of a batch request (names, kept in one
 * growable byte array) and the {@code :StreamIdList} of a batch close. Reused objects; one per connection.
 */
final class SinkBatchLists
{
    private static final int MAX_ENTRIES = 100_000;

    private final ElementList elementList = CodecFactory.createElementList();
    private final ElementEntry elementEntry = CodecFactory.createElementEntry();
    private final Array array = CodecFactory.createArray();
    private final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
    private final Buffer text = CodecFactory.createBuffer();
    private final Int integer = CodecFactory.createInt();
    private final IntArrayList offsets = new IntArrayList();
    private final IntArrayList lengths = new IntArrayList();
    private final IntArrayList streamIds = new IntArrayList();
    private final UnsafeBuffer names = new UnsafeBuffer(new byte[4096]);

    /**
     * @param iterator positioned on the request's ElementList.
     * @return how many names, or -1 when there is no well-formed {@code :ItemList} (an over-long name included).
     */
    int decodeItemList(final DecodeIterator iterator)
    {
        offsets.clear();
        lengths.clear();
        if (!findArray(iterator, ElementNames.BATCH_ITEM_LIST))
        {
            return -1;
        }
        int used = 0;
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = arrayEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result || CodecReturnCodes.SUCCESS != text.decode(iterator) ||
                text.length() > SinkMessages.MAX_NAME_LENGTH || offsets.size() >= MAX_ENTRIES)
            {
                return -1;
            }
            final int length = text.length();
            if (used + length > names.capacity())
            {
                final byte[] grown = new byte[Math.max(names.capacity() * 2, used + length)];
                names.getBytes(0, grown, 0, used);
                names.wrap(grown);
            }
            names.putBytes(used, text.data(), text.position(), length);
            offsets.addInt(used);
            lengths.addInt(length);
            used += length;
        }
        return offsets.size();
    }

    /**
     * @return the names of the last item list.
     */
    UnsafeBuffer names()
    {
        return names;
    }

    int nameOffset(final int index)
    {
        return offsets.getInt(index);
    }

    int nameLength(final int index)
    {
        return lengths.getInt(index);
    }

    /**
     * @param iterator positioned on the close's ElementList.
     * @return the stream ids, or null when there is no well-formed {@code :StreamIdList}.
     */
    IntArrayList decodeStreamIdList(final DecodeIterator iterator)
    {
        streamIds.clear();
        if (!findArray(iterator, ElementNames.BATCH_STREAMID_LIST))
        {
            return null;
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = arrayEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result || CodecReturnCodes.SUCCESS != integer.decode(iterator) ||
                streamIds.size() >= MAX_ENTRIES)
            {
                return null;
            }
            streamIds.addInt((int)integer.toLong());
        }
        return streamIds;
    }

    private boolean findArray(final DecodeIterator iterator, final Buffer wanted)
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
            if (DataTypes.ARRAY == elementEntry.dataType() && elementEntry.name().equals(wanted))
            {
                array.clear();
                return CodecReturnCodes.SUCCESS == array.decode(iterator);
            }
        }
        return false;
    }
}
