package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.ViewTypes;

import io.mdhub.common.rwf.FieldView;

/**
 * Writes the payload of a request with a field-id view, as ETA applications send it: an ElementList with
 * {@code :ViewType} 1 and {@code :ViewData}, an Array of Int field ids. Call between the request's
 * {@code encodeInit} and {@code encodeComplete}. Reused objects: one instance per thread.
 */
public final class ViewRequestEncoder
{
    private final ElementList list = CodecFactory.createElementList();
    private final ElementEntry entry = CodecFactory.createElementEntry();
    private final UInt viewType = CodecFactory.createUInt();
    private final Array array = CodecFactory.createArray();
    private final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
    private final Int fieldId = CodecFactory.createInt();

    /**
     * @param iterator positioned on the request's payload.
     * @param view     the fields to ask for.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encode(final EncodeIterator iterator, final FieldView view)
    {
        list.clear();
        list.applyHasStandardData();
        int result = list.encodeInit(iterator, null, 0);
        if (result < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        entry.clear();
        entry.name(ElementNames.VIEW_TYPE);
        entry.dataType(DataTypes.UINT);
        viewType.value(ViewTypes.FIELD_ID_LIST);
        if ((result = entry.encode(iterator, viewType)) < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        entry.clear();
        entry.name(ElementNames.VIEW_DATA);
        entry.dataType(DataTypes.ARRAY);
        if ((result = entry.encodeInit(iterator, 0)) < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        array.clear();
        array.primitiveType(DataTypes.INT);
        array.itemLength(2);
        if ((result = array.encodeInit(iterator)) < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        for (final int fid : view.fieldIds())
        {
            fieldId.value(fid);
            if ((result = arrayEntry.encode(iterator, fieldId)) < CodecReturnCodes.SUCCESS)
            {
                return result;
            }
        }
        if ((result = array.encodeComplete(iterator, true)) < CodecReturnCodes.SUCCESS ||
            (result = entry.encodeComplete(iterator, true)) < CodecReturnCodes.SUCCESS)
        {
            return result;
        }
        return list.encodeComplete(iterator, true);
    }
}
