package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.Side;
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
 * The backup's decoding of a replicated order ({@link BackupReplication#onReplicateOrder}: the OrderRecord bytes a
 * peer's ReplicateOrder carries, as {@link PeerLink} hands them over) fed random bytes and mutated valid records,
 * over a real store (region, identity index, write-behind queue in a temporary directory). A record that cannot be
 * an order is counted malformed; nothing throws. The record ends where its buffer ends, so a field read past it
 * throws.
 */
@FuzzGuarded
class BackupReplicationFuzzTest
{
    private static final int PARTITIONS = 2;
    private static final List<byte[]> RECORDS = records();

    private final Path directory = temporaryDirectory();
    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final OrderCounters counters = new OrderCounters(countersManager, 1);
    private final OrderQueue queue = new OrderQueue(directory.resolve("queue"));
    private final OrderStore store = new OrderStore(new ChunkSupply(256 * 1024, "fuzz",
        TestCounters.newCounter("inline-chunks")), PARTITIONS, 1000, 100_000, queue);
    private final SocketPoller poller = new SocketPoller(64 * 1024, 64 * 1024);
    private final PeerLink peer = new PeerLink(1, poller, new InetSocketAddress("127.0.0.1", 0),
        new InetSocketAddress("127.0.0.1", 9), 64 * 1024, new NoPeerListener(), counters.malformed,
        new AddressGate(1, "peer port", 8, 100, counters.connectionsRefused));
    private final BackupReplication backup = new BackupReplication(1, 1000, partitions(), store,
        new ClientSessions(1, PARTITIONS, counters), peer, counters);

    @AfterProperty
    void close()
    {
        peer.close();
        poller.close();
        store.close();
        queue.close();
        IoUtil.delete(directory.toFile(), true);
    }

    @Property
    void randomBytes(@ForAll @Size(max = 150) final byte[] bytes, @ForAll final boolean catchUp)
    {
        replicate(bytes, catchUp);
    }

    @Property
    void mutatedRecords(@ForAll("mutated") final byte[] bytes, @ForAll final boolean catchUp)
    {
        replicate(bytes, catchUp);
    }

    /**
     * Found by {@link #mutatedRecords}: a record longer than its header but shorter than an OrderRecord's fixed block
     * had its partition and sequence read from beyond it (an IndexOutOfBoundsException where it ends the buffer,
     * the peer message's next bytes where not).
     */
    @Example
    void aRecordShorterThanItsFixedBlockIsMalformed()
    {
        final long before = counters.malformed.get();
        replicate(Arrays.copyOf(RECORDS.get(0), MessageHeaderEncoder.ENCODED_LENGTH + 4), false);
        assertTrue(counters.malformed.get() == before + 1);
    }

    /**
     * Found by {@link #mutatedRecords}: a record whose header names another template made the generated decoder
     * throw an IllegalStateException out of the backup (the peer link catches only IndexOutOfBounds).
     */
    @Example
    void aRecordOfAnotherTemplateIsMalformed()
    {
        final byte[] record = RECORDS.get(0).clone();
        record[2] = 0; // templateId, little-endian uint16 at 2
        final long before = counters.malformed.get();
        replicate(record, false);
        assertTrue(counters.malformed.get() == before + 1);
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(Arbitraries.of(RECORDS));
    }

    private void replicate(final byte[] bytes, final boolean catchUp)
    {
        backup.onReplicateOrder(catchUp, !catchUp, 5, new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private static Partition[] partitions()
    {
        final Partition[] partitions = new Partition[PARTITIONS];
        for (int i = 0; i < PARTITIONS; i++)
        {
            partitions[i] = new Partition(i, 2); // the peer's partitions: this server is their backup
        }
        return partitions;
    }

    private static Path temporaryDirectory()
    {
        try
        {
            return Files.createTempDirectory("backup-fuzz");
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static List<byte[]> records()
    {
        final List<byte[]> records = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        final byte[] fix = "8=FIX.4.4\u00019=5\u000135=D\u000110=000\u0001".getBytes();
        for (int sequence = 1; sequence <= 3; sequence++)
        {
            final OrderRecordEncoder encoder = new OrderRecordEncoder().wrapAndApplyHeader(out, 0,
                new MessageHeaderEncoder())
                .partition(sequence % PARTITIONS).epoch(1).sequence(sequence).clientId(7).orderId(100 + sequence)
                .storedTimeMs(0).side(Side.BUY).quantity(10).priceMantissa(101).priceExponent((byte)0)
                .ordType((byte)'2').timeInForce((byte)'0').symbol("VOD.L").clOrdId("C" + sequence)
                .putFix(fix, 0, fix.length);
            records.add(Arrays.copyOf(out.byteArray(), MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()));
        }
        return records;
    }

    /**
     * The link's own listener: unused here, the backup only sends through it.
     */
    private static final class NoPeerListener implements PeerListener
    {
        @Override
        public void onPeerHeartbeat(final io.mdhub.common.codecs.order.PeerHeartbeatDecoder heartbeat)
        {
        }

        @Override
        public void onReplicateOrder(
            final boolean catchUp, final boolean answer, final long sendTimestampNs,
            final org.agrona.DirectBuffer record, final int offset, final int length)
        {
        }

        @Override
        public void onReplicateAck(final int partition, final int epoch, final long sequence)
        {
        }

        @Override
        public void onAnswerRequest(final int partition, final long sequence)
        {
        }

        @Override
        public void onCatchUpRequest(final io.mdhub.common.codecs.order.CatchUpRequestDecoder request)
        {
        }

        @Override
        public void onCatchUpComplete(final io.mdhub.common.codecs.order.CatchUpCompleteDecoder complete)
        {
        }
    }
}
