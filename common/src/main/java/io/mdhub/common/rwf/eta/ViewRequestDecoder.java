package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.ViewTypes;
import org.agrona.collections.IntArrayList;

import io.mdhub.common.rwf.FieldView;

/**
 * Reads the view of a request (the request flag HAS_VIEW) with ETA: {@code :ViewType} (absent means 1, a field id
 * list) and {@code :ViewData}, an Array of field ids, from the request's ElementList payload, which a batch request
 * shares with its {@code :ItemList}. Field-id views only: an element-name view (type 2) is refused by the caller with
 * the reason {@link #error()} gives. Reused objects: one instance per thread; requests are not a hot path.
 */
public final class ViewRequestDecoder
{
    /** Most field ids a view may name. */
    public static final int MAX_FIELDS = 4096;

    private final ElementList elementList = CodecFactory.createElementList();
    private final ElementEntry elementEntry = CodecFactory.createElementEntry();
    private final Array array = CodecFactory.createArray();
    private final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
    private final Int intValue = CodecFactory.createInt();
    private final UInt uintValue = CodecFactory.createUInt();
    private final IntArrayList fieldIds = new IntArrayList();
    private FieldView view;
    private String error;

    /**
     * @param iterator positioned on the request's payload (an ElementList).
     * @return true with {@link #view()} set, or false with {@link #error()} saying why.
     */
    public boolean decode(final DecodeIterator iterator)
    {
        view = null;
        error = null;
        fieldIds.clear();
        try
        {
            return decodeView(iterator);
        }
        catch (final RuntimeException ex)
        {
            EtaDecoding.malformed();
            return fail("malformed view request");
        }
    }

    private boolean decodeView(final DecodeIterator iterator)
    {
        long viewType = ViewTypes.FIELD_ID_LIST;
        boolean hasData = false;
        elementList.clear();
        if (CodecReturnCodes.SUCCESS != elementList.decode(iterator, null))
        {
            return fail("the view request's payload is not an element list");
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = elementEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result)
            {
                return fail("malformed element list in the view request");
            }
            if (elementEntry.name().equals(ElementNames.VIEW_TYPE))
            {
                if (DataTypes.UINT != elementEntry.dataType() || CodecReturnCodes.SUCCESS != uintValue.decode(iterator))
                {
                    return fail(":ViewType must be a UInt");
                }
                viewType = uintValue.toLong();
            }
            else if (elementEntry.name().equals(ElementNames.VIEW_DATA))
            {
                if (DataTypes.ARRAY != elementEntry.dataType() || !decodeFieldIds(iterator))
                {
                    return null == error ? fail(":ViewData must be an Array of field ids (Int)") : false;
                }
                hasData = true;
            }
        }
        if (ViewTypes.FIELD_ID_LIST != viewType)
        {
            return fail("view type " + viewType + (ViewTypes.ELEMENT_NAME_LIST == viewType ?
                " (element names) is not supported: use view type 1, a field id list" : " is not defined"));
        }
        if (!hasData)
        {
            return fail("the view request has no :ViewData");
        }
        view = FieldView.of(fieldIds.toIntArray());
        return true;
    }

    private boolean decodeFieldIds(final DecodeIterator iterator)
    {
        array.clear();
        if (CodecReturnCodes.SUCCESS != array.decode(iterator))
        {
            return false;
        }
        final int primitiveType = array.primitiveType();
        if (DataTypes.INT != primitiveType && DataTypes.UINT != primitiveType)
        {
            return false;
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = arrayEntry.decode(iterator)))
        {
            if (CodecReturnCodes.SUCCESS != result)
            {
                return false;
            }
            final long fid;
            if (DataTypes.INT == primitiveType)
            {
                if (CodecReturnCodes.SUCCESS != intValue.decode(iterator))
                {
                    return false;
                }
                fid = intValue.toLong();
            }
            else
            {
                if (CodecReturnCodes.SUCCESS != uintValue.decode(iterator))
                {
                    return false;
                }
                fid = uintValue.toLong();
            }
            if (fid < Short.MIN_VALUE || fid > Short.MAX_VALUE)
            {
                return fail(":ViewData names field id " + fid + ", outside -32768..32767");
            }
            if (fieldIds.size() >= MAX_FIELDS)
            {
                return fail("a view may name at most " + MAX_FIELDS + " field ids");
            }
            fieldIds.addInt((int)fid);
        }
        return true;
    }

    private boolean fail(final String why)
    {
        error = why;
        return false;
    }

    /**
     * @return the view decoded by the last successful {@link #decode}.
     */
    public FieldView view()
    {
        return view;
    }

    /**
     * @return why the last {@link #decode} failed.
     */
    public String error()
    {
        return error;
    }
}
