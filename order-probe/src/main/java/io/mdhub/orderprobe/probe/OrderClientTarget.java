package io.mdhub.orderprobe.probe;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

import io.mdhub.common.order.client.OrderClient;

/**
 * The probe's default target: the MDHub order service, each publisher with an {@link OrderClient} of its own (its
 * own client id and connections), connected on the publisher's thread, submitting synchronously with
 * {@link OrderClient#submit(long, DirectBuffer, int, int)} and polled while it waits. Rejected and timed-out orders
 * reach the probe as the client throws them.
 */
public final class OrderClientTarget implements OrderTarget
{
    /** The name of the default target. */
    public static final String NAME = "order-client";

    private final OrderClient.Context client;

    /**
     * @param client the settings each publisher's client is cloned from (servers, timeouts); not concluded.
     */
    public OrderClientTarget(final OrderClient.Context client)
    {
        this.client = client;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Session connect(final int publisher, final long clientId)
    {
        return new ClientSession(OrderClient.connect(client.clone().clientId(clientId)));
    }

    @Override
    public void close()
    {
        // every client belongs to its session
    }

    private static final class ClientSession implements Session
    {
        private final OrderClient client;

        ClientSession(final OrderClient client)
        {
            this.client = client;
        }

        @Override
        public boolean isReady()
        {
            return client.isReady();
        }

        @Override
        public int poll()
        {
            return client.poll();
        }

        @Override
        public void submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
        {
            client.submit(orderId, fix, offset, length);
        }

        @Override
        public void close()
        {
            CloseHelper.quietClose(client);
        }
    }
}
