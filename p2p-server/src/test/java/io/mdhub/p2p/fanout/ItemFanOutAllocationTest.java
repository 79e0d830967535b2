package io.mdhub.p2p.fanout;

import static io.mdhub.p2p.fanout.FanOutHarness.FEED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.refinitiv.eta.codec.StreamStates;
import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.source.ItemSourceListener;
import io.netty.util.ResourceLeakDetector;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An update from the source reaches every watcher of its item, packed into each consumer's RIPC frame and flushed,
 * without allocating: the worker's callback, its fan-out to the watchers, the copies and the flush.
 */
@InterruptAfter(60)
class ItemFanOutAllocationTest
{
    private static final int WATCHERS = 8;
    private static final int UPDATES = 2_000;

    private final ResourceLeakDetector.Level leakLevel = ResourceLeakDetector.getLevel();

    @AfterEach
    void restoreLeakDetection()
    {
        ResourceLeakDetector.setLevel(leakLevel);
    }

    @Test
    void anUpdateReachesEveryWatcherWithoutAllocating()
    {
        // paranoid leak detection (the test JVM's) records a stack trace per buffer: that is the detector's garbage
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (FanOutHarness harness = new FanOutHarness(100, 1_000))
        {
            final FanOutHarness.Consumer[] consumers = new FanOutHarness.Consumer[WATCHERS];
            for (int i = 0; i < WATCHERS; i++)
            {
                consumers[i] = harness.connectFramed();
                consumers[i].send(FanOutHarness.login("user" + i, false));
                consumers[i].send(FanOutHarness.item(5 + i, FEED, "TRI.N", true, 0));
            }
            harness.refresh(0, true, StreamStates.OPEN);
            for (final FanOutHarness.Consumer consumer : consumers)
            {
                assertTrue(consumer.drain() > 0, "login refresh and item refresh");
            }
            assertEquals(WATCHERS, harness.counters.watchlistEntries().get());
            final UnsafeBuffer update = new UnsafeBuffer(FanOutHarness.update());
            final ItemSourceListener listener = harness.source.listener();

            final long bytes = Allocations.leastAllocatedBytes(() ->
            {
                long sent = 0;
                for (int u = 0; u < UPDATES; u++)
                {
                    listener.onUpdate(0, update, 0, update.capacity());
                    for (int i = 0; i < WATCHERS; i++)
                    {
                        sent += consumers[i].drain();
                    }
                }
                return sent;
            }, 10);

            assertEquals(0, bytes, "bytes allocated by " + UPDATES + " updates to " + WATCHERS + " watchers");
        }
    }
}
