package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.FILTER_SIZE;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_ATTRIB;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_FILTER;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_IDENTIFIER;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_NAME;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_NAME_TYPE;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.HAS_SERVICE_ID;
import static io.mdhub.common.rwf.RwfMsgKeyDescriptor.IDENTIFIER_SIZE;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Reads an RWF msgKey in place (layout in {@link RwfMsgKeyDescriptor}). Wrapped by {@link RwfMsgFlyweight}, which
 * finds the key; the whole key is validated in {@link #wrap(DirectBuffer, int, int)} so the accessors never read
 * out of bounds. Nothing here allocates except {@link #nameAsString()}, which is meant for logs and tools.
 */
public final class RwfMsgKeyFlyweight
{
    private static final int ABSENT = -1;

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int flags;
    private int serviceId;
    private int nameOffset;
    private int nameLength;
    private int nameType;
    private long filter;
    private int identifier;
    private int attribContainerType;
    private int attribOffset;
    private int attribLength;
    private RwfError error = RwfError.NONE;

    /**
     * Read the key whose flags start at offset (after its length field) and end at offset + length.
     *
     * @param buffer holding the key.
     * @param offset of the key flags.
     * @param length of the key, as given by the key length field.
     * @return true if the key is well formed; otherwise {@link #error()} says why.
     */
    public boolean wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        serviceId = ABSENT;
        nameOffset = ABSENT;
        nameLength = 0;
        nameType = ABSENT;
        filter = ABSENT;
        identifier = 0;
        attribContainerType = ABSENT;
        attribOffset = ABSENT;
        attribLength = 0;
        flags = 0;

        final int end = offset + length;
        if (length < 1 || offset + RwfPrimitives.u15rbWidth(buffer, offset) > end)
        {
            return fail(RwfError.KEY_MEMBER_OVERRUN);
        }
        flags = RwfPrimitives.u15rb(buffer, offset);
        int cursor = offset + RwfPrimitives.u15rbWidth(buffer, offset);

        if (0 != (flags & HAS_SERVICE_ID))
        {
            if (cursor >= end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            final int width = RwfPrimitives.u16obWidth(buffer, cursor);
            if (width < 0)
            {
                return fail(RwfError.INVALID_VARIABLE_LENGTH);
            }
            if (cursor + width > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            serviceId = RwfPrimitives.u16ob(buffer, cursor);
            cursor += width;
        }
        if (0 != (flags & HAS_NAME))
        {
            if (cursor + 1 > end || cursor + 1 + (buffer.getByte(cursor) & 0xFF) > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            nameLength = buffer.getByte(cursor) & 0xFF;
            nameOffset = cursor + 1;
            cursor = nameOffset + nameLength;
        }
        return wrapTail(cursor, end);
    }

    private boolean wrapTail(final int start, final int end)
    {
        int cursor = start;
        if (0 != (flags & HAS_NAME_TYPE))
        {
            if (cursor + 1 > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            nameType = buffer.getByte(cursor) & 0xFF;
            cursor++;
        }
        if (0 != (flags & HAS_FILTER))
        {
            if (cursor + FILTER_SIZE > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            filter = buffer.getInt(cursor, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF_FFFFL;
            cursor += FILTER_SIZE;
        }
        if (0 != (flags & HAS_IDENTIFIER))
        {
            if (cursor + IDENTIFIER_SIZE > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            identifier = buffer.getInt(cursor, RwfMsgDescriptor.BYTE_ORDER);
            cursor += IDENTIFIER_SIZE;
        }
        if (0 != (flags & HAS_ATTRIB))
        {
            if (cursor + 2 > end || cursor + 1 + RwfPrimitives.u15rbWidth(buffer, cursor + 1) > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
            attribContainerType = (buffer.getByte(cursor) & 0xFF) + RwfMsgDescriptor.CONTAINER_TYPE_BASE;
            final int lengthWidth = RwfPrimitives.u15rbWidth(buffer, cursor + 1);
            attribLength = RwfPrimitives.u15rb(buffer, cursor + 1);
            attribOffset = cursor + 1 + lengthWidth;
            if (attribOffset + attribLength > end)
            {
                return fail(RwfError.KEY_MEMBER_OVERRUN);
            }
        }
        error = RwfError.NONE;
        return true;
    }

    private boolean fail(final RwfError reason)
    {
        error = reason;
        return false;
    }

    /**
     * @return why the last wrap failed, or {@link RwfError#NONE}.
     */
    public RwfError error()
    {
        return error;
    }

    /**
     * @return offset of the key flags in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the key (flags and members), as its length field says.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return the key flags ({@link RwfMsgKeyDescriptor} bits).
     */
    public int flags()
    {
        return flags;
    }

    /**
     * @return true if the key carries a serviceId.
     */
    public boolean hasServiceId()
    {
        return 0 != (flags & HAS_SERVICE_ID);
    }

    /**
     * @return the serviceId, or -1 if absent.
     */
    public int serviceId()
    {
        return serviceId;
    }

    /**
     * @return true if the key carries a name.
     */
    public boolean hasName()
    {
        return 0 != (flags & HAS_NAME);
    }

    /**
     * @return offset of the first name byte in the buffer, or -1 if absent.
     */
    public int nameOffset()
    {
        return nameOffset;
    }

    /**
     * @return length of the name in bytes (0 if absent).
     */
    public int nameLength()
    {
        return nameLength;
    }

    /**
     * Compare the name with a region of another buffer, without allocating.
     *
     * @param other       buffer holding the candidate.
     * @param otherOffset of the candidate.
     * @param otherLength of the candidate.
     * @return true if the key has a name with exactly these bytes.
     */
    public boolean nameEquals(final DirectBuffer other, final int otherOffset, final int otherLength)
    {
        if (!hasName() || otherLength != nameLength)
        {
            return false;
        }
        for (int i = 0; i < nameLength; i++)
        {
            if (buffer.getByte(nameOffset + i) != other.getByte(otherOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Compare the name with a byte array, without allocating.
     *
     * @param other the candidate bytes.
     * @return true if the key has a name with exactly these bytes.
     */
    public boolean nameEquals(final byte[] other)
    {
        if (!hasName() || other.length != nameLength)
        {
            return false;
        }
        for (int i = 0; i < nameLength; i++)
        {
            if (buffer.getByte(nameOffset + i) != other[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Compare the name with ASCII text, without allocating.
     *
     * @param other the candidate; each char is compared with one byte.
     * @return true if the key has a name equal to the text.
     */
    public boolean nameEqualsAscii(final CharSequence other)
    {
        if (!hasName() || other.length() != nameLength)
        {
            return false;
        }
        for (int i = 0; i < nameLength; i++)
        {
            if ((buffer.getByte(nameOffset + i) & 0xFF) != other.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Copy the name out.
     *
     * @param dst       destination buffer.
     * @param dstOffset where the name goes.
     * @return the number of bytes copied.
     */
    public int getName(final MutableDirectBuffer dst, final int dstOffset)
    {
        if (nameLength > 0)
        {
            dst.putBytes(dstOffset, buffer, nameOffset, nameLength);
        }
        return nameLength;
    }

    /**
     * Copy the name out.
     *
     * @param dst       destination array, at least dstOffset + {@link #nameLength()} long.
     * @param dstOffset where the name goes.
     * @return the number of bytes copied.
     */
    public int getName(final byte[] dst, final int dstOffset)
    {
        if (nameLength > 0)
        {
            buffer.getBytes(nameOffset, dst, dstOffset, nameLength);
        }
        return nameLength;
    }

    /**
     * @return the name as a new String (allocates: logs and tools only), or null if absent.
     */
    public String nameAsString()
    {
        if (!hasName())
        {
            return null;
        }
        final byte[] bytes = new byte[nameLength];
        getName(bytes, 0);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * @return true if the key carries a nameType.
     */
    public boolean hasNameType()
    {
        return 0 != (flags & HAS_NAME_TYPE);
    }

    /**
     * @return the nameType, or -1 if absent.
     */
    public int nameType()
    {
        return nameType;
    }

    /**
     * @return true if the key carries a filter.
     */
    public boolean hasFilter()
    {
        return 0 != (flags & HAS_FILTER);
    }

    /**
     * @return the filter as an unsigned 32-bit value, or -1 if absent.
     */
    public long filter()
    {
        return filter;
    }

    /**
     * @return true if the key carries an identifier.
     */
    public boolean hasIdentifier()
    {
        return 0 != (flags & HAS_IDENTIFIER);
    }

    /**
     * @return the identifier (0 if absent).
     */
    public int identifier()
    {
        return identifier;
    }

    /**
     * @return true if the key carries an attrib.
     */
    public boolean hasAttrib()
    {
        return 0 != (flags & HAS_ATTRIB);
    }

    /**
     * @return the attrib's container type as an ETA DataTypes value, or -1 if absent.
     */
    public int attribContainerType()
    {
        return attribContainerType;
    }

    /**
     * @return offset of the encoded attrib in the buffer, or -1 if absent.
     */
    public int attribOffset()
    {
        return attribOffset;
    }

    /**
     * @return length of the encoded attrib (0 if absent).
     */
    public int attribLength()
    {
        return attribLength;
    }
}
