package io.mdhub.benchmarks.source;

import java.util.Arrays;

/**
 * The open streaming items of one connection that take updates, in the round-robin order the updates go out: what an
 * update needs (streamId, base price, counter) sits in parallel primitive arrays walked in order. An update read from
 * a {@link SinkStream} instead costs a cache miss whenever the collector has put the object away from its
 * neighbours in the round (it copies them in its own traversal order), and that miss was nearly half of the source's
 * event-loop time at 300,000 updates/s over 100,000 items. A stream's counter lives here while it is in the round
 * and in its SinkStream otherwise. Owned by the connection's event loop.
 */
final class UpdatableStreams
{
    private static final int INITIAL_CAPACITY = 64;

    private SinkStream[] streams = new SinkStream[INITIAL_CAPACITY];
    private int[] streamIds = new int[INITIAL_CAPACITY];
    private long[] basePrices = new long[INITIAL_CAPACITY];
    private long[] updateCounts = new long[INITIAL_CAPACITY];
    private int size;
    private int next;

    int size()
    {
        return size;
    }

    /**
     * Put the stream at the end of the round, with its counter.
     */
    void add(final SinkStream stream)
    {
        if (stream.index >= 0)
        {
            return;
        }
        if (size == streams.length)
        {
            final int capacity = size * 2;
            streams = Arrays.copyOf(streams, capacity);
            streamIds = Arrays.copyOf(streamIds, capacity);
            basePrices = Arrays.copyOf(basePrices, capacity);
            updateCounts = Arrays.copyOf(updateCounts, capacity);
        }
        stream.index = size;
        streams[size] = stream;
        streamIds[size] = stream.streamId;
        basePrices[size] = stream.basePrice;
        updateCounts[size] = stream.updateCount;
        size++;
    }

    /**
     * Take the stream out of the round (the last one takes its place), its counter back into it.
     */
    void remove(final SinkStream stream)
    {
        final int index = stream.index;
        if (index < 0)
        {
            return;
        }
        stream.updateCount = updateCounts[index];
        stream.index = -1;
        final int last = --size;
        if (index != last)
        {
            streams[index] = streams[last];
            streams[index].index = index;
            streamIds[index] = streamIds[last];
            basePrices[index] = basePrices[last];
            updateCounts[index] = updateCounts[last];
        }
        streams[last] = null;
        if (next >= size)
        {
            next = 0;
        }
    }

    /**
     * Empty the round, every counter back into its stream.
     */
    void clear()
    {
        for (int i = 0; i < size; i++)
        {
            streams[i].updateCount = updateCounts[i];
            streams[i].index = -1;
            streams[i] = null;
        }
        size = 0;
        next = 0;
    }

    /**
     * @return the stream's update counter, wherever it is kept now.
     */
    long updateCount(final SinkStream stream)
    {
        return stream.index >= 0 ? updateCounts[stream.index] : stream.updateCount;
    }

    /**
     * Move the round on by one; the round must not be empty.
     *
     * @return the slot whose turn it is, for {@link #streamId(int)}, {@link #basePrice(int)} and
     * {@link #nextUpdateCount(int)}.
     */
    int nextSlot()
    {
        final int slot = next;
        next = slot + 1 >= size ? 0 : slot + 1;
        return slot;
    }

    int streamId(final int slot)
    {
        return streamIds[slot];
    }

    long basePrice(final int slot)
    {
        return basePrices[slot];
    }

    /**
     * @return the slot's counter after counting one more update.
     */
    long nextUpdateCount(final int slot)
    {
        return ++updateCounts[slot];
    }
}
