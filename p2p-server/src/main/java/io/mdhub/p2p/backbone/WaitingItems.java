package io.mdhub.p2p.backbone;

import java.util.HashMap;

import org.agrona.DirectBuffer;

/**
 * The items that wait for their provider to publish them, by (service, domain, name): a provider's first refresh of
 * an item is broadcast with its name, and finding the name here is what lets the source ask for the item at once
 * instead of at its next retry. Lookups take the name where the message holds it and allocate nothing. Worker thread
 * only.
 *
 * @param <T> what is kept per waiting item.
 */
final class WaitingItems<T>
{
    private final HashMap<Key, T> byKey = new HashMap<>();
    private final Key lookup = new Key();

    boolean isEmpty()
    {
        return byKey.isEmpty();
    }

    int size()
    {
        return byKey.size();
    }

    void add(final int serviceId, final int domainType, final DirectBuffer name, final int offset, final int length,
        final T item)
    {
        byKey.put(new Key().set(serviceId, domainType, name, offset, length).copy(), item);
    }

    T remove(final int serviceId, final int domainType, final DirectBuffer name, final int offset, final int length)
    {
        return byKey.remove(lookup.set(serviceId, domainType, name, offset, length));
    }

    T find(final int serviceId, final int domainType, final DirectBuffer name, final int offset, final int length)
    {
        return byKey.get(lookup.set(serviceId, domainType, name, offset, length));
    }

    /**
     * A key that either views a name in a message (lookups) or owns a copy (stored keys).
     */
    private static final class Key
    {
        private int serviceId;
        private int domainType;
        private DirectBuffer buffer;
        private int offset;
        private int length;
        private byte[] owned;
        private int hash;

        Key set(final int serviceId, final int domainType, final DirectBuffer name, final int offset, final int length)
        {
            this.serviceId = serviceId;
            this.domainType = domainType;
            this.buffer = name;
            this.offset = offset;
            this.length = length;
            this.owned = null;
            int h = 31 * serviceId + domainType;
            for (int i = 0; i < length; i++)
            {
                h = 31 * h + name.getByte(offset + i);
            }
            this.hash = h;
            return this;
        }

        Key copy()
        {
            owned = new byte[length];
            buffer.getBytes(offset, owned);
            buffer = null;
            offset = 0;
            return this;
        }

        private byte byteAt(final int i)
        {
            return null != owned ? owned[i] : buffer.getByte(offset + i);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }

        @Override
        public boolean equals(final Object other)
        {
            if (!(other instanceof Key))
            {
                return false;
            }
            final Key that = (Key)other;
            if (hash != that.hash || serviceId != that.serviceId || domainType != that.domainType ||
                length != that.length)
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
    }
}
