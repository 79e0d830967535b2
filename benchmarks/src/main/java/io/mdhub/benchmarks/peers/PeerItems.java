package io.mdhub.benchmarks.peers;

import io.mdhub.benchmarks.source.ItemUniverse;

/**
 * The peers' channel and subject names: the names MDHub's source gives the same items.
 */
final class PeerItems
{
    private PeerItems()
    {
    }

    /**
     * @param count how many items.
     * @return their names, as {@link ItemUniverse#generated(int)} makes them.
     */
    static String[] names(final int count)
    {
        final ItemUniverse universe = ItemUniverse.generated(count);
        final String[] names = new String[count];
        for (int i = 0; i < count; i++)
        {
            names[i] = universe.nameString(i);
        }
        return names;
    }
}
