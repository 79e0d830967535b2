package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Buffer;

/**
 * Receives the entries of a FieldList from {@link FieldListDecoder}, one typed call per entry, chosen by the field's
 * RWF type in the dictionary. Buffers are valid only during the call.
 */
public interface FieldListHandler
{
    /**
     * @param fid      field id.
     * @param mantissa value = mantissa x 10^(hint - 14) for hints 0..21; fractions 1/2^(hint - 22) for 22..30.
     * @param hint     ETA {@code RealHints} value (33..35 infinity/NaN carry mantissa 0).
     */
    void onReal(int fid, long mantissa, int hint);

    /**
     * @param fid   field id.
     * @param value unsigned value (UINT; read as unsigned 64-bit).
     */
    void onUInt(int fid, long value);

    /**
     * @param fid   field id.
     * @param value signed value (INT).
     */
    void onInt(int fid, long value);

    /**
     * @param fid   field id.
     * @param value enumerated value.
     */
    void onEnum(int fid, int value);

    /**
     * @param fid   field id.
     * @param day   1..31.
     * @param month 1..12.
     * @param year  full year.
     */
    void onDate(int fid, int day, int month, int year);

    /**
     * @param fid         field id.
     * @param hour        0..23.
     * @param minute      0..59.
     * @param second      0..60.
     * @param millisecond 0..999.
     * @param microsecond 0..999.
     * @param nanosecond  0..999.
     */
    void onTime(int fid, int hour, int minute, int second, int millisecond, int microsecond, int nanosecond);

    /**
     * @param fid      field id.
     * @param dataType the ETA DataTypes value from the dictionary (RMTES_STRING, ASCII_STRING, BUFFER, UTF8_STRING).
     * @param value    the bytes.
     */
    void onString(int fid, int dataType, Buffer value);

    /**
     * @param fid      field id.
     * @param dataType the ETA DataTypes value from the dictionary.
     */
    void onBlank(int fid, int dataType);

    /**
     * A field the handler has no typed call for: not in the dictionary, or of another type (DATETIME, containers...).
     *
     * @param fid      field id.
     * @param dataType the ETA DataTypes value from the dictionary, or UNKNOWN when the field is not in it.
     * @param encoded  the encoded value.
     */
    void onOther(int fid, int dataType, Buffer encoded);
}
