package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckEncoder;
import io.mdhub.common.codecs.order.OrderRejectEncoder;
import io.mdhub.common.codecs.order.PartitionMapEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The order client's egress adapter ({@link OrderEgressAdapter}: PartitionMap, OrderAck, OrderReject from a server)
 * fed random bytes and mutated valid encodings through {@code onMessage(session, buffer, offset, length)} as the
 * client's link hands over one message. It never throws; each message is either reported malformed or decoded,
 * never both; a reject's reason is never null and its text lies inside the message; a partition map's entries are
 * as many as its group says. The message ends where its buffer ends, so any read past it throws.
 */
@FuzzGuarded
class OrderEgressFuzzTest
{
    private static final int GUARD = 8;
    private static final List<byte[]> MESSAGES = messages();

    private final Checks checks = new Checks();
    private final OrderEgressAdapter adapter = new OrderEgressAdapter(0, checks);

    @Property
    void randomBytes(@ForAll @Size(max = 120) final byte[] bytes)
    {
        deliver(bytes);
    }

    @Property
    void mutatedMessages(@ForAll("mutated") final byte[] bytes)
    {
        deliver(bytes);
    }

    /**
     * Found by {@link #mutatedMessages}: an OrderAck whose duplicate flag is 7 made the generated enum getter throw
     * (IllegalArgumentException) out of the adapter, into the client's thread. A value other than TRUE is false.
     */
    @Example
    void anAckWithAnUnknownBooleanIsDecoded()
    {
        deliver(new byte[] {
            42, 0, 11, 0, -56, 0, 4, 0, 7, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0,
            0, 0, 99, 0, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0});
        assertEquals(1, checks.calls);
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(Arbitraries.of(MESSAGES));
    }

    private void deliver(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[GUARD + bytes.length]);
        buffer.putBytes(GUARD, bytes);
        checks.start(GUARD, GUARD + bytes.length);
        adapter.onMessage(1, buffer, GUARD, bytes.length);
        assertTrue(1 == checks.malformed && 0 == checks.calls || 0 == checks.malformed && checks.calls > 0,
            () -> "malformed " + checks.malformed + ", decoded " + checks.calls);
        assertTrue(checks.entries <= checks.announcedEntries);
    }

    private static List<byte[]> messages()
    {
        final List<byte[]> messages = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();

        final PartitionMapEncoder map = new PartitionMapEncoder();
        final PartitionMapEncoder.PartitionsEncoder partitions = map.wrapAndApplyHeader(out, 0, header)
            .serverId(2).partitionCount(4).partitionsCount(3);
        partitions.next().partition(0).role(PartitionRole.PRIMARY).epoch(1);
        partitions.next().partition(1).role(PartitionRole.BACKUP).epoch(1);
        partitions.next().partition(3).role(PartitionRole.NONE).epoch(0);
        messages.add(Arrays.copyOf(out.byteArray(), MessageHeaderEncoder.ENCODED_LENGTH + map.encodedLength()));

        final OrderAckEncoder ack = new OrderAckEncoder();
        ack.wrapAndApplyHeader(out, 0, header).clientId(7).orderId(11).partition(1).epoch(1).sequence(99)
            .duplicate(BooleanType.FALSE).replicated(BooleanType.TRUE).sendTimestampNs(5);
        messages.add(Arrays.copyOf(out.byteArray(), MessageHeaderEncoder.ENCODED_LENGTH + ack.encodedLength()));

        final OrderRejectEncoder reject = new OrderRejectEncoder();
        reject.wrapAndApplyHeader(out, 0, header).clientId(7).orderId(12).partition(1)
            .reason(RejectReason.MALFORMED_FIX).sendTimestampNs(5).text("bad checksum");
        messages.add(Arrays.copyOf(out.byteArray(), MessageHeaderEncoder.ENCODED_LENGTH + reject.encodedLength()));
        return messages;
    }

    /**
     * Checks what the adapter hands over.
     */
    private static final class Checks implements OrderEgressListener
    {
        int start;
        int end;
        int calls;
        int malformed;
        int entries;
        int announcedEntries;

        void start(final int start, final int end)
        {
            this.start = start;
            this.end = end;
            calls = 0;
            malformed = 0;
            entries = 0;
            announcedEntries = 0;
        }

        @Override
        public boolean onPartitionMapBegin(
            final int pair, final int sessionId, final int serverId, final int partitionCount)
        {
            calls++;
            announcedEntries = (end - start) / 4; // an entry takes at least 4 bytes
            return true;
        }

        @Override
        public void onPartitionMapEntry(
            final int pair, final int serverId, final int partition, final short role, final int epoch)
        {
            entries++;
        }

        @Override
        public void onPartitionMapEnd(final int pair, final int sessionId, final int serverId)
        {
        }

        @Override
        public void onOrderAck(
            final int pair, final int sessionId, final long clientId, final long orderId, final int partition,
            final int epoch, final long sequence, final boolean duplicate, final boolean replicated,
            final long sendTimestampNs)
        {
            calls++;
        }

        @Override
        public void onOrderReject(
            final int pair, final int sessionId, final long clientId, final long orderId, final int partition,
            final RejectReason reason, final long sendTimestampNs, final DirectBuffer buffer, final int textOffset,
            final int textLength)
        {
            calls++;
            assertNotNull(reason);
            assertTrue(textOffset >= start && textLength >= 0 && textOffset + textLength <= end);
            assertEquals(textLength, buffer.getStringWithoutLengthAscii(textOffset, textLength).length());
        }

        @Override
        public void onMalformed(final int pair)
        {
            malformed++;
        }
    }
}
