package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Date;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.Time;
import com.refinitiv.eta.codec.UInt;

/**
 * Builds FieldLists with ETA's own encoder and reads them back with ETA's decoder: the oracle for the field list
 * flyweight and the item image, and the payload builder for the real ETA provider of the harness. Entries are typed
 * (REAL, UINT, INT, ENUM, DATE, TIME, ASCII, RMTES) or blank, as a provider would send them.
 */
public final class EtaFieldLists
{
    private final ByteBuffer data = ByteBuffer.allocate(65_536 * 4);
    private final Buffer buffer = CodecFactory.createBuffer();
    private final EncodeIterator iterator = CodecFactory.createEncodeIterator();
    private final FieldList fieldList = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();

    /**
     * Start a list.
     *
     * @param dictionaryId dictionary id for the info block, or 0 for none.
     * @param fieldListNum field list number for the info block.
     * @return this.
     */
    public EtaFieldLists begin(final int dictionaryId, final int fieldListNum)
    {
        data.clear();
        buffer.data(data);
        iterator.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        fieldList.clear();
        fieldList.applyHasStandardData();
        if (dictionaryId > 0)
        {
            fieldList.applyHasInfo();
            fieldList.dictionaryId(dictionaryId);
            fieldList.fieldListNum(fieldListNum);
        }
        assertEquals(CodecReturnCodes.SUCCESS, fieldList.encodeInit(iterator, null, 0));
        return this;
    }

    /**
     * @param fid      field id.
     * @param mantissa REAL mantissa.
     * @param hint     REAL hint.
     * @return this.
     */
    public EtaFieldLists real(final int fid, final long mantissa, final int hint)
    {
        final Real real = CodecFactory.createReal();
        real.value(mantissa, hint);
        start(fid, DataTypes.REAL);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, real));
        return this;
    }

    /**
     * @param fid   field id.
     * @param value UINT value.
     * @return this.
     */
    public EtaFieldLists uint(final int fid, final long value)
    {
        final UInt uint = CodecFactory.createUInt();
        uint.value(value);
        start(fid, DataTypes.UINT);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, uint));
        return this;
    }

    /**
     * @param fid   field id.
     * @param value ASCII text.
     * @return this.
     */
    public EtaFieldLists ascii(final int fid, final String value)
    {
        final Buffer text = CodecFactory.createBuffer();
        text.data(value);
        start(fid, DataTypes.ASCII_STRING);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, text));
        return this;
    }

    /**
     * @param fid   field id.
     * @param value INT value.
     * @return this.
     */
    public EtaFieldLists intValue(final int fid, final long value)
    {
        final Int integer = CodecFactory.createInt();
        integer.value(value);
        start(fid, DataTypes.INT);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, integer));
        return this;
    }

    /**
     * @param fid   field id.
     * @param value ENUM value.
     * @return this.
     */
    public EtaFieldLists enumValue(final int fid, final int value)
    {
        final Enum enumValue = CodecFactory.createEnum();
        enumValue.value(value);
        start(fid, DataTypes.ENUM);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, enumValue));
        return this;
    }

    /**
     * @param fid   field id.
     * @param year  year.
     * @param month month, 1-12.
     * @param day   day of month.
     * @return this.
     */
    public EtaFieldLists date(final int fid, final int year, final int month, final int day)
    {
        final Date date = CodecFactory.createDate();
        date.year(year);
        date.month(month);
        date.day(day);
        start(fid, DataTypes.DATE);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, date));
        return this;
    }

    /**
     * @param fid         field id.
     * @param hour        hour.
     * @param minute      minute.
     * @param second      second.
     * @param millisecond millisecond.
     * @return this.
     */
    public EtaFieldLists time(final int fid, final int hour, final int minute, final int second, final int millisecond)
    {
        final Time time = CodecFactory.createTime();
        time.hour(hour);
        time.minute(minute);
        time.second(second);
        time.millisecond(millisecond);
        start(fid, DataTypes.TIME);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, time));
        return this;
    }

    /**
     * @param fid   field id.
     * @param value plain text (no RMTES escape sequences).
     * @return this.
     */
    public EtaFieldLists rmtes(final int fid, final String value)
    {
        final Buffer text = CodecFactory.createBuffer();
        text.data(value);
        start(fid, DataTypes.RMTES_STRING);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(iterator, text));
        return this;
    }

    /**
     * @param fid field id.
     * @return this.
     */
    public EtaFieldLists blank(final int fid)
    {
        start(fid, DataTypes.REAL);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encodeBlank(iterator));
        return this;
    }

    private void start(final int fid, final int dataType)
    {
        entry.clear();
        entry.fieldId(fid);
        entry.dataType(dataType);
    }

    /**
     * Finish the list.
     *
     * @return the encoded FieldList.
     */
    public byte[] end()
    {
        assertEquals(CodecReturnCodes.SUCCESS, fieldList.encodeComplete(iterator, true));
        final byte[] out = new byte[data.position()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = data.get(i);
        }
        return out;
    }

    /**
     * Decode a FieldList with ETA.
     *
     * @param bytes the encoded list.
     * @return fid to encoded value bytes, in wire order.
     */
    public static Map<Integer, byte[]> decode(final byte[] bytes)
    {
        final Buffer source = CodecFactory.createBuffer();
        source.data(ByteBuffer.wrap(bytes));
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(source, Codec.majorVersion(), Codec.minorVersion());
        return decode(it);
    }

    /**
     * Decode a FieldList with ETA from an iterator positioned on it.
     *
     * @param it the iterator.
     * @return fid to encoded value bytes, in wire order.
     */
    public static Map<Integer, byte[]> decode(final DecodeIterator it)
    {
        final FieldList list = CodecFactory.createFieldList();
        final FieldEntry fieldEntry = CodecFactory.createFieldEntry();
        assertEquals(CodecReturnCodes.SUCCESS, list.decode(it, null), "ETA FieldList decode");
        final Map<Integer, byte[]> fields = new LinkedHashMap<>();
        int ret;
        while (CodecReturnCodes.END_OF_CONTAINER != (ret = fieldEntry.decode(it)))
        {
            assertEquals(CodecReturnCodes.SUCCESS, ret, "ETA FieldEntry decode");
            final Buffer value = fieldEntry.encodedData();
            final byte[] bytes = new byte[value.length()];
            for (int i = 0; i < bytes.length; i++)
            {
                bytes[i] = value.data().get(value.position() + i);
            }
            fields.put(fieldEntry.fieldId(), bytes);
        }
        return fields;
    }

    /**
     * @param bytes an encoded FieldList.
     * @return the ETA FieldList header (flags, info) as decoded by ETA.
     */
    public static FieldList decodeHeader(final byte[] bytes)
    {
        final Buffer source = CodecFactory.createBuffer();
        source.data(ByteBuffer.wrap(bytes));
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(source, Codec.majorVersion(), Codec.minorVersion());
        final FieldList list = CodecFactory.createFieldList();
        assertEquals(CodecReturnCodes.SUCCESS, list.decode(it, null));
        return list;
    }
}
