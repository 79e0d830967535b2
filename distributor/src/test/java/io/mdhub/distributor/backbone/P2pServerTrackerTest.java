package io.mdhub.distributor.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.agrona.collections.IntArrayList;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Liveness of the p2p-servers on the control stream: any of their messages counts, not only announcements.
 */
@InterruptAfter(10)
class P2pServerTrackerTest
{
    private static final int INTERVAL_MS = 1000;
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS) *
        P2pServerTracker.LIVENESS_INTERVALS;
    private static final int P2P_SERVER = 42;
    private static final long EPOCH = 7;

    private final IntArrayList gone = new IntArrayList();
    private final P2pServerTracker tracker = new P2pServerTracker(gone::addInt);

    @Test
    void aP2pServerWhoseRequestsKeepComingIsAliveWithoutAnnouncing()
    {
        tracker.onAnnouncement(P2P_SERVER, EPOCH, INTERVAL_MS, 0);
        // its announcements wait behind its own requests on the stream; the requests are read meanwhile
        tracker.heard(P2P_SERVER, TIMEOUT_NS - 1);
        tracker.heard(P2P_SERVER, 2 * TIMEOUT_NS - 2);

        assertEquals(0, tracker.expire(2 * TIMEOUT_NS));
        assertTrue(tracker.isAlive(P2P_SERVER));
        assertTrue(gone.isEmpty());

        assertEquals(0, tracker.expire(3 * TIMEOUT_NS - 2), "silent exactly its timeout: not yet");
        assertEquals(1, tracker.expire(3 * TIMEOUT_NS - 1), "silent longer than its timeout after its last request");
        assertFalse(tracker.isAlive(P2P_SERVER));
        assertEquals(1, gone.size());
        assertEquals(P2P_SERVER, gone.getInt(0));
    }

    @Test
    void anUnknownSenderDoesNotJoinWithoutAnnouncing()
    {
        tracker.heard(P2P_SERVER, 0);

        assertFalse(tracker.isAlive(P2P_SERVER));
        assertEquals(0, tracker.count());
        assertEquals(0, tracker.expire(10 * TIMEOUT_NS));
        assertTrue(gone.isEmpty());
    }

    @Test
    void aSilentP2pServerExpiresOnceAndARestartDropsItsInterest()
    {
        tracker.onAnnouncement(P2P_SERVER, EPOCH, INTERVAL_MS, 0);
        tracker.onAnnouncement(P2P_SERVER, EPOCH + 1, INTERVAL_MS, 10);
        assertEquals(1, gone.size(), "a new epoch: the old process's interest is gone");
        assertTrue(tracker.isAlive(P2P_SERVER));

        assertEquals(1, tracker.expire(10 + TIMEOUT_NS + 1));
        assertEquals(0, tracker.expire(10 + 2 * TIMEOUT_NS), "expired once");
        tracker.heard(P2P_SERVER, 10 + 2 * TIMEOUT_NS);
        assertFalse(tracker.isAlive(P2P_SERVER), "a request after expiry does not bring it back; announcing does");
        assertEquals(2, gone.size());
    }
}
