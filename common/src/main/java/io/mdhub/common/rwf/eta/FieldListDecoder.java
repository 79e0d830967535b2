package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Date;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.Time;
import com.refinitiv.eta.codec.UInt;

/**
 * Decodes a FieldList with ETA and hands every entry to a {@link FieldListHandler} as primitives, using the RWF type
 * the dictionary gives each field id. Blank entries (zero length, or the blank forms of Real/Date/Time) arrive as
 * {@link FieldListHandler#onBlank(int, int)}.
 */
public final class FieldListDecoder
{
    private final FieldList fieldList = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();
    private final Real real = CodecFactory.createReal();
    private final UInt uint = CodecFactory.createUInt();
    private final Int intValue = CodecFactory.createInt();
    private final Enum enumValue = CodecFactory.createEnum();
    private final Date date = CodecFactory.createDate();
    private final Time time = CodecFactory.createTime();
    private final com.refinitiv.eta.codec.Buffer string = CodecFactory.createBuffer();

    /**
     * @param iterator   positioned on a FieldList (e.g. {@link EtaMsgReader#iterator()} after a message with
     *                   containerType FIELD_LIST).
     * @param dictionary gives each field's RWF type.
     * @param handler    receives the entries.
     * @return the number of entries decoded, or a negative ETA {@code CodecReturnCodes} error.
     */
    public int decode(final DecodeIterator iterator, final DataDictionary dictionary, final FieldListHandler handler)
    {
        try
        {
            return decodeEntries(iterator, dictionary, handler);
        }
        catch (final RuntimeException ex)
        {
            return EtaDecoding.malformed();
        }
    }

    private int decodeEntries(
        final DecodeIterator iterator, final DataDictionary dictionary, final FieldListHandler handler)
    {
        int result = fieldList.decode(iterator, null);
        if (CodecReturnCodes.SUCCESS != result)
        {
            return result < 0 ? result : CodecReturnCodes.FAILURE;
        }
        int count = 0;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = entry.decode(iterator)))
        {
            if (result < CodecReturnCodes.SUCCESS)
            {
                return result;
            }
            final int fid = entry.fieldId();
            final DictionaryEntry definition = dictionary.entry(fid);
            if (null == definition)
            {
                handler.onOther(fid, DataTypes.UNKNOWN, entry.encodedData());
            }
            else
            {
                result = decodeValue(iterator, fid, definition.rwfType(), handler);
                if (result < CodecReturnCodes.SUCCESS)
                {
                    return result;
                }
            }
            count++;
        }
        return count;
    }

    private int decodeValue(
        final DecodeIterator iterator, final int fid, final int type, final FieldListHandler handler)
    {
        final int result;
        switch (type)
        {
            case DataTypes.REAL:
                result = real.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onReal(fid, real.toLong(), real.hint());
                }
                break;
            case DataTypes.UINT:
                result = uint.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onUInt(fid, uint.toLong());
                }
                break;
            case DataTypes.INT:
                result = intValue.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onInt(fid, intValue.toLong());
                }
                break;
            case DataTypes.ENUM:
                result = enumValue.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onEnum(fid, enumValue.toInt());
                }
                break;
            case DataTypes.DATE:
                result = date.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onDate(fid, date.day(), date.month(), date.year());
                }
                break;
            case DataTypes.TIME:
                result = time.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onTime(fid, time.hour(), time.minute(), time.second(), time.millisecond(),
                        time.microsecond(), time.nanosecond());
                }
                break;
            case DataTypes.RMTES_STRING:
            case DataTypes.ASCII_STRING:
            case DataTypes.UTF8_STRING:
            case DataTypes.BUFFER:
                result = string.decode(iterator);
                if (CodecReturnCodes.SUCCESS == result)
                {
                    handler.onString(fid, type, string);
                }
                break;
            default:
                handler.onOther(fid, type, entry.encodedData());
                return CodecReturnCodes.SUCCESS;
        }
        if (CodecReturnCodes.BLANK_DATA == result)
        {
            handler.onBlank(fid, type);
            return CodecReturnCodes.SUCCESS;
        }
        return result;
    }
}
