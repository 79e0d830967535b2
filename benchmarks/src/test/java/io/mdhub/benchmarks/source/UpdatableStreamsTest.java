package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The update round: order, the last stream filling a removed one's place, and counters kept across leaving and
 * rejoining it.
 */
@InterruptAfter(30)
class UpdatableStreamsTest
{
    private static SinkStream stream(final int streamId)
    {
        final byte[] name = ("RIC" + streamId).getBytes(StandardCharsets.US_ASCII);
        return new SinkStream(streamId, new UnsafeBuffer(name), 0, name.length);
    }

    private static List<Integer> oneRound(final UpdatableStreams round)
    {
        final List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < round.size(); i++)
        {
            final int slot = round.nextSlot();
            ids.add(round.streamId(slot));
            round.nextUpdateCount(slot);
        }
        return ids;
    }

    @Test
    void goesRoundInOrderAndTheLastStreamTakesARemovedOnesPlace()
    {
        final UpdatableStreams round = new UpdatableStreams();
        final SinkStream[] streams = new SinkStream[100];
        for (int i = 0; i < streams.length; i++)
        {
            streams[i] = stream(i + 1);
            round.add(streams[i]);
        }
        final List<Integer> first = oneRound(round);
        assertEquals(1, first.get(0));
        assertEquals(100, first.get(99));

        round.remove(streams[1]);
        assertEquals(99, round.size());
        final List<Integer> second = oneRound(round);
        assertEquals(List.of(1, 100, 3), second.subList(0, 3));
        assertEquals(99, second.get(98));
        assertEquals(streams[0].basePrice, round.basePrice(0));
    }

    @Test
    void aStreamKeepsItsCounterOutOfTheRoundAndBackInIt()
    {
        final UpdatableStreams round = new UpdatableStreams();
        final SinkStream a = stream(1);
        final SinkStream b = stream(2);
        round.add(a);
        round.add(b);
        for (int i = 0; i < 7; i++)
        {
            round.nextUpdateCount(round.nextSlot());
        }
        assertEquals(4, round.updateCount(a));
        assertEquals(3, round.updateCount(b));

        round.remove(a);
        assertEquals(4, a.updateCount, "counter back in the stream");
        assertEquals(4, round.updateCount(a));
        assertEquals(1, round.size());
        round.add(a);
        round.add(a);
        assertEquals(2, round.size(), "added once");
        assertEquals(5, round.nextUpdateCount(1), "counts on from where it was");

        round.clear();
        assertEquals(0, round.size());
        assertEquals(5, a.updateCount);
        assertEquals(3, b.updateCount);
    }
}
