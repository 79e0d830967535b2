package io.mdhub.common.rwf;

import org.agrona.DirectBuffer;

/**
 * Iterates over an RWF Map in place, without allocating: the header (key type, entry container type, key field id,
 * set definitions, summary data, count) and, per entry, its action, permission data, encoded key and encoded payload.
 * <pre>
 *  flags u8              0x01 HAS_SET_DEFS, 0x02 HAS_SUMMARY_DATA, 0x04 HAS_PER_ENTRY_PERM_DATA,
 *                        0x08 HAS_TOTAL_COUNT_HINT, 0x10 HAS_KEY_FIELD_ID
 *  keyPrimitiveType u8   the raw DataTypes value of every key (4 UINT, 8 REAL, 16 BUFFER, 17 ASCII_STRING ...)
 *  containerType u8      the entries' container, DataTypes value - 128 (4 FIELD_LIST ...)
 *  [keyFieldId int16]    0x10
 *  [setDefs]             0x01: u15rb length + bytes
 *  [summary]             0x02: u15rb length + bytes, encoded as the entries' container
 *  [totalCountHint]      0x08: u30rb
 *  count uint16
 *  entry                 u8 (entryFlags &lt;&lt; 4 | action: 1 UPDATE, 2 ADD, 3 DELETE); [permData: u15rb length +
 *                        bytes] when both the map and the entry (0x1) say so; key: u15rb length + the key's
 *                        primitive encoding; payload: u16ob length + bytes, absent for DELETE and for a NO_DATA map
 * </pre>
 * (the order and widths are those of ETA 3.9's {@code Decoders.decodeMap}/{@code decodeMapEntry}). An empty region is
 * a Map without a header or entries, as ETA reports NO_DATA for it. {@link #wrap(DirectBuffer, int, int)} checks the
 * whole Map once — header, every entry inside the region, every action known — so iteration afterwards needs no
 * checks. It never throws on bad input and never reads outside the region: it returns false and {@link #error()} says
 * why. Entry payloads are not looked into. One instance per thread; reuse it.
 */
public final class RwfMapFlyweight
{
    /** Flag: the map carries set definitions. */
    public static final int HAS_SET_DEFS = 0x01;
    /** Flag: the map carries summary data. */
    public static final int HAS_SUMMARY_DATA = 0x02;
    /** Flag: entries may carry permission data. */
    public static final int HAS_PER_ENTRY_PERM_DATA = 0x04;
    /** Flag: the map carries a total count hint. */
    public static final int HAS_TOTAL_COUNT_HINT = 0x08;
    /** Flag: the map names the field id its keys stand for. */
    public static final int HAS_KEY_FIELD_ID = 0x10;

    /** Entry flag: the entry carries permission data. */
    public static final int ENTRY_HAS_PERM_DATA = 0x01;

    /** Entry action: change an existing entry. */
    public static final int UPDATE = 1;
    /** Entry action: add an entry, or replace it. */
    public static final int ADD = 2;
    /** Entry action: remove an entry. */
    public static final int DELETE = 3;

    /** Offset added to a container type on the wire to give its DataTypes value. */
    public static final int CONTAINER_TYPE_MIN = 128;
    /** DataTypes value of NO_DATA. */
    public static final int NO_DATA = 128;

    private static final int MIN_LENGTH = 5;
    private static final int COUNT_SIZE = 2;
    private static final int KEY_FIELD_ID_SIZE = 2;

    /**
     * Why a Map was refused.
     */
    public enum Error
    {
        /** The map was read without problems. */
        NONE("no error"),
        /** The region lies outside the buffer. */
        OUTSIDE_BUFFER("map region lies outside the buffer"),
        /** The map is shorter than its header needs. */
        TRUNCATED("map shorter than its header"),
        /** Set definitions or summary data run past the end. */
        BAD_HEADER("map set definitions or summary data run past the end"),
        /** An entry's permission data, key or payload runs past the end. */
        ENTRY_OVERRUN("a map entry runs past the end of the map"),
        /** An entry length uses an encoding RWF does not define. */
        INVALID_LENGTH("invalid map entry length encoding"),
        /** An entry action other than UPDATE, ADD or DELETE. */
        INVALID_ACTION("invalid map entry action");

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

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private boolean isEmpty;
    private int flags;
    private int keyPrimitiveType;
    private int containerType;
    private int keyFieldId;
    private int setDefsOffset;
    private int setDefsLength;
    private int summaryOffset;
    private int summaryLength;
    private int totalCountHint;
    private int count;
    private int entriesOffset;
    private int end;
    private int cursor;
    private int remaining;
    private int action;
    private int entryFlags;
    private int permOffset;
    private int permLength;
    private int keyOffset;
    private int keyLength;
    private int payloadOffset;
    private int payloadLength;
    private Error error = Error.NONE;

