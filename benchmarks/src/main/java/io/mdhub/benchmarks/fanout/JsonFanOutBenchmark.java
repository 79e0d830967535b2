package io.mdhub.benchmarks.fanout;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.p2p.source.ServiceNames;
import io.mdhub.p2p.websocket.JsonMessages;
import io.mdhub.p2p.websocket.SharedJson;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * What a WebSocket API (JSON) consumer costs the p2p-server per update, beside {@link FanOutCopyBenchmark}'s RSSL
 * copy: the update's conversion to JSON with ETA's converter, done once per update for all the JSON consumers of a
 * worker, and each consumer's message in its packed frame: the lookup of the shared JSON by the update's bytes, then
 * only its stream id around it (and the separator from the message before). The captured 57-byte
 * level-1 update; its conversions alternate between more distinct updates than the worker keeps, so every call of
 * {@link #convertOncePerUpdate()} converts.
 */
public class JsonFanOutBenchmark extends AbstractMdBenchmark
{
    /**
     * Messages per invocation of {@link #messageForOneJsonWatcher()}.
     */
    public static final int BATCH = 64;

    /** More than the worker keeps, so every conversion converts. */
    private static final int DISTINCT_UPDATES = 2 * JsonMessages.SHARED_ENTRIES;

    private final UnsafeBuffer[] updates = new UnsafeBuffer[DISTINCT_UPDATES];
    private JsonMessages json;
    private SharedJson shared;
    private ByteBuf frame;
    private int next;
    private int streamId;

    /**
     * Build the worker's converter and the updates.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        json = new JsonMessages(DictionaryLoader.loadBundled(), ServiceNames.single(1, "DIRECT_FEED"), 30);
        for (int i = 0; i < DISTINCT_UPDATES; i++)
        {
            final byte[] bytes = BenchmarkMessages.LEVEL1_UPDATE.clone();
            bytes[bytes.length - 1] = (byte)i; // the last field's value differs
            updates[i] = BenchmarkMessages.direct(bytes);
        }
        shared = json.shared(updates[0], 0, updates[0].capacity());
        if (null == shared)
        {
            throw new IllegalStateException("the update does not convert: " + json.errorText());
        }
        frame = Unpooled.directBuffer((shared.messageLength() + 1) * BATCH + 2);
    }

    /**
     * Release the frame buffer.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        frame.release();
    }

    /**
     * @return a length from the conversion.
     */
    @Benchmark
    public int convertOncePerUpdate()
    {
        final UnsafeBuffer update = updates[next];
        next = (next + 1) % DISTINCT_UPDATES;
        final SharedJson converted = json.shared(update, 0, update.capacity());
        return null == converted ? -1 : converted.messageLength();
    }

    /**
     * @return the bytes written.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    @NoAllocation
    public int messageForOneJsonWatcher()
    {
        frame.clear().writeByte('[');
        final int watcherStreamId = ++streamId;
        final UnsafeBuffer update = updates[0];
        for (int i = 0; i < BATCH; i++)
        {
            // each watcher finds the update's shared JSON by the update's bytes, then writes its own stream id
            json.shared(update, 0, update.capacity()).writeMessage(0 == i ? frame : frame.writeByte(','),
                watcherStreamId);
        }
        return frame.writeByte(']').readableBytes();
    }
}
