package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.codecs.order.AnswerRequestEncoder;
import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpCompleteEncoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestEncoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;
import io.mdhub.common.codecs.order.PeerHeartbeatEncoder;
import io.mdhub.common.codecs.order.ReplicateAckEncoder;
import io.mdhub.common.codecs.order.ReplicateOrderEncoder;
import io.mdhub.common.net.SocketPoller;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * The order server's peer link ({@link PeerLink#onMessage}, what the peer's connection hands over: heartbeats,
 * replicated orders, acks, answer and catch-up requests) fed random bytes and mutated valid encodings of every
 * message, behind a real link listening on loopback. Its listener reads every field and group entry the order agent
 * reads. Nothing may throw, and the outcome (accepted or counted malformed, and what the listener read) must be the
 * same whether the bytes after the message end its buffer or are someone else's: a decoder that reads past the
 * message gets an exception in the first case and the next message's bytes in the second.
 */
@FuzzGuarded
class PeerLinkFuzzTest
{
    private static final int PREFIX = 8;
    private static final int TRAILER = 64;
    private static final List<byte[]> MESSAGES = messages();

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
    private final AtomicCounter malformed = counters.newCounter("malformed");
    private final AgentReads reads = new AgentReads();
    private final SocketPoller poller = new SocketPoller(64 * 1024, 64 * 1024);
    private final PeerLink link = new PeerLink(1, poller, new InetSocketAddress("127.0.0.1", 0),
        new InetSocketAddress("127.0.0.1", 9), 64 * 1024, reads, malformed,
        new AddressGate(1, "peer port", 8, 100, counters.newCounter("refused")));

    @AfterProperty
    void close()
    {
        link.close();
        poller.close();
    }

    @Property
    void randomBytes(@ForAll @Size(max = 150) final byte[] bytes)
    {
        deliverBothWays(bytes);
    }

    @Property
    void mutatedMessages(@ForAll("mutated") final byte[] bytes)
    {
        deliverBothWays(bytes);
    }

    /**
     * Found by {@link #mutatedMessages}: a ReplicateOrder whose catchUp byte is 7 made the generated enum getter
     * throw an IllegalArgumentException out of the link (only IndexOutOfBounds was caught there).
     */
    @Example
    void aReplicatedOrderWithAnUnknownBooleanIsRead()
    {
        final byte[] message = MESSAGES.get(1).clone();
        message[MessageHeaderEncoder.ENCODED_LENGTH + ReplicateOrderEncoder.catchUpEncodingOffset()] = 7;
        final String outcome = deliver(message, false);
        assertTrue(outcome.startsWith("true replicate false"), outcome); // taken, and not a catch-up
    }

    /**
     * Found by {@link #mutatedMessages}: a CatchUpComplete whose group says more entries than the message holds was
     * read past its end (an IndexOutOfBoundsException where it ends the buffer, the next message's bytes where not).
     */
    @Example
    void aGroupLongerThanItsMessageIsMalformed()
    {
        final byte[] message = MESSAGES.get(5).clone();
        message[MessageHeaderEncoder.ENCODED_LENGTH + CatchUpCompleteEncoder.BLOCK_LENGTH + 2] = 3; // numInGroup: 2
        assertEquals("false ", deliver(message, false));
        assertEquals("false ", deliver(message, true));
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(Arbitraries.of(MESSAGES));
    }

    private void deliverBothWays(final byte[] bytes)
    {
        assertEquals(deliver(bytes, false), deliver(bytes, true), "the outcome depends on bytes after the message");
    }

