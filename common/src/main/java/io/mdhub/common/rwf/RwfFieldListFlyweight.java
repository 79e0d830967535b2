package io.mdhub.common.rwf;

import org.agrona.DirectBuffer;

/**
 * Iterates over an RWF FieldList in place, without allocating and without a dictionary: every entry is a field id
 * and the offset and length of its encoded value (the receiver knows each field's type from its dictionary).
 * <pre>
 *  flags u8            0x01 HAS_FIELD_LIST_INFO, 0x02 HAS_SET_DATA, 0x04 HAS_SET_ID, 0x08 HAS_STANDARD_DATA
 *  [info]              0x01: infoLength u8, then dictionaryId u15rb, fieldListNum int16 (infoLength covers both)
 *  [setId u15rb]       0x04
 *  [set data]          0x02: set-defined entries, readable only with the set definitions of the message
 *  count uint16        standard entries (present with 0x08)
 *  entry               fieldId int16 (may be negative), value length u16ob, value bytes
 * </pre>
 * {@link #wrap(DirectBuffer, int, int)} checks the whole list once (every entry inside the region), so iteration
 * afterwards needs no checks. It never throws on bad input and never reads outside the region: it returns false and
 * {@link #error()} says why. Set-defined data is reported as {@link Error#SET_DATA_UNSUPPORTED} rather than skipped,
 * because silently dropping those fields would corrupt a cached image. One instance per thread; reuse it.
 */
public final class RwfFieldListFlyweight
{
    /** Flag: the list carries dictionaryId and fieldListNum. */
    public static final int HAS_FIELD_LIST_INFO = 0x01;
    /** Flag: the list carries set-defined data. */
    public static final int HAS_SET_DATA = 0x02;
    /** Flag: the set data names its set definition. */
    public static final int HAS_SET_ID = 0x04;
    /** Flag: the list carries standard (fid, length, value) entries. */
    public static final int HAS_STANDARD_DATA = 0x08;

    /** Size of a field id on the wire. */
    public static final int FIELD_ID_SIZE = 2;
    /** Size of the entry count on the wire. */
    public static final int COUNT_SIZE = 2;

    /**
     * Why a FieldList was refused.
     */
    public enum Error
    {
        /** The list was read without problems. */
        NONE("no error"),
        /** The region lies outside the buffer. */
        OUTSIDE_BUFFER("field list region lies outside the buffer"),
        /** The list is shorter than its flags, info or count need. */
        TRUNCATED("field list shorter than its header"),
        /** The info block is too short or runs past the end. */
        BAD_INFO("field list info is malformed"),
        /** Set-defined data cannot be read without its set definitions. */
        SET_DATA_UNSUPPORTED("set-defined field list data is not supported"),
        /** An entry's field id, length or value runs past the end. */
        ENTRY_OVERRUN("a field entry runs past the end of the field list"),
        /** An entry length uses an encoding RWF does not define. */
        INVALID_LENGTH("invalid field entry length encoding");

        private final String description;

        Error(final String description)
        {
            this.description = description;
        }

        /**
         * @return a constant text for logs.
         */
        public String description()
        {
            return description;
        }
    }

    private static final int INFO_MIN_LENGTH = 3;

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int flags;
    private int dictionaryId;
    private int fieldListNum;
    private int count;
    private int entriesOffset;
    private int cursor;
    private int remaining;
    private int fieldId;
    private int entryOffset;
    private int valueOffset;
    private int valueLength;
    private Error error = Error.NONE;

