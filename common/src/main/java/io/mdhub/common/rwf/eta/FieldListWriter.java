package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Date;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.Time;
import com.refinitiv.eta.codec.UInt;

/**
 * Writes the entries of one FieldList with reused ETA objects. Methods chain; the first failure is kept and every
 * later call becomes a no-op, so the caller checks {@link #status()} (or the result of the message completion) once.
 * The caller picks the method that matches the field's RWF type in the dictionary (sizes and volumes are Reals).
 * Blanks are written as zero-length entries.
 */
public final class FieldListWriter
{
    private static final int MAX_STRING_LENGTH = 0xFFFF;

    private final FieldList fieldList = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();
    private final Real real = CodecFactory.createReal();
    private final UInt uint = CodecFactory.createUInt();
    private final Int signed = CodecFactory.createInt();
    private final Enum enumValue = CodecFactory.createEnum();
    private final Date date = CodecFactory.createDate();
    private final Time time = CodecFactory.createTime();
    private final Buffer string = CodecFactory.createBuffer();
    private final ByteBuffer stringCopy = ByteBuffer.allocateDirect(MAX_STRING_LENGTH);
    private EncodeIterator iterator;
    private int status = CodecReturnCodes.SUCCESS;

    int begin(final EncodeIterator iterator, final int dictionaryId, final int fieldListNum)
    {
        this.iterator = iterator;
        fieldList.clear();
        fieldList.applyHasStandardData();
        if (dictionaryId > 0)
        {
            fieldList.applyHasInfo();
            fieldList.dictionaryId(dictionaryId);
            fieldList.fieldListNum(fieldListNum);
        }
        status = fieldList.encodeInit(iterator, null, 0);
        return status;
    }

    int complete()
    {
        final int result = fieldList.encodeComplete(iterator, CodecReturnCodes.SUCCESS == status);
        if (CodecReturnCodes.SUCCESS == status)
        {
            status = result;
        }
        return status;
    }

    /**
     * @return SUCCESS, or the first failure since the list began.
     */
    public int status()
    {
        return status;
    }

    private boolean start(final int fid, final int dataType)
    {
        if (CodecReturnCodes.SUCCESS != status)
        {
            return false;
        }
        entry.clear();
        entry.fieldId(fid);
        entry.dataType(dataType);
        return true;
    }

    private FieldListWriter result(final int code)
    {
        if (code < CodecReturnCodes.SUCCESS)
        {
            status = code;
        }
        return this;
    }

    /**
     * @param fid      field id.
     * @param mantissa value = mantissa x 10^(hint - 14) for hints 0..21 ({@code RealHints}).
     * @param hint     a {@code RealHints} value, e.g. EXPONENT_2 for two decimals.
     * @return this.
     */
    public FieldListWriter real(final int fid, final long mantissa, final int hint)
    {
        if (!start(fid, DataTypes.REAL))
        {
            return this;
        }
        real.value(mantissa, hint);
        return result(entry.encode(iterator, real));
    }

    /**
     * @param fid   field id.
     * @param value unsigned value.
     * @return this.
     */
    public FieldListWriter uint(final int fid, final long value)
    {
        if (!start(fid, DataTypes.UINT))
        {
            return this;
        }
        uint.value(value);
        return result(entry.encode(iterator, uint));
    }

    /**
     * @param fid   field id.
     * @param value signed value.
     * @return this.
     */
    public FieldListWriter integer(final int fid, final long value)
    {
        if (!start(fid, DataTypes.INT))
        {
            return this;
        }
        signed.value(value);
        return result(entry.encode(iterator, signed));
    }

    /**
     * @param fid   field id.
     * @param value enumerated value (see enumtype.def).
     * @return this.
     */
    public FieldListWriter enumValue(final int fid, final int value)
    {
        if (!start(fid, DataTypes.ENUM))
        {
            return this;
        }
        enumValue.value(value);
        return result(entry.encode(iterator, enumValue));
    }

    /**
     * @param fid   field id.
     * @param day   1..31.
     * @param month 1..12.
     * @param year  e.g. 2025.
     * @return this.
     */
    public FieldListWriter date(final int fid, final int day, final int month, final int year)
    {
        if (!start(fid, DataTypes.DATE))
        {
            return this;
        }
        date.clear();
        date.day(day);
        date.month(month);
        date.year(year);
        return result(entry.encode(iterator, date));
    }

    /**
     * @param fid         field id.
     * @param hour        0..23.
     * @param minute      0..59.
     * @param second      0..60.
     * @param millisecond 0..999.
     * @return this.
     */
    public FieldListWriter time(
        final int fid, final int hour, final int minute, final int second, final int millisecond)
    {
        if (!start(fid, DataTypes.TIME))
        {
            return this;
        }
        time.clear();
        time.hour(hour);
        time.minute(minute);
        time.second(second);
        time.millisecond(millisecond);
        return result(entry.encode(iterator, time));
    }

    /**
     * Write a string field (RMTES_STRING, ASCII_STRING or BUFFER in the dictionary: the bytes are the same).
     *
     * @param fid    field id.
     * @param value  ETA buffer with the bytes.
     * @return this.
     */
    public FieldListWriter string(final int fid, final Buffer value)
    {
        if (!start(fid, DataTypes.BUFFER))
        {
            return this;
        }
        return result(entry.encode(iterator, value));
    }

    /**
     * Write a string field from an Agrona buffer (copied into a reused buffer first).
     *
     * @param fid    field id.
     * @param source buffer with the bytes.
     * @param offset of the first byte.
     * @param length number of bytes, at most 65535.
     * @return this.
     */
    public FieldListWriter string(final int fid, final DirectBuffer source, final int offset, final int length)
    {
        stringCopy.clear();
        source.getBytes(offset, stringCopy, 0, length);
        string.data(stringCopy, 0, length);
        return string(fid, string);
    }

    /**
     * @param fid field id.
     * @return this, after writing a zero-length (blank) entry.
     */
    public FieldListWriter blank(final int fid)
    {
        // The data type only matters for set-defined lists; a blank standard entry is a zero length whatever its type.
        if (!start(fid, DataTypes.BUFFER))
        {
            return this;
        }
        return result(entry.encodeBlank(iterator));
    }
}