    /**
     * @return whether the link took the message, then what the listener read.
     */
    private String deliver(final byte[] bytes, final boolean isFollowed)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PREFIX + bytes.length + (isFollowed ? TRAILER : 0)]);
        buffer.setMemory(0, buffer.capacity(), (byte)0x5A);
        buffer.putBytes(PREFIX, bytes);
        reads.start(PREFIX, PREFIX + bytes.length);
        final long malformedBefore = malformed.get();
        final boolean isTaken = link.onMessage(buffer, PREFIX, bytes.length);
        assertEquals(isTaken ? 0 : 1, malformed.get() - malformedBefore, "a refused message is counted once");
        return isTaken + " " + (isTaken ? reads.events : "");
    }

    private static List<byte[]> messages()
    {
        final List<byte[]> messages = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final int headerLength = MessageHeaderEncoder.ENCODED_LENGTH;

        final PeerHeartbeatEncoder heartbeat = new PeerHeartbeatEncoder();
        final PeerHeartbeatEncoder.PartitionsEncoder roles = heartbeat.wrapAndApplyHeader(out, 0, header)
            .serverId(2).startEpochMs(1000).timestampNs(5).steppingDown(BooleanType.FALSE).partitionsCount(2);
        roles.next().partition(0).role(PartitionRole.PRIMARY).epoch(1).lastSequence(9).drainedSequence(8)
            .ackedSequence(9);
        roles.next().partition(1).role(PartitionRole.BACKUP).epoch(1).lastSequence(4).drainedSequence(4)
            .ackedSequence(4);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + heartbeat.encodedLength()));

        final ReplicateOrderEncoder replicate = new ReplicateOrderEncoder();
        final byte[] record = new byte[40];
        Arrays.fill(record, (byte)3);
        replicate.wrapAndApplyHeader(out, 0, header).serverId(2).catchUp(BooleanType.FALSE).answer(BooleanType.TRUE)
            .sendTimestampNs(7).putRecord(record, 0, record.length);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + replicate.encodedLength()));

        final ReplicateAckEncoder ack = new ReplicateAckEncoder();
        ack.wrapAndApplyHeader(out, 0, header).serverId(2).partition(1).epoch(1).sequence(4);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + ack.encodedLength()));

        final AnswerRequestEncoder answer = new AnswerRequestEncoder();
        answer.wrapAndApplyHeader(out, 0, header).serverId(2).partition(1).sequence(4);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + answer.encodedLength()));

        final CatchUpRequestEncoder request = new CatchUpRequestEncoder();
        request.wrapAndApplyHeader(out, 0, header).serverId(2).startEpochMs(1000).full(BooleanType.TRUE)
            .requestId(1).partitionsCount(1).next().partition(0).fromSequence(1);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + request.encodedLength()));

        final CatchUpCompleteEncoder complete = new CatchUpCompleteEncoder();
        final CatchUpCompleteEncoder.PartitionsEncoder done = complete.wrapAndApplyHeader(out, 0, header)
            .serverId(2).requestId(1).partitionsCount(2);
        done.next().partition(0).epoch(1).lastSequence(9).drainedSequence(9);
        done.next().partition(1).epoch(1).lastSequence(4).drainedSequence(4);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + complete.encodedLength()));
        return messages;
    }

    /**
     * Reads what the order agent reads of each message (with raw enum values, as the agent does), into a log.
     */
    private static final class AgentReads implements PeerListener
    {
        final StringBuilder events = new StringBuilder();
        int start;
        int end;

        void start(final int start, final int end)
        {
            this.start = start;
            this.end = end;
            events.setLength(0);
        }

        @Override
        public void onPeerHeartbeat(final PeerHeartbeatDecoder heartbeat)
        {
            events.append("heartbeat ").append(heartbeat.startEpochMs()).append(' ')
                .append(heartbeat.steppingDownRaw());
            for (final PeerHeartbeatDecoder.PartitionsDecoder entry : heartbeat.partitions())
            {
                events.append(' ').append(entry.partition()).append('/').append(entry.roleRaw()).append('/')
                    .append(entry.epoch()).append('/').append(entry.lastSequence()).append('/')
                    .append(entry.drainedSequence()).append('/').append(entry.ackedSequence());
            }
        }

        @Override
        public void onReplicateOrder(
            final boolean catchUp, final boolean answer, final long sendTimestampNs, final DirectBuffer record,
            final int offset, final int length)
        {
            assertTrue(offset >= start && length >= 0 && offset + length <= end,
                () -> "record [" + offset + ", +" + length + ") outside the message [" + start + ", " + end + ")");
            long sum = 0;
            for (int i = 0; i < length; i++)
            {
                sum += record.getByte(offset + i);
            }
            events.append("replicate ").append(catchUp).append(' ').append(answer).append(' ')
                .append(sendTimestampNs).append(' ').append(length).append(' ').append(sum);
        }

        @Override
        public void onReplicateAck(final int partition, final int epoch, final long sequence)
        {
            events.append("ack ").append(partition).append(' ').append(epoch).append(' ').append(sequence);
        }

        @Override
        public void onAnswerRequest(final int partition, final long sequence)
        {
            events.append("answer ").append(partition).append(' ').append(sequence);
        }

        @Override
        public void onCatchUpRequest(final CatchUpRequestDecoder request)
        {
            events.append("catch-up ").append(request.fullRaw()).append(' ').append(request.requestId()).append(' ')
                .append(request.startEpochMs());
            for (final CatchUpRequestDecoder.PartitionsDecoder entry : request.partitions())
            {
                events.append(' ').append(entry.partition()).append('/').append(entry.fromSequence());
            }
        }

        @Override
        public void onCatchUpComplete(final CatchUpCompleteDecoder complete)
        {
            events.append("caught-up ").append(complete.requestId());
            for (final CatchUpCompleteDecoder.PartitionsDecoder entry : complete.partitions())
            {
                events.append(' ').append(entry.partition()).append('/').append(entry.epoch()).append('/')
                    .append(entry.lastSequence()).append('/').append(entry.drainedSequence());
            }
        }
    }
}
