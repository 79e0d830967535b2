package io.mdhub.distributor.backbone;

import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import org.agrona.collections.Int2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The p2p-servers heard on the control stream, from their ConsumerAnnouncements: one joins with its first
 * announcement, restarts when its epoch changes, and expires after {@link #LIVENESS_INTERVALS} of its own
 * announcement intervals of silence. Any control message of a joined p2p-server is a sign of life, not only its
 * announcements: while thousands of its item requests wait on the stream, its next announcement waits behind them.
 * An expired or restarted p2p-server's interest in sink-driven items is dropped (non-interactive services are
 * broadcast, so for them this only logs and counts). Owned by the distributor's event loop; allocates only when a
 * p2p-server joins.
 */
final class P2pServerTracker
{
    /** Announcement intervals of silence after which a p2p-server counts as gone. */
    static final int LIVENESS_INTERVALS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(P2pServerTracker.class);

    private static final class Peer
    {
        long epoch;
        long timeoutNs;
        long lastSeenNs;
    }

    private final Int2ObjectHashMap<Peer> peers = new Int2ObjectHashMap<>();
    private final IntConsumer onGone;

    /**
     * @param onGone told the id of a p2p-server that expired or restarted: the interest it held is gone.
     */
    P2pServerTracker(final IntConsumer onGone)
    {
        this.onGone = onGone;
    }

    void onAnnouncement(final int consumerId, final long epoch, final int intervalMs, final long nowNs)
    {
        Peer peer = peers.get(consumerId);
        if (null == peer)
        {
            peer = new Peer();
            peers.put(consumerId, peer);
            LOG.info("p2p-server {} joined (epoch {}, interval {} ms)", consumerId, epoch, intervalMs);
        }
        else if (peer.epoch != epoch)
        {
            LOG.info("p2p-server {} restarted (epoch {} -> {})", consumerId, peer.epoch, epoch);
            onGone.accept(consumerId);
        }
        peer.epoch = epoch;
        peer.timeoutNs = TimeUnit.MILLISECONDS.toNanos(Math.max(1, intervalMs)) * LIVENESS_INTERVALS;
        peer.lastSeenNs = nowNs;
    }

    /**
     * A control message other than an announcement came from a p2p-server: it is alive (unknown ones join only by
     * announcing, which says their epoch and interval).
     *
     * @param consumerId the sender.
     * @param nowNs      when it was read.
     */
    void heard(final int consumerId, final long nowNs)
    {
        final Peer peer = peers.get(consumerId);
        if (null != peer)
        {
            peer.lastSeenNs = nowNs;
        }
    }

    /**
     * Count every p2p-server as heard now: after the backbone daemon was lost, nobody could be heard, and the
     * p2p-servers outlive the outage as this distributor does (they announce again on the new streams).
     *
     * @param nowNs now.
     */
    void renew(final long nowNs)
    {
        for (final Peer peer : peers.values())
        {
            peer.lastSeenNs = nowNs;
        }
    }

    /**
     * Forget the p2p-servers that fell silent.
     *
     * @return how many expired.
     */
    int expire(final long nowNs)
    {
        int expired = 0;
        final Int2ObjectHashMap<Peer>.EntryIterator it = peers.entrySet().iterator();
        while (it.hasNext())
        {
            it.next();
            final Peer peer = it.getValue();
            if (nowNs - peer.lastSeenNs > peer.timeoutNs)
            {
                LOG.info("p2p-server {} expired: silent for {} ms", it.getIntKey(),
                    TimeUnit.NANOSECONDS.toMillis(nowNs - peer.lastSeenNs));
                final int consumerId = it.getIntKey();
                it.remove();
                expired++;
                onGone.accept(consumerId);
            }
        }
        return expired;
    }

    /**
     * @return p2p-servers currently alive.
     */
    int count()
    {
        return peers.size();
    }

    /**
     * @param consumerId a p2p-server id.
     * @return true while it is alive.
     */
    boolean isAlive(final int consumerId)
    {
        return peers.containsKey(consumerId);
    }
}
