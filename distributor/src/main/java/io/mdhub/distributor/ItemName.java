package io.mdhub.distributor;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;

/**
 * An item name as a hash key. A stored name owns a copy of its bytes; a probe points at a region of a message so a
 * lookup by name allocates nothing. Stored names and probes compare equal when their bytes are equal.
 */
final class ItemName
{
    private byte[] bytes;
    private DirectBuffer region;
    private int offset;
    private int length;
    private int hash;

    static ItemName copyOf(final DirectBuffer buffer, final int offset, final int length)
    {
        final ItemName name = new ItemName();
        name.bytes = new byte[length];
        buffer.getBytes(offset, name.bytes, 0, length);
        name.length = length;
        name.hash = name.computeHash();
        return name;
    }

    ItemName probe(final DirectBuffer buffer, final int offset, final int length)
    {
        this.bytes = null;
        this.region = buffer;
        this.offset = offset;
        this.length = length;
        this.hash = computeHash();
        return this;
    }

    private byte byteAt(final int index)
    {
        return null != bytes ? bytes[index] : region.getByte(offset + index);
    }

    private int computeHash()
    {
        int h = 1;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + byteAt(i);
        }
        return h;
    }

    byte[] bytes()
    {
        return bytes;
    }

    int length()
    {
        return length;
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (this == other)
        {
            return true;
        }
        if (!(other instanceof ItemName))
        {
            return false;
        }
        final ItemName that = (ItemName)other;
        if (that.length != length || that.hash != hash)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (byteAt(i) != that.byteAt(i))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString()
    {
        if (null != bytes)
        {
            return new String(bytes, StandardCharsets.US_ASCII);
        }
        final byte[] copy = new byte[length];
        region.getBytes(offset, copy);
        return new String(copy, StandardCharsets.US_ASCII);
    }
}
