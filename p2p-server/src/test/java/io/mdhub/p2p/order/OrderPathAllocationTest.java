package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.fix.FixOrderEncoder;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The order path allocates nothing in steady state (no GC pause during a measured run): after a warm-up,
 * thousands of orders go through a replicated pair — pre-processing, sequence, Orders region, replication, the
 * backup's store and queue, the primary's queue, the ack, draining — and neither server's order thread nor the
 * client's submitting thread allocates on the Java heap for them (HotSpot's per-thread allocation counters).
 */
@InterruptAfter(180)
class OrderPathAllocationTest
{
    private static final int WARMUP_ORDERS = 30_000;
    private static final int MEASURED_ORDERS = 20_000;

    @TempDir
    Path dir;

    private TestOrderPair pair;
    private OrderClient client;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(client, pair);
    }

    @ParameterizedTest(name = "idle strategy {0}")
    @ValueSource(strings = {"backoff", "socket"})
    void steadyStateOrdersAllocateNothingOnTheServersOrTheClient(final String idleStrategy)
    {
        pair = new TestOrderPair(dir);
        // a sink that keeps nothing: the pair's recording sink would allocate for the test's own bookkeeping
        pair.launch(0, (ctx) -> ctx.sink(new OrderSinks.NoOpSink()).idleStrategy(idleStrategy));
        pair.launch(1, (ctx) -> ctx.sink(new OrderSinks.NoOpSink()).idleStrategy(idleStrategy));
        pair.connectClient();
        pair.awaitRoles("each server primary of its half", pair::eachServerPrimaryOfHalf);
        client = OrderClient.connect(new OrderClient.Context()
            .clientId(4242)
            .servers(pair.clientServers())
            .idleStrategy(idleStrategy));
        MdTests.await("the client's partition maps", () ->
        {
            client.poll();
            return client.isReady();
        });

        final FixOrderEncoder encoder = new FixOrderEncoder();
        final UnsafeBuffer fix = new UnsafeBuffer(new byte[1024]);
        long orderId = 1;
        for (int i = 0; i < WARMUP_ORDERS; i++, orderId++)
        {
            submit(encoder, fix, orderId);
        }

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long[] serverThreads = {threadId("order-server-0"), threadId("order-server-1")};
        final long clientThread = Thread.currentThread().getId();
        final long[] before = allocated(threads, serverThreads, clientThread);
        final long startNs = System.nanoTime();
        for (int i = 0; i < MEASURED_ORDERS; i++, orderId++)
        {
            submit(encoder, fix, orderId);
        }
        final long busyNs = System.nanoTime() - startNs;
        final long[] after = allocated(threads, serverThreads, clientThread);
        // the same time without orders: what housekeeping (heartbeats, the fence's accept) allocates by the clock
        final long idleStartNs = System.nanoTime();
        while (System.nanoTime() - idleStartNs < busyNs)
        {
            client.poll();
            Thread.onSpinWait();
        }
        final long[] idle = allocated(threads, serverThreads, clientThread);

        final StringBuilder report = new StringBuilder("bytes allocated for " + MEASURED_ORDERS + " orders in " +
            busyNs / 1_000_000 + " ms, and in as long without orders:");
        final String[] names = {"server 0", "server 1", "client"};
        for (int i = 0; i < 3; i++)
        {
            report.append(' ').append(names[i]).append(' ').append(after[i] - before[i]).append(" / ")
                .append(idle[i] - after[i]);
        }
        System.out.println("OrderPathAllocationTest: " + report);
        for (int i = 0; i < 3; i++)
        {
            // one allocation per order would be MEASURED_ORDERS x 16 bytes or more; JVM bookkeeping may add a few
            final long perOrders = (after[i] - before[i]) - (idle[i] - after[i]);
            assertTrue(perOrders < MEASURED_ORDERS, report::toString);
        }
        assertEquals(WARMUP_ORDERS + MEASURED_ORDERS, client.ackCount(), "every order acknowledged");
    }

    private static long[] allocated(
        final com.sun.management.ThreadMXBean threads, final long[] serverThreads, final long clientThread)
    {
        return new long[] {threads.getThreadAllocatedBytes(serverThreads[0]),
            threads.getThreadAllocatedBytes(serverThreads[1]), threads.getThreadAllocatedBytes(clientThread)};
    }

    private void submit(final FixOrderEncoder encoder, final UnsafeBuffer fix, final long orderId)
    {
        final int length = encoder.clOrdId(orderId).msgSeqNum((int)orderId).sendingTimeMs(1_764_000_000_000L)
            .transactTimeMs(1_764_000_000_000L).symbol("VOD.L").side(Side.BUY).quantity(100)
            .ordType((byte)'2').price(10_000 + orderId % 100, -2).encode(fix, 0);
        client.submit(orderId, fix, 0, length);
    }

    private static long threadId(final String name)
    {
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (name.equals(thread.getName()))
            {
                return thread.getId();
            }
        }
        throw new AssertionError("no thread named " + name);
    }
}
