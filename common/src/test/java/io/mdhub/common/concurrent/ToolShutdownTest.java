package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * A signal releases the tool's loop and holds the JVM only until the loop has closed, at most the close wait.
 */
@InterruptAfter(10)
class ToolShutdownTest
{
    @Test
    void aSignalReleasesTheLoopAndWaitsForItsClose() throws Exception
    {
        final ToolShutdown shutdown = new ToolShutdown("test", 5, false);
        assertFalse(shutdown.await(1));
        assertFalse(shutdown.isStopped());

        final Thread signal = new Thread(shutdown::onSignal);
        signal.start();
        assertTrue(shutdown.await(5_000), "the loop is released");
        assertTrue(shutdown.isStopped());
        signal.join(200);
        assertTrue(signal.isAlive(), "the signal holds the JVM until the loop has closed");

        shutdown.close();
        signal.join(5_000);
        assertFalse(signal.isAlive(), "closing lets the signal finish");
    }

    @Test
    void aLoopThatNeverClosesHoldsTheSignalOnlyForTheCloseWait() throws Exception
    {
        final ToolShutdown shutdown = new ToolShutdown("test", 1, false);
        final long startNs = System.nanoTime();
        shutdown.onSignal();
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(waitedMs >= 900 && waitedMs < 8_000, () -> "waited " + waitedMs + " ms");
        shutdown.close();
    }

    @Test
    void aQuitCommandStopsTheLoopWithoutASignal() throws Exception
    {
        try (ToolShutdown shutdown = ToolShutdown.install("test"))
        {
            shutdown.stop();
            assertTrue(shutdown.isStopped());
            assertTrue(shutdown.await(0));
        }
    }
}
