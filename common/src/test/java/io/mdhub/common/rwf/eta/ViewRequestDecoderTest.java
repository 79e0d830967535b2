package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.ViewTypes;

import io.mdhub.common.test.InterruptAfter;

/**
 * View requests as ETA applications encode them: field-id views with Int or UInt arrays, with or without a view type,
 * beside a batch's item list; element-name views and ids outside int16 refused with a reason.
 */
@InterruptAfter(30)
class ViewRequestDecoderTest
{
    private final ViewRequestDecoder decoder = new ViewRequestDecoder();

    @Test
    void readsAFieldIdViewBesideABatchItemList()
    {
        assertTrue(decoder.decode(payload(ViewTypes.FIELD_ID_LIST, DataTypes.INT, true, 25, 22, 22)),
            decoder::error);
        assertArrayEquals(new int[] {22, 25}, decoder.view().fieldIds());
    }

    @Test
    void aMissingViewTypeMeansFieldIdsAndUIntIdsAreAccepted()
    {
        assertTrue(decoder.decode(payload(-1, DataTypes.UINT, false, 6, 32)), decoder::error);
        assertArrayEquals(new int[] {6, 32}, decoder.view().fieldIds());
    }

    @Test
    void refusesElementNameViewsMissingDataAndIdsOutsideInt16()
    {
        assertFalse(decoder.decode(payload(ViewTypes.ELEMENT_NAME_LIST, DataTypes.INT, false, 1)));
        assertTrue(decoder.error().contains("element names"), decoder.error());
        assertFalse(decoder.decode(payload(ViewTypes.FIELD_ID_LIST, -1, false)));
        assertEquals("the view request has no :ViewData", decoder.error());
        assertFalse(decoder.decode(payload(ViewTypes.FIELD_ID_LIST, DataTypes.INT, false, 40_000)));
        assertTrue(decoder.error().contains("40000"), decoder.error());
    }

    private static DecodeIterator payload(
        final long viewType, final int arrayType, final boolean withItemList, final int... fieldIds)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(1024);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(bytes);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        final ElementList list = CodecFactory.createElementList();
        list.applyHasStandardData();
        check(list.encodeInit(it, null, 0));
        final ElementEntry entry = CodecFactory.createElementEntry();
        if (withItemList)
        {
            entry.clear();
            entry.name(ElementNames.BATCH_ITEM_LIST);
            entry.dataType(DataTypes.ARRAY);
            check(entry.encodeInit(it, 0));
            final Array array = CodecFactory.createArray();
            array.primitiveType(DataTypes.ASCII_STRING);
            check(array.encodeInit(it));
            final Buffer name = CodecFactory.createBuffer();
            name.data("A.N");
            check(CodecFactory.createArrayEntry().encode(it, name));
            check(array.encodeComplete(it, true));
            check(entry.encodeComplete(it, true));
        }
        if (viewType >= 0)
        {
            entry.clear();
            entry.name(ElementNames.VIEW_TYPE);
            entry.dataType(DataTypes.UINT);
            final UInt type = CodecFactory.createUInt();
            type.value(viewType);
            check(entry.encode(it, type));
        }
        if (arrayType >= 0)
        {
            entry.clear();
            entry.name(ElementNames.VIEW_DATA);
            entry.dataType(DataTypes.ARRAY);
            check(entry.encodeInit(it, 0));
            final Array array = CodecFactory.createArray();
            array.primitiveType(arrayType);
            check(array.encodeInit(it));
            final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
            for (final int fid : fieldIds)
            {
                if (DataTypes.INT == arrayType)
                {
                    final Int value = CodecFactory.createInt();
                    value.value(fid);
                    check(arrayEntry.encode(it, value));
                }
                else
                {
                    final UInt value = CodecFactory.createUInt();
                    value.value(fid);
                    check(arrayEntry.encode(it, value));
                }
            }
            check(array.encodeComplete(it, true));
            check(entry.encodeComplete(it, true));
        }
        check(list.encodeComplete(it, true));
        final Buffer encoded = CodecFactory.createBuffer();
        encoded.data(bytes, 0, bytes.position());
        final DecodeIterator decode = CodecFactory.createDecodeIterator();
        decode.setBufferAndRWFVersion(encoded, Codec.majorVersion(), Codec.minorVersion());
        return decode;
    }

    private static void check(final int result)
    {
        assertTrue(result >= CodecReturnCodes.SUCCESS, () -> CodecReturnCodes.toString(result));
    }
}
