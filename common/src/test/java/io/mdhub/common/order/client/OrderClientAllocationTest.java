package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.order.FakeOrderPair;
import io.mdhub.common.test.order.OrderTests;

/**
 * Submitting, sending, reading answers and reporting them allocates nothing on the client's thread once warm (its own
 * Aeron client in invoker mode included). Measured with the per-thread allocation counter, best of a few windows.
 */
@InterruptAfter(60)
class OrderClientAllocationTest
{
    private static final int ORDERS_PER_WINDOW = 5_000;

    private FakeOrderPair pair;
    private OrderClient client;
    private final UnsafeBuffer order = OrderTests.order(1);
    private final CountingListener listener = new CountingListener();
    private long nextOrderId = 1;

    @BeforeEach
    void launch()
    {
        pair = new FakeOrderPair(4);
        client = OrderClient.connect(new OrderClient.Context()
            .clientId(21)
            .servers(pair.servers())
            .window(64)
            .ackTimeoutMs(30_000));
        MdTests.await("client ready", () ->
        {
            client.poll();
            return client.isReady();
        });
    }

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(client, pair);
    }

    @Test
    void theOrderPathAllocatesNothingOnTheClientThread()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        final long tid = Thread.currentThread().getId();
        run(4 * ORDERS_PER_WINDOW);

        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5 && best != 0; round++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            run(ORDERS_PER_WINDOW);
            final long after = threads.getThreadAllocatedBytes(tid);
            best = Math.min(best, after - before);
        }
        assertEquals(0, listener.rejects);
        assertEquals(0, best, "bytes allocated on the client thread for " + ORDERS_PER_WINDOW + " orders");
    }

    private void run(final int orders)
    {
        final long target = listener.acks + orders;
        int submitted = 0;
        while (listener.acks < target)
        {
            while (submitted < orders && client.submitAsync(nextOrderId, order, 0, OrderTests.ORDER_LENGTH, listener))
            {
                nextOrderId++;
                submitted++;
            }
            if (0 == client.poll())
            {
                MdTests.checkInterrupted("acks");
                Thread.onSpinWait();
            }
        }
    }

    private static final class CountingListener implements OrderListener
    {
        private long acks;
        private long rejects;

        @Override
        public void onAck(
            final long orderId,
            final int partition,
            final int epoch,
            final long sequence,
            final boolean duplicate,
            final boolean replicated,
            final long sendTimestampNs)
        {
            acks++;
        }

        @Override
        public void onReject(
            final long orderId,
            final int partition,
            final RejectReason reason,
            final long sendTimestampNs,
            final CharSequence text)
        {
            rejects++;
        }
    }
}
