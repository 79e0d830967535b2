package io.mdhub.orderprobe.demo;

import java.nio.file.Path;

import org.agrona.CloseHelper;

import io.mdhub.common.net.LocalPorts;
import io.mdhub.p2p.order.OrderService;
import io.mdhub.p2p.order.OrderSinks;

/**
 * An active/active order pair in this JVM on embedded defaults — two order servers on free loopback ports,
 * 4 partitions, real TCP fences, Chronicle queues under a working directory, a no-op sink — for the orders demo, the
 * JMH order benchmark and tests.
 */
public final class InProcessOrderPair implements AutoCloseable
{
    private final OrderService[] servers = new OrderService[2];

    /**
     * Start both servers.
     *
     * @param work          where the queues go.
     * @param registerMBean register the servers' MXBeans (two pairs in one JVM would clash).
     */
    public InProcessOrderPair(final Path work, final boolean registerMBean)
    {
        this(work, registerMBean, null);
    }

    /**
     * Start both servers, their order threads waiting with the given idle strategy.
     *
     * @param work                where the queues go.
     * @param registerMBean       register the servers' MXBeans (two pairs in one JVM would clash).
     * @param orderIdleStrategy   idle strategy of both servers' order threads (see {@code IdleStrategies}), or null
     *                            for {@code mdhub.order.idle.strategy}.
     */
    public InProcessOrderPair(final Path work, final boolean registerMBean, final String orderIdleStrategy)
    {
        try
        {
            final int[] fences = {LocalPorts.unused(), LocalPorts.unused()};
            final int[] peers = {LocalPorts.unused(), LocalPorts.unused()};
            for (int id = 0; id < 2; id++)
            {
                final OrderService.Context ctx = new OrderService.Context();
                if (null != orderIdleStrategy)
                {
                    ctx.idleStrategy(orderIdleStrategy);
                }
                servers[id] = OrderService.launch(ctx
                    .serverId(id)
                    .partitions(4)
                    .sink(new OrderSinks.NoOpSink())
                    .address("localhost:0")
                    .peerAddress("localhost:" + peers[id])
                    .peerRemoteAddress("localhost:" + peers[1 - id])
                    .fence("localhost:" + fences[id], "localhost:" + fences[1 - id])
                    .queueDir(work.resolve("queue-" + id).toString())
                    .registerMBean(registerMBean));
            }
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(servers[0], servers[1]);
            throw ex;
        }
    }

    /**
     * @return the client setting naming both servers ({@code localhost:port,localhost:port}).
     */
    public String servers()
    {
        return "localhost:" + servers[0].address().getPort() + ",localhost:" + servers[1].address().getPort();
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(servers[0], servers[1]);
    }
}
