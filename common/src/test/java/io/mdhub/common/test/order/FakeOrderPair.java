package io.mdhub.common.test.order;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import io.mdhub.common.net.SocketIdleStrategy;
import io.mdhub.common.net.SocketPoller;
import io.mdhub.common.test.MdTests;

/**
 * A fake active/active order server pair for client tests: two {@link FakeOrderServer}s on one agent thread sharing
 * one "replicated" store (so the survivor of a failover answers a resend with the original ack, flagged duplicate),
 * per-partition sequences and epochs, and the partition roles. Partition p starts with server p % 2 as primary.
 * Tests act on the pair's thread through {@link #call(Runnable)}; nothing here is thread safe otherwise.
 */
public final class FakeOrderPair implements AutoCloseable
{
    private final int partitionCount;
    private final int[] primaryOf;
    private final int[] epochOf;
    private final long[] lastSequence;
    private final Map<String, long[]> store = new HashMap<>();
    private final FakeOrderServer[] servers = new FakeOrderServer[2];
    private final ManyToOneConcurrentArrayQueue<Runnable> commands = new ManyToOneConcurrentArrayQueue<>(64);
    private final SocketPoller poller = new SocketPoller(64 * 1024, 4 * 1024 * 1024);
    private final AgentRunner runner;

    /**
     * Start both servers and the pair's thread.
     *
     * @param partitionCount partitions of the pair.
     */
    public FakeOrderPair(final int partitionCount)
    {
        this.partitionCount = partitionCount;
        this.primaryOf = new int[partitionCount];
        this.epochOf = new int[partitionCount];
        this.lastSequence = new long[partitionCount];
        for (int p = 0; p < partitionCount; p++)
        {
            primaryOf[p] = p % 2;
            epochOf[p] = 1;
        }
        servers[0] = new FakeOrderServer(this, poller, 0);
        servers[1] = new FakeOrderServer(this, poller, 1);
        final SocketIdleStrategy idle = new SocketIdleStrategy(0, 1);
        idle.attach(poller);
        runner = new AgentRunner(idle, Throwable::printStackTrace, null, new PairAgent());
        AgentRunner.startOnThread(runner);
    }

    /**
     * @return both servers' addresses as an order client lists them, {@code host:port,host:port}.
     */
    public String servers()
    {
        return servers[0].address() + "," + servers[1].address();
    }

    /**
     * @param serverId 0 or 1.
     * @return that server.
     */
    public FakeOrderServer server(final int serverId)
    {
        return servers[serverId];
    }

    /**
     * Run an action on the pair's thread and wait for it.
     *
     * @param action what to do.
     */
    public void call(final Runnable action)
    {
        query(() ->
        {
            action.run();
            return Boolean.TRUE;
        });
    }

    /**
     * Compute something on the pair's thread and wait for it.
     *
     * @param query what to compute.
     * @param <T>   result type.
     * @return the result.
     */
    public <T> T query(final Callable<T> query)
    {
        final AtomicReference<Object> result = new AtomicReference<>();
        final Runnable command = () ->
        {
            try
            {
                result.set(new Outcome(query.call(), null));
            }
            catch (final Exception ex)
            {
                result.set(new Outcome(null, ex));
            }
        };
        MdTests.await("fake pair takes a command", () -> commands.offer(command));
        poller.wakeup();
        MdTests.await("fake pair runs the command", () -> null != result.get());
        final Outcome outcome = (Outcome)result.get();
        if (null != outcome.failure)
        {
            LangUtil.rethrowUnchecked(outcome.failure);
        }
        @SuppressWarnings("unchecked")
        final T value = (T)outcome.value;
        return value;
    }

    /**
     * Pair thread: make a server primary for a partition (epoch + 1) and send both servers' maps to their clients.
     *
     * @param partition the partition.
     * @param serverId  its new primary.
     */
    public void setPrimary(final int partition, final int serverId)
    {
        primaryOf[partition] = serverId;
        epochOf[partition]++;
        servers[0].clearNotPrimary(partition);
        servers[1].clearNotPrimary(partition);
        sendMaps();
    }

    /**
     * Pair thread: make one server primary for every partition (epoch + 1 where that changes the primary).
     *
     * @param serverId the primary.
     */
    public void setPrimaryForAll(final int serverId)
    {
        for (int p = 0; p < partitionCount; p++)
        {
            if (primaryOf[p] != serverId)
            {
                primaryOf[p] = serverId;
                epochOf[p]++;
            }
        }
        sendMaps();
    }

    /**
     * Pair thread: a server dies (ingress and response streams close) and the other is promoted for its partitions.
     *
     * @param deadServerId the server that dies.
     */
    public void failover(final int deadServerId)
    {
        servers[deadServerId].kill();
        setPrimaryForAll(1 - deadServerId);
    }

    /**
     * @return stored orders (call on the pair's thread, or through {@link #query}).
     */
    public int storedCount()
    {
        return store.size();
    }

    /**
     * @return partitions of the pair.
     */
    public int partitionCount()
    {
        return partitionCount;
    }

    /**
     * Stop the thread and close both servers.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(runner, servers[0], servers[1], poller);
    }

    int primaryOf(final int partition)
    {
        return primaryOf[partition];
    }

    int epochOf(final int partition)
    {
        return epochOf[partition];
    }

    long[] stored(final long clientId, final long orderId)
    {
        return store.get(clientId + ":" + orderId);
    }

    long[] store(final long clientId, final long orderId, final int partition)
    {
        final long[] record = {partition, epochOf[partition], ++lastSequence[partition]};
        store.put(clientId + ":" + orderId, record);
        return record;
    }

    private void sendMaps()
    {
        for (final FakeOrderServer server : servers)
        {
            if (server.isAlive())
            {
                server.sendMaps();
            }
        }
    }

    private static final class Outcome
    {
        private final Object value;
        private final Exception failure;

        Outcome(final Object value, final Exception failure)
        {
            this.value = value;
            this.failure = failure;
        }
    }

    private final class PairAgent implements Agent
    {
        @Override
        public int doWork()
        {
            int work = commands.drain(Runnable::run);
            work += poller.poll();
            work += servers[0].doWork();
            work += servers[1].doWork();
            poller.flush();
            return work;
        }

        @Override
        public String roleName()
        {
            return "fake-order-pair";
        }
    }
}
