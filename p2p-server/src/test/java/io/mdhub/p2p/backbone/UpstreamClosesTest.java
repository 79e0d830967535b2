package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.aeron.Publication;
import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class UpstreamClosesTest
{
    private final RecordingControlSender control = new RecordingControlSender();
    private int wakes;
    private final UpstreamCloses closes = new UpstreamCloses(control, () -> wakes++, 0, 4, 2);

    @Test
    void aCloseTheStreamTakesGoesOutAtOnce()
    {
        closes.close(5L, 7, 10);
        assertEquals(List.of("close 5 7 10"), control.sent);
        assertTrue(closes.isEmpty());
        assertEquals(0, wakes);
    }

    @Test
    void closesKeptUnderBackPressureGoOutInOrderAFewPerCycle()
    {
        control.result = Publication.BACK_PRESSURED;
        closes.close(5L, 7, 10);
        control.result = 1;
        closes.close(5L, 7, 11); // behind the kept one, though the stream would take it
        closes.close(5L, 7, 12);
        assertTrue(control.sent.isEmpty());
        assertFalse(closes.isEmpty());
        assertEquals(3, wakes, "the cycle polls while closes wait");

        assertEquals(2, closes.sendPending(), "at most two per cycle");
        assertEquals(1, closes.sendPending());
        assertEquals(0, closes.sendPending());
        assertEquals(List.of("close 5 7 10", "close 5 7 11", "close 5 7 12"), control.sent);
        assertTrue(closes.isEmpty());
    }

    @Test
    void aFullStoreGivesUpTheOldestAndCountsIt()
    {
        control.result = Publication.BACK_PRESSURED;
        for (int handle = 1; handle <= 5; handle++)
        {
            closes.close(5L, 7, handle);
        }
        assertEquals(1, closes.givenUp());

        control.result = 1;
        closes.sendPending();
        closes.sendPending();
        assertEquals(List.of("close 5 7 2", "close 5 7 3", "close 5 7 4", "close 5 7 5"), control.sent);
    }

    @Test
    void aCloseNobodyListensForIsMoot()
    {
        control.result = Publication.NOT_CONNECTED;
        closes.close(5L, 7, 10);
        control.result = Publication.CLOSED;
        closes.close(5L, 7, 11);
        assertTrue(closes.isEmpty(), "not kept");
        assertEquals(2, control.attempts);
        assertEquals(0, wakes);
    }

    @Test
    void closesWaitWhileTheBackboneIsDown()
    {
        control.isDown = true;
        closes.close(5L, 7, 10);
        assertEquals(0, closes.sendPending());
        assertEquals(0, control.attempts, "nothing is sent while the backbone is down");
        assertFalse(closes.isEmpty());

        control.isDown = false;
        assertEquals(1, closes.sendPending());
        assertEquals(List.of("close 5 7 10"), control.sent);
    }
}
