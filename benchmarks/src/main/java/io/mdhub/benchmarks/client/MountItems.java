package io.mdhub.benchmarks.client;

import java.util.Arrays;

/**
 * What a mount knows of each item it watches, kept across its connections (a failover to another p2p-server keeps
 * counting the same items): the universe index, whether it ever had a refresh, the last update counter seen (-1
 * after a refresh re-based it or a connection ended), and since when it has been Open/Suspect (0 when Ok). Written
 * only by the event loop of the mount's current connection; a new connection starts after the old one ended.
 */
final class MountItems
{
    final int[] indexes;
    final long[] lastSequence;
    final boolean[] hasRefresh;
    final long[] suspectSinceNs;

    MountItems(final int[] indexes)
    {
        this.indexes = indexes;
        this.lastSequence = new long[indexes.length];
        this.hasRefresh = new boolean[indexes.length];
        this.suspectSinceNs = new long[indexes.length];
        Arrays.fill(lastSequence, -1);
    }

    int size()
    {
        return indexes.length;
    }

    /**
     * The connection ended: every item that had an image is Suspect from now until a new connection re-images it.
     *
     * @return items newly Suspect.
     */
    int connectionLost(final long nowNs)
    {
        int newlySuspect = 0;
        for (int k = 0; k < indexes.length; k++)
        {
            lastSequence[k] = -1;
            if (hasRefresh[k] && 0 == suspectSinceNs[k])
            {
                suspectSinceNs[k] = nowNs;
                newlySuspect++;
            }
        }
        return newlySuspect;
    }
}