    /**
     * Check the FieldList at [offset, offset + length) and position the iterator before its first entry.
     *
     * @param buffer holding the list.
     * @param offset of the flags byte (a message's payload offset).
     * @param length of the list (a message's payload length).
     * @return true if the list is well formed; otherwise {@link #error()} says why.
     */
    public boolean wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        flags = 0;
        dictionaryId = 0;
        fieldListNum = 0;
        count = 0;
        remaining = 0;
        entriesOffset = offset;
        cursor = offset;
        fieldId = 0;
        valueOffset = 0;
        valueLength = 0;

        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return fail(Error.OUTSIDE_BUFFER);
        }
        final int end = offset + length;
        if (length < 1)
        {
            return fail(Error.TRUNCATED);
        }
        flags = buffer.getByte(offset) & 0xFF;
        int position = offset + 1;
        if (0 != (flags & HAS_FIELD_LIST_INFO))
        {
            position = readInfo(position, end);
            if (position < 0)
            {
                return false;
            }
        }
        if (0 != (flags & (HAS_SET_DATA | HAS_SET_ID)))
        {
            return fail(Error.SET_DATA_UNSUPPORTED);
        }
        if (0 == (flags & HAS_STANDARD_DATA))
        {
            entriesOffset = position;
            cursor = position;
            error = Error.NONE;
            return true;
        }
        if (position + COUNT_SIZE > end)
        {
            return fail(Error.TRUNCATED);
        }
        count = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
        position += COUNT_SIZE;
        entriesOffset = position;
        if (!checkEntries(position, end))
        {
            return false;
        }
        cursor = entriesOffset;
        remaining = count;
        error = Error.NONE;
        return true;
    }

    private int readInfo(final int position, final int end)
    {
        if (position + 1 > end)
        {
            fail(Error.BAD_INFO);
            return -1;
        }
        final int infoLength = buffer.getByte(position) & 0xFF;
        final int infoStart = position + 1;
        final int infoEnd = infoStart + infoLength;
        if (infoLength < INFO_MIN_LENGTH || infoEnd > end)
        {
            fail(Error.BAD_INFO);
            return -1;
        }
        final int idWidth = RwfPrimitives.u15rbWidth(buffer, infoStart);
        if (infoStart + idWidth + 2 > infoEnd)
        {
            fail(Error.BAD_INFO);
            return -1;
        }
        dictionaryId = RwfPrimitives.u15rb(buffer, infoStart);
        fieldListNum = buffer.getShort(infoStart + idWidth, RwfMsgDescriptor.BYTE_ORDER);
        // honour infoLength rather than the members read, as ETA does, so a longer info block is skipped safely
        return infoEnd;
    }

    private boolean checkEntries(final int start, final int end)
    {
        int position = start;
        for (int i = 0; i < count; i++)
        {
            if (position + FIELD_ID_SIZE + 1 > end)
            {
                return fail(Error.ENTRY_OVERRUN);
            }
            position += FIELD_ID_SIZE;
            final int width = RwfPrimitives.u16obWidth(buffer, position);
            if (width < 0)
            {
                return fail(Error.INVALID_LENGTH);
            }
            if (position + width > end)
            {
                return fail(Error.ENTRY_OVERRUN);
            }
            final int entryLength = RwfPrimitives.u16ob(buffer, position);
            position += width;
            if (position + entryLength > end)
            {
                return fail(Error.ENTRY_OVERRUN);
            }
            position += entryLength;
        }
        return true;
    }

    private boolean fail(final Error reason)
    {
        error = reason;
        count = 0;
        remaining = 0;
        return false;
    }

    /**
     * Start the iteration again from the first entry.
     *
     * @return this.
     */
    public RwfFieldListFlyweight rewind()
    {
        cursor = entriesOffset;
        remaining = Error.NONE == error ? count : 0;
        return this;
    }

    /**
     * Move to the next entry.
     *
     * @return true if positioned on an entry ({@link #fieldId()}, {@link #valueOffset()}, {@link #valueLength()}),
     * false at the end of the list.
     */
    public boolean next()
    {
        if (remaining <= 0)
        {
            return false;
        }
        remaining--;
        entryOffset = cursor;
        fieldId = buffer.getShort(cursor, RwfMsgDescriptor.BYTE_ORDER);
        cursor += FIELD_ID_SIZE;
        valueLength = RwfPrimitives.u16ob(buffer, cursor);
        cursor += RwfPrimitives.u16obWidth(buffer, cursor);
        valueOffset = cursor;
        cursor += valueLength;
        return true;
    }

    /**
     * @return why the last wrap failed, or {@link Error#NONE}.
     */
    public Error error()
    {
        return error;
    }

    /**
     * @return the wrapped buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the list.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the list.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return the FieldList flags.
     */
    public int flags()
    {
        return flags;
    }

    /**
     * @return offset of the first standard entry (where the info, set data and count end).
     */
    public int entriesOffset()
    {
        return entriesOffset;
    }

    /**
     * @return true if the list carries dictionaryId and fieldListNum.
     */
    public boolean hasInfo()
    {
        return 0 != (flags & HAS_FIELD_LIST_INFO);
    }

    /**
     * @return the dictionaryId, 0 without info.
     */
    public int dictionaryId()
    {
        return dictionaryId;
    }

    /**
     * @return the fieldListNum, 0 without info.
     */
    public int fieldListNum()
    {
        return fieldListNum;
    }

    /**
     * @return the number of standard entries.
     */
    public int count()
    {
        return count;
    }

    /**
     * @return the field id of the current entry.
     */
    public int fieldId()
    {
        return fieldId;
    }

    /**
     * @return offset of the current entry (its field id) in the buffer; the entry ends at
     * {@link #valueOffset()} + {@link #valueLength()}.
     */
    public int entryOffset()
    {
        return entryOffset;
    }

    /**
     * @return offset of the current entry's value bytes in the buffer.
     */
    public int valueOffset()
    {
        return valueOffset;
    }

    /**
     * @return length of the current entry's value (0 = blank).
     */
    public int valueLength()
    {
        return valueLength;
    }
}
