package io.mdhub.benchmarks.orders;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.orderprobe.FixNewOrderSingles;
import io.mdhub.orderprobe.demo.InProcessOrderPair;

/**
 * One order through an active/active pair in this JVM (loopback TCP), synchronously: FIX pre-processing,
 * sequence, Orders region, replication to the backup (its region, index and queue), the primary's Chronicle queue,
 * the ack, draining. With {@code -prof gc}, {@code gc.alloc.rate.norm} counts what every thread of the JVM allocated
 * per order — the client's and both servers' order threads — which must stay at 0 B/op for the order service to be
 * GC-free in steady state. {@code idleStrategy} is how the servers' order threads and the submitting thread wait:
 * {@code backoff} (parks) or {@code socket} (blocks in the kernel until its bytes arrive).
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+UseParallelGC", "-Dchronicle.analytics.disable=true",
    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class OrderPairBenchmark extends AbstractMdBenchmark
{
    /**
     * The order threads' and the client's idle strategy.
     */
    @Param({"backoff", "socket"})
    public String idleStrategy = "socket"; // JMH sets it; BenchmarkSmokeTest calls setUp without JMH

    private Path dir;
    private InProcessOrderPair pair;
    private OrderClient client;
    private final FixNewOrderSingles orders = new FixNewOrderSingles(FixNewOrderSingles.DEFAULT_LENGTH);
    private final UnsafeBuffer fix = new UnsafeBuffer(new byte[orders.maxLength()]);
    private long orderId;

    /**
     * Start the pair and a client, and wait for the partition maps.
     *
     * @throws IOException if the temporary directory cannot be made.
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        dir = Files.createTempDirectory("mdhub-order-bench");
        pair = new InProcessOrderPair(dir, false, idleStrategy);
        client = OrderClient.connect(new OrderClient.Context()
            .clientId(System.nanoTime())
            .servers(pair.servers())
            .idleStrategy(idleStrategy)
            .maxOrderLength(orders.maxLength()));
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!client.isReady())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the pair's partition maps did not arrive");
            }
            client.poll();
            Thread.onSpinWait();
        }
    }

    /**
     * Stop everything and delete the queues.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        CloseHelper.quietCloseAll(client, pair);
        IoUtil.delete(dir.toFile(), true);
    }

    /**
     * @return the order's sequence in its partition.
     */
    @Benchmark
    public long submitReplicatedOrder()
    {
        final long id = ++orderId;
        final int length = orders.generate(id, 1_764_000_000_000L, fix, 0);
        return client.submit(id, fix, 0, length);
    }
}