    /**
     * Check the Map at [offset, offset + length) and position the iterator before its first entry.
     *
     * @param buffer holding the map.
     * @param offset of the flags byte (a message's payload offset).
     * @param length of the map (a message's payload length).
     * @return true if the map is well formed; otherwise {@link #error()} says why.
     */
    public boolean wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        reset(buffer, offset, length);
        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return fail(Error.OUTSIDE_BUFFER);
        }
        end = offset + length;
        if (0 == length)
        {
            isEmpty = true;
            error = Error.NONE;
            return true;
        }
        if (length < MIN_LENGTH)
        {
            return fail(Error.TRUNCATED);
        }
        flags = buffer.getByte(offset) & 0xFF;
        keyPrimitiveType = buffer.getByte(offset + 1) & 0xFF;
        containerType = (buffer.getByte(offset + 2) & 0xFF) + CONTAINER_TYPE_MIN;
        int position = offset + 3;
        if (0 != (flags & HAS_KEY_FIELD_ID))
        {
            if (position + KEY_FIELD_ID_SIZE > end)
            {
                return fail(Error.TRUNCATED);
            }
            keyFieldId = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER);
            position += KEY_FIELD_ID_SIZE;
        }
        if (0 != (flags & HAS_SET_DEFS))
        {
            position = readBuffer15(position);
            if (position < 0)
            {
                return fail(Error.BAD_HEADER);
            }
            setDefsOffset = permOffset;
            setDefsLength = permLength;
        }
        if (0 != (flags & HAS_SUMMARY_DATA))
        {
            position = readBuffer15(position);
            if (position < 0)
            {
                return fail(Error.BAD_HEADER);
            }
            summaryOffset = permOffset;
            summaryLength = permLength;
        }
        if (0 != (flags & HAS_TOTAL_COUNT_HINT))
        {
            if (position + 1 > end || position + RwfPrimitives.u30rbWidth(buffer, position) > end)
            {
                return fail(Error.TRUNCATED);
            }
            totalCountHint = RwfPrimitives.u30rb(buffer, position);
            position += RwfPrimitives.u30rbWidth(buffer, position);
        }
        if (position + COUNT_SIZE > end)
        {
            return fail(Error.TRUNCATED);
        }
        count = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
        position += COUNT_SIZE;
        entriesOffset = position;
        clearEntry();
        cursor = entriesOffset;
        for (int i = 0; i < count; i++)
        {
            cursor = readEntry(cursor);
            if (cursor < 0)
            {
                return false;
            }
        }
        clearEntry();
        cursor = entriesOffset;
        remaining = count;
        error = Error.NONE;
        return true;
    }

    private void reset(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        isEmpty = false;
        flags = 0;
        keyPrimitiveType = 0;
        containerType = NO_DATA;
        keyFieldId = 0;
        setDefsOffset = 0;
        setDefsLength = 0;
        summaryOffset = 0;
        summaryLength = 0;
        totalCountHint = 0;
        count = 0;
        remaining = 0;
        entriesOffset = offset;
        cursor = offset;
        end = offset;
        clearEntry();
    }

    /**
     * Read a u15rb length and the bytes it covers into permOffset/permLength.
     *
     * @return the position after them, or -1 if they run past the end.
     */
    private int readBuffer15(final int position)
    {
        if (position + 1 > end)
        {
            return -1;
        }
        final int width = RwfPrimitives.u15rbWidth(buffer, position);
        if (position + width > end)
        {
            return -1;
        }
        final int bytes = RwfPrimitives.u15rb(buffer, position);
        final int start = position + width;
        if (start + bytes > end)
        {
            return -1;
        }
        permOffset = start;
        permLength = bytes;
        return start + bytes;
    }

    /**
     * Read the entry at position into the entry members.
     *
     * @return the position of the next entry, or -1 with the error set.
     */
    private int readEntry(final int position)
    {
        if (position + 1 > end)
        {
            fail(Error.ENTRY_OVERRUN);
            return -1;
        }
        final int actionAndFlags = buffer.getByte(position) & 0xFF;
        action = actionAndFlags & 0x0F;
        entryFlags = actionAndFlags >>> 4;
        if (action < UPDATE || action > DELETE)
        {
            fail(Error.INVALID_ACTION);
            return -1;
        }
        int next = position + 1;
        if (0 != (flags & HAS_PER_ENTRY_PERM_DATA) && 0 != (entryFlags & ENTRY_HAS_PERM_DATA))
        {
            next = readBuffer15(next);
            if (next < 0)
            {
                fail(Error.ENTRY_OVERRUN);
                return -1;
            }
        }
        else
        {
            permOffset = next;
            permLength = -1;
        }
        final int entryPermOffset = permOffset;
        final int entryPermLength = permLength;
        next = readBuffer15(next);
        if (next < 0)
        {
            fail(Error.ENTRY_OVERRUN);
            return -1;
        }
        keyOffset = permOffset;
        keyLength = permLength;
        permOffset = entryPermOffset;
        permLength = entryPermLength;
        if (DELETE == action || NO_DATA == containerType)
        {
            payloadOffset = next;
            payloadLength = 0;
            return next;
        }
        if (next + 1 > end)
        {
            fail(Error.ENTRY_OVERRUN);
            return -1;
        }
        final int width = RwfPrimitives.u16obWidth(buffer, next);
        if (width < 0)
        {
            fail(Error.INVALID_LENGTH);
            return -1;
        }
        if (next + width > end)
        {
            fail(Error.ENTRY_OVERRUN);
            return -1;
        }
        payloadLength = RwfPrimitives.u16ob(buffer, next);
        payloadOffset = next + width;
        if (payloadOffset + payloadLength > end)
        {
            fail(Error.ENTRY_OVERRUN);
            return -1;
        }
        return payloadOffset + payloadLength;
    }

    private void clearEntry()
    {
        action = 0;
        entryFlags = 0;
        permOffset = 0;
        permLength = -1;
        keyOffset = 0;
        keyLength = 0;
        payloadOffset = 0;
        payloadLength = 0;
    }

    private boolean fail(final Error reason)
    {
        error = reason;
        count = 0;
        remaining = 0;
        clearEntry();
        return false;
    }

    /**
     * Start the iteration again from the first entry.
     *
     * @return this.
     */
    public RwfMapFlyweight rewind()
    {
        cursor = entriesOffset;
        remaining = Error.NONE == error ? count : 0;
        clearEntry();
        return this;
    }

    /**
     * Move to the next entry.
     *
     * @return true if positioned on an entry, false at the end of the map.
     */
    public boolean next()
    {
        if (remaining <= 0)
        {
            return false;
        }
        remaining--;
        cursor = readEntry(cursor); // checked by wrap: cannot fail here
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
     * @return offset of the map.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the map.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return true for an empty region (no header, no entries).
     */
    public boolean isEmpty()
    {
        return isEmpty;
    }

    /**
     * @return the Map flags.
     */
    public int flags()
    {
        return flags;
    }

    /**
     * @return the DataTypes value of the keys' primitive type.
     */
    public int keyPrimitiveType()
    {
        return keyPrimitiveType;
    }

    /**
     * @return the DataTypes value of the entries' container (132 FIELD_LIST ...).
     */
    public int containerType()
    {
        return containerType;
    }

    /**
     * @return true if the map names its keys' field id.
     */
    public boolean hasKeyFieldId()
    {
        return 0 != (flags & HAS_KEY_FIELD_ID);
    }

    /**
     * @return the keys' field id, 0 without one.
     */
    public int keyFieldId()
    {
        return keyFieldId;
    }

    /**
     * @return true if the map carries set definitions.
     */
    public boolean hasSetDefs()
    {
        return 0 != (flags & HAS_SET_DEFS);
    }

    /**
     * @return offset of the set definitions' bytes.
     */
    public int setDefsOffset()
    {
        return setDefsOffset;
    }

    /**
     * @return length of the set definitions.
     */
    public int setDefsLength()
    {
        return setDefsLength;
    }

    /**
     * @return true if the map carries summary data.
     */
    public boolean hasSummaryData()
    {
        return 0 != (flags & HAS_SUMMARY_DATA);
    }

    /**
     * @return offset of the summary data's bytes.
     */
    public int summaryOffset()
    {
        return summaryOffset;
    }

    /**
     * @return length of the summary data.
     */
    public int summaryLength()
    {
        return summaryLength;
    }

    /**
     * @return the total count hint, 0 without one.
     */
    public int totalCountHint()
    {
        return totalCountHint;
    }

    /**
     * @return the number of entries.
     */
    public int count()
    {
        return count;
    }

    /**
     * @return the current entry's action: {@link #UPDATE}, {@link #ADD} or {@link #DELETE}.
     */
    public int action()
    {
        return action;
    }

    /**
     * @return the current entry's flags.
     */
    public int entryFlags()
    {
        return entryFlags;
    }

    /**
     * @return true if the current entry carries permission data.
     */
    public boolean hasPermData()
    {
        return permLength >= 0;
    }

    /**
     * @return offset of the current entry's permission data.
     */
    public int permOffset()
    {
        return permOffset;
    }

    /**
     * @return length of the current entry's permission data, -1 without.
     */
    public int permLength()
    {
        return permLength;
    }

    /**
     * @return offset of the current entry's encoded key (the primitive's bytes, without their length).
     */
    public int keyOffset()
    {
        return keyOffset;
    }

    /**
     * @return length of the current entry's encoded key.
     */
    public int keyLength()
    {
        return keyLength;
    }

    /**
     * @return offset of the current entry's payload.
     */
    public int payloadOffset()
    {
        return payloadOffset;
    }

    /**
     * @return length of the current entry's payload (0 for DELETE and for a NO_DATA map).
     */
    public int payloadLength()
    {
        return payloadLength;
    }
}
