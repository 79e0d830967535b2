package io.mdhub.p2p.fanout;

import java.util.Arrays;

import org.agrona.DirectBuffer;

/**
 * What identifies an item in a worker's item table: domain, serviceId and name bytes. One mutable instance serves
 * as the lookup key (set from the request in place, no allocation); a stored key is a {@link #copy()}.
 */
final class ItemKey
{
    private static final int MAX_NAME_LENGTH = 255;

    private int domainType;
    private int serviceId;
    private final byte[] name;
    private int nameLength;
    private int hash;

    ItemKey()
    {
        this.name = new byte[MAX_NAME_LENGTH];
    }

    private ItemKey(final int domainType, final int serviceId, final byte[] name, final int hash)
    {
        this.domainType = domainType;
        this.serviceId = serviceId;
        this.name = name;
        this.nameLength = name.length;
        this.hash = hash;
    }

    ItemKey set(
        final int domainType,
        final int serviceId,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        if (nameLength > MAX_NAME_LENGTH)
        {
            throw new IllegalArgumentException("item name longer than 255 bytes");
        }
        this.domainType = domainType;
        this.serviceId = serviceId;
        this.nameLength = nameLength;
        buffer.getBytes(nameOffset, name, 0, nameLength);
        int h = 31 * domainType + serviceId;
        for (int i = 0; i < nameLength; i++)
        {
            h = 31 * h + name[i];
        }
        hash = h;
        return this;
    }

    ItemKey copy()
    {
        return new ItemKey(domainType, serviceId, Arrays.copyOf(name, nameLength), hash);
    }

    int domainType()
    {
        return domainType;
    }

    int serviceId()
    {
        return serviceId;
    }

    byte[] nameBytes()
    {
        return name;
    }

    int nameLength()
    {
        return nameLength;
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public boolean equals(final Object obj)
    {
        if (!(obj instanceof ItemKey))
        {
            return false;
        }
        final ItemKey other = (ItemKey)obj;
        return hash == other.hash && domainType == other.domainType && serviceId == other.serviceId &&
            Arrays.equals(name, 0, nameLength, other.name, 0, other.nameLength);
    }

    @Override
    public String toString()
    {
        return new String(name, 0, nameLength, java.nio.charset.StandardCharsets.US_ASCII) + "@" + serviceId +
            "/" + domainType;
    }
}
