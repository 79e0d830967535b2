package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.source.ServiceInfo;

/**
 * The parts an item update passes through in {@link BackboneItemSource#onItemUpdate} — the tracker's distributor of
 * the session, the sequence check, the handle index — allocate nothing, also when the updates alternate between two
 * distributors.
 */
@InterruptAfter(30)
class ItemUpdatePathAllocationTest
{
    private static final int SERVICE = 7;
    private static final int UPDATES = 10_000;

    private final DistributorTracker tracker = new DistributorTracker(
        0, 3, new IgnoringEvents(), new DistributorTrackerTest.TestStreamImages());
    private final ServiceRecovery recovery = new ServiceRecovery(new NoItems(), new RecordingControlSender(),
        new SourceCounters(), tracker.distributors(), () -> { });
    private final long[] sequences = new long[2];

    @Test
    void anUpdateInSequenceAllocatesNothing()
    {
        announce(11, 1);
        announce(12, 2);
        tracker.onMessage(11, 0).itemByHandle.put(SERVICE, 100, 1);
        tracker.onMessage(12, 0).itemByHandle.put(SERVICE, 100, 2);

        assertEquals(0, Allocations.leastAllocatedBytes(this::updates, 10));
    }

    private long updates()
    {
        long sum = 0;
        for (int i = 0; i < UPDATES; i++)
        {
            final int which = i & 1;
            final DistributorState distributor = tracker.onLiveMessage(11 + which, i);
            if (recovery.inSequence(distributor, SERVICE, ++sequences[which], i))
            {
                sum += distributor.itemByHandle.get(SERVICE, 100);
            }
        }
        return sum;
    }

    private void announce(final int sessionId, final int distributorId)
    {
        final DistributorState distributor = tracker.onMessage(sessionId, 0);
        tracker.onAnnouncement(distributor, distributorId, 1000L, 1000, 1);
        final UnsafeBuffer name = new UnsafeBuffer("SVC".getBytes(StandardCharsets.US_ASCII));
        tracker.onServiceAnnounced(distributor, SERVICE, true, true, 0, 1, 1L << 6, name, 0, name.capacity());
    }

    private static final class NoItems implements RecoverableItems
    {
        @Override
        public void collectRecoverable(final DistributorState distributor, final int serviceId, final IntArrayList out)
        {
        }

        @Override
        public void recoverItems(final IntArrayList itemIds, final CarriedService passOrNull, final String text)
        {
        }
    }

    private static final class IgnoringEvents implements DistributorTracker.Listener
    {
        @Override
        public void onServiceChanged(final ServiceInfo service)
        {
        }

        @Override
        public void onServiceCarried(final int serviceId)
        {
        }

        @Override
        public void onServiceBackUp(final int serviceId)
        {
        }

        @Override
        public void onServiceWithdrawn(final DistributorState distributor, final int serviceId, final String text)
        {
        }

        @Override
        public void onServiceSequence(final DistributorState distributor, final int serviceId, final long lastSequence)
        {
        }

        @Override
        public void onDistributorDied(final DistributorState distributor, final String text)
        {
        }

        @Override
        public void onDistributorReplaced(final DistributorState distributor, final String text)
        {
        }

        @Override
        public void onDistributorRevived(final DistributorState distributor, final int serviceId)
        {
        }
    }
}
