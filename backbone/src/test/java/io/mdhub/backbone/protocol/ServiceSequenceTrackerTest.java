package io.mdhub.backbone.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ServiceSequenceTrackerTest
{
    private final ServiceSequenceTracker tracker = new ServiceSequenceTracker();

    @Test
    void firstMessageOfAServiceIsInOrderWhateverItsSequence()
    {
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(65_535, 500));
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(65_535, 501));
        assertEquals(501, tracker.lastSequence(65_535));
    }

    @Test
    void reportsTheSizeOfAGapAndMovesOn()
    {
        tracker.onMessage(1, 1);
        assertEquals(3, tracker.onMessage(1, 5), "2, 3 and 4 are missing");
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(1, 6));
    }

    @Test
    void olderMessagesAreDuplicates()
    {
        tracker.onMessage(2, 10);
        assertEquals(ServiceSequenceTracker.DUPLICATE, tracker.onMessage(2, 10));
        assertEquals(ServiceSequenceTracker.DUPLICATE, tracker.onMessage(2, 3));
        assertEquals(10, tracker.lastSequence(2));
    }

    @Test
    void announcementsRevealTailLoss()
    {
        assertEquals(0, tracker.missingBefore(3, 40), "nothing seen yet: nothing to recover by sequence");
        tracker.onMessage(3, 38);
        assertEquals(2, tracker.missingBefore(3, 40));
        assertEquals(0, tracker.missingBefore(3, 38));
    }

    @Test
    void servicesAreIndependentAndResettable()
    {
        tracker.onMessage(4, 7);
        tracker.onMessage(5, 100);
        tracker.reset(4);
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(4, 1), "new epoch starts again");
        assertEquals(100, tracker.lastSequence(5));
        tracker.resetAll();
        assertEquals(0, tracker.lastSequence(5));
    }

    @Test
    void theHighestServiceIdsWorkToo()
    {
        assertEquals(0, tracker.lastSequence(65_535));
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(65_535, 9));
        assertEquals(2, tracker.onMessage(65_535, 12));
        assertEquals(ServiceSequenceTracker.IN_ORDER, tracker.onMessage(70, 1));
        assertEquals(12, tracker.lastSequence(65_535), "growing keeps what was seen");
    }
}
