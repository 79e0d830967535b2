package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.source.ServiceInfo;

@InterruptAfter(10)
class DistributorTrackerTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int MISSED = 3;

    private final RecordingEvents events = new RecordingEvents();
    private final TestStreamImages images = new TestStreamImages();
    private final DistributorTracker tracker = new DistributorTracker(0, MISSED, events, images);

    @Test
    void theFirstMessageOfASessionMakesItsStateAndEveryMessageIsASignOfLife()
    {
        final DistributorState first = tracker.onMessage(11, 100);
        assertEquals(11, first.sessionId);
        assertEquals(100, first.lastSeenNs);
        assertSame(first, tracker.onMessage(11, 200), "the same session, the same distributor");
        assertEquals(200, first.lastSeenNs);
        final DistributorState second = tracker.onMessage(12, 300);
        assertNotSame(first, second);
        assertSame(first, tracker.onMessage(11, 400), "found again by its session");
        assertEquals(2, tracker.distributors().size());
        assertEquals(0, tracker.liveUpstreams(), "not announced yet");
    }

    @Test
    void aNewEpochOnTheSameSessionReplacesTheDistributorAndResetsItsSequences()
    {
        final DistributorState distributor = announce(11, 1, 1000L, 0, service(7, true, true));
        distributor.sequences.onMessage(7, 1);
        distributor.sequences.onMessage(7, 2);
        assertEquals(2, distributor.sequences.lastSequence(7));
        events.log.clear();

        announce(11, 1, 2000L, SECOND_NS, service(7, true, true));

        assertEquals(List.of("replaced 11 distributor restarted: recovering", "changed 7 false", "changed 7 true",
            "carried 7", "sequence 11 7 0"), events.log, "its services go, then come back as new");
        assertEquals(0, distributor.sequences.lastSequence(7), "sequences start again");
        assertTrue(distributor.isAlive);
        assertFalse(distributor.isReplaced, "the same session goes on as the new process");
        assertEquals(2000L, distributor.epoch);
        assertEquals(1, tracker.liveUpstreams());
    }

    @Test
    void aNewSessionUnderTheSameIdReplacesTheOldOne()
    {
        final DistributorState old = announce(11, 1, 1000L, 0, service(7, true, true));
        events.log.clear();

        final DistributorState restarted = announce(12, 1, 2000L, SECOND_NS, service(7, true, true));

        assertTrue(old.isReplaced);
        assertFalse(old.isAlive);
        assertTrue(old.services.isEmpty(), "its services mean nothing any more");
        assertEquals("replaced 11 distributor restarted: recovering", events.log.get(0));
        assertTrue(restarted.carries(7));
        assertEquals(1, tracker.liveUpstreams());

        events.log.clear();
        tracker.onAnnouncement(tracker.onMessage(11, 2 * SECOND_NS), 1, 1000L, 1000, 0);
        assertTrue(events.log.isEmpty(), "the old process is ignored: " + events.log);
    }

    @Test
    void silenceWithNothingUnreadIsDeathButUnreadDataKeepsADistributorAlive()
    {
        final DistributorState distributor = announce(11, 1, 1000L, 0, service(7, true, true));
        events.log.clear();
        final long silentNs = MISSED * SECOND_NS + 1;

        assertEquals(0, tracker.checkLiveness(MISSED * SECOND_NS), "not silent long enough");
        images.unread.add(11);
        assertEquals(0, tracker.checkLiveness(silentNs), "it published more than this worker has read");
        assertTrue(distributor.isAlive);

        images.unread.clear();
        assertEquals(1, tracker.checkLiveness(silentNs));
        assertFalse(distributor.isAlive);
        assertEquals(List.of("died 11 distributor lost: recovering", "changed 7 false"), events.log);
        assertFalse(tracker.hasCarrier(7));
        assertEquals(1, tracker.services().size(), "a service nobody carries stays listed");
        assertFalse(tracker.services().get(0).isUp());
        assertTrue(tracker.isListed(7));
    }

    @Test
    void anyMessageRevivesADeadAnnouncedDistributor()
    {
        final DistributorState distributor = announce(11, 1, 1000L, 0, service(7, true, true), service(8, false, true));
        tracker.checkLiveness(MISSED * SECOND_NS + 1);
        assertFalse(distributor.isAlive);
        events.log.clear();

        assertSame(distributor, tracker.onLiveMessage(11, 5 * SECOND_NS));

        assertTrue(distributor.isAlive);
        assertTrue(events.log.contains("revived 11 7"), events.log.toString());
        assertTrue(events.log.contains("revived 11 8"), events.log.toString());
        assertTrue(events.log.indexOf("changed 7 true") < events.log.indexOf("revived 11 7"),
            "the directory first: " + events.log);
        assertTrue(tracker.hasCarrier(7));
    }

    @Test
    void aDeadDistributorWhoseImageIsGoneIsForgotten()
    {
        announce(11, 1, 1000L, 0, service(7, true, true));
        images.gone.add(11);
        tracker.checkLiveness(SECOND_NS);
        assertEquals(1, tracker.distributors().size(), "alive: kept whatever its image");

        tracker.checkLiveness(MISSED * SECOND_NS + 1);
        assertTrue(tracker.distributors().isEmpty());
        final DistributorState again = tracker.onMessage(11, 5 * SECOND_NS);
        assertTrue(again.isAlive, "a new state for a session seen again");
    }

    @Test
    void aServiceMissingAtTheEndOfAnAnnouncementIsWithdrawn()
    {
        final DistributorState distributor = announce(11, 1, 1000L, 0, service(7, true, true), service(8, true, true));
        events.log.clear();

        announce(11, 1, 1000L, SECOND_NS, service(7, true, true));

        assertTrue(events.log.contains("withdrawn 11 8 service withdrawn by its distributor: recovering"),
            events.log.toString());
        assertTrue(events.log.contains("changed 8 false"), events.log.toString());
        assertFalse(distributor.carries(8));
        assertTrue(distributor.carries(7));
    }

    @Test
    void aServiceBackUpIsReportedAndATailLossGoesToTheListener()
    {
        announce(11, 1, 1000L, 0, service(7, false, true));
        events.log.clear();

        final DistributorState distributor = tracker.onMessage(11, SECOND_NS);
        tracker.onAnnouncement(distributor, 1, 1000L, 1000, 1);
        final UnsafeBuffer name = name("SVC7");
        tracker.onServiceAnnounced(distributor, 7, true, true, 42, 10, 1L << 6, name, 0, name.capacity());

        assertEquals(List.of("changed 7 true", "backUp 7", "sequence 11 7 42"), events.log);
    }

    @Test
    void theDirectoryPrefersAnUpThenAnAcceptingCarrier()
    {
        announce(11, 1, 1000L, 0, service(7, false, true));
        ServiceInfo info = last(7);
        assertFalse(info.isUp());

        announce(12, 2, 1000L, 0, service(7, true, false));
        info = last(7);
        assertTrue(info.isUp(), "one carrier has it up");
        assertFalse(info.isAcceptingRequests(), "the up one is taken, not the accepting one that is down");

        announce(13, 3, 1000L, 0, service(7, true, true));
        info = last(7);
        assertTrue(info.isUp());
        assertTrue(info.isAcceptingRequests(), "up and accepting beats up only");
        assertEquals(6, info.capabilities()[0]);
    }

    @Test
    void carriersCountOnlyLiveDistributors()
    {
        announce(11, 1, 1000L, 0, service(7, true, true));
        announce(12, 2, 1000L, SECOND_NS, service(7, true, true));
        assertEquals(2, tracker.carriers(7));
        assertEquals(0, tracker.carriers(8));

        tracker.checkLiveness(MISSED * SECOND_NS + 1); // 11 silent long enough, 12 not yet
        assertEquals(1, tracker.carriers(7));
        assertTrue(tracker.hasCarrier(7));
        assertEquals(1, tracker.liveUpstreams());
    }

    @Test
    void losingTheBackboneKillsAndForgetsEveryDistributor()
    {
        announce(11, 1, 1000L, 0, service(7, true, true));
        announce(12, 2, 1000L, 0, service(8, true, true));
        events.log.clear();

        tracker.lostAll("backbone lost: recovering");

        assertEquals(2, events.log.stream().filter((e) -> e.startsWith("died")).count(), events.log.toString());
        assertTrue(tracker.distributors().isEmpty());
        assertFalse(tracker.hasCarrier(7));
        assertEquals(2, tracker.services().size(), "the directory keeps its services, down");
    }

    private DistributorState announce(
        final int sessionId, final int distributorId, final long epoch, final long nowNs, final Service... services)
    {
        final DistributorState distributor = tracker.onMessage(sessionId, nowNs);
        tracker.onAnnouncement(distributor, distributorId, epoch, 1000, services.length);
        for (final Service service : services)
        {
            final UnsafeBuffer name = name("SVC" + service.serviceId);
            tracker.onServiceAnnounced(distributor, service.serviceId, service.isUp, service.isAccepting, 0, 10,
                1L << 6, name, 0, name.capacity());
        }
        return distributor;
    }

    private ServiceInfo last(final int serviceId)
    {
        for (int i = events.changes.size() - 1; i >= 0; i--)
        {
            if (events.changes.get(i).serviceId() == serviceId)
            {
                return events.changes.get(i);
            }
        }
        throw new AssertionError("no directory change for " + serviceId);
    }

    private static Service service(final int serviceId, final boolean isUp, final boolean isAccepting)
    {
        return new Service(serviceId, isUp, isAccepting);
    }

    private static UnsafeBuffer name(final String name)
    {
        return new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
    }

    private record Service(int serviceId, boolean isUp, boolean isAccepting)
    {
    }

    static final class TestStreamImages implements DistributorTracker.StreamImages
    {
        final Set<Integer> unread = new HashSet<>();
        final Set<Integer> gone = new HashSet<>();

        @Override
        public boolean hasUnread(final int sessionId)
        {
            return unread.contains(sessionId);
        }

        @Override
        public boolean isGone(final int sessionId)
        {
            return gone.contains(sessionId);
        }
    }

    private static final class RecordingEvents implements DistributorTracker.Listener
    {
        final List<String> log = new ArrayList<>();
        final List<ServiceInfo> changes = new ArrayList<>();

        @Override
        public void onServiceChanged(final ServiceInfo service)
        {
            changes.add(service);
            log.add("changed " + service.serviceId() + " " + service.isUp());
        }

        @Override
        public void onServiceCarried(final int serviceId)
        {
            log.add("carried " + serviceId);
        }

        @Override
        public void onServiceBackUp(final int serviceId)
        {
            log.add("backUp " + serviceId);
        }

        @Override
        public void onServiceWithdrawn(final DistributorState distributor, final int serviceId, final String text)
        {
            log.add("withdrawn " + distributor.sessionId + " " + serviceId + " " + text);
        }

        @Override
        public void onServiceSequence(final DistributorState distributor, final int serviceId, final long lastSequence)
        {
            log.add("sequence " + distributor.sessionId + " " + serviceId + " " + lastSequence);
        }

        @Override
        public void onDistributorDied(final DistributorState distributor, final String text)
        {
            log.add("died " + distributor.sessionId + " " + text);
        }

        @Override
        public void onDistributorReplaced(final DistributorState distributor, final String text)
        {
            log.add("replaced " + distributor.sessionId + " " + text);
        }

        @Override
        public void onDistributorRevived(final DistributorState distributor, final int serviceId)
        {
            log.add("revived " + distributor.sessionId + " " + serviceId);
        }
    }
}
