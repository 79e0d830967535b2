package io.mdhub.distributor;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;

/**
 * An item's identity in a service's cache as a hash key: its RDM domain and its name (a provider may publish the same
 * name in two domains, e.g. MarketPrice and MarketByPrice, and they are two items). A stored key owns a copy of the
 * name's bytes; a probe points at a region of a message so a lookup allocates nothing. Stored keys and probes compare
 * equal when their domains and name bytes are equal.
 */
final class ItemKey
{
    private int domainType;
    private byte[] bytes;
    private DirectBuffer region;
    private int offset;
    private int length;
    private int hash;

    static ItemKey copyOf(final int domainType, final DirectBuffer buffer, final int offset, final int length)
    {
        final ItemKey name = new ItemKey();
        name.domainType = domainType;
        name.bytes = new byte[length];
        buffer.getBytes(offset, name.bytes, 0, length);
        name.length = length;
        name.hash = name.computeHash();
        return name;
    }

    ItemKey probe(final int domainType, final DirectBuffer buffer, final int offset, final int length)
    {
        this.domainType = domainType;
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
        int h = 31 + domainType;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + byteAt(i);
        }
        return h;
    }

    int domainType()
    {
        return domainType;
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
        if (!(other instanceof ItemKey))
        {
            return false;
        }
        final ItemKey that = (ItemKey)other;
        if (that.length != length || that.hash != hash || that.domainType != domainType)
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
