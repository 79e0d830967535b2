package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

/**
 * The order service's Context: a clone owns none of what the original was given or made (its sink, its in-memory
 * counters), so closing both closes each resource once.
 */
@InterruptAfter(10)
class OrderServiceContextTest
{
    @TempDir
    Path dir;

    @Test
    void aCloneTakesNeitherTheSinkNorTheCountersAndConcludesItsOwn()
    {
        final AtomicInteger closes = new AtomicInteger();
        final OrderSink given = new OrderSink()
        {
            @Override
            public boolean write(
                final int partition, final long sequence, final DirectBuffer record, final int offset,
                final int length)
            {
                return true;
            }

            @Override
            public void close()
            {
                closes.incrementAndGet();
            }
        };
        final OrderService.Context ctx = new OrderService.Context().serverId(0).queueDir(dir.toString()).sink(given);
        ctx.conclude();
        final OrderService.Context copy = ctx.clone();

        assertFalse(copy.isConcluded());
        assertNull(copy.sink(), "the sink stays with the original, which closes it");
        assertNull(copy.countersManager(), "so do the in-memory counters it made");
        copy.conclude();
        assertNotNull(copy.sink());
        assertTrue(given != copy.sink(), "the copy made its own from the sink settings");
        assertTrue(ctx.countersManager() != copy.countersManager());

        copy.close();
        ctx.close();
        assertEquals(1, closes.get(), "the given sink is closed once, by the Context it was given to");
        assertSame(given, ctx.sink());
    }
}
