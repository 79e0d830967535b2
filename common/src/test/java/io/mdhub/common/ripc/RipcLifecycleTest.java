package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import org.junit.jupiter.api.Test;

/**
 * Launch and close of RIPC components: a failed launch releases what conclude created.
 */
@InterruptAfter(20)
class RipcLifecycleTest
{
    @Test
    void failedBindClosesTheContextAndItsEventLoop() throws InterruptedException
    {
        final int port = MdTests.unusedPort();
        try (RipcServer first = RipcServer.launch(new RipcServer.Context().port(port).componentName("bind-first")))
        {
            final RipcServer.Context second = new RipcServer.Context().port(port).componentName("bind-twice");
            // checked BindException / NativeIoException, thrown sneakily by syncUninterruptibly()
            final Throwable thrown = assertThrows(Throwable.class, () -> RipcServer.launch(second));
            assertTrue(String.valueOf(thrown.getMessage()).contains("in use"), thrown::toString);

            assertEquals(0, joinThreadsNamed("ripc-bind-twice"), "event-loop threads of the failed launch");
            assertTrue(second.eventLoopGroup() == null, "the context let go of its group");
            assertEquals(1, liveThreadsNamed("ripc-bind-first").size(), "the first server is untouched");
        }
    }

    private static int joinThreadsNamed(final String prefix) throws InterruptedException
    {
        for (final Thread thread : liveThreadsNamed(prefix))
        {
            thread.join(TimeUnit.SECONDS.toMillis(5)); // a shut-down group's thread ends right after termination
            assertFalse(thread.isAlive(), thread::getName);
        }
        return liveThreadsNamed(prefix).size();
    }

    private static List<Thread> liveThreadsNamed(final String prefix)
    {
        final List<Thread> threads = new ArrayList<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().startsWith(prefix) && thread.isAlive())
            {
                threads.add(thread);
            }
        }
        return threads;
    }
}
