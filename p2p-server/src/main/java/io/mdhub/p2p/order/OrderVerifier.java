package io.mdhub.p2p.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;

/**
 * Checks the write-behind queues of a pair after a run: each queue holds every partition's sequences contiguously
 * from 1 and no order twice; the queues agree (the same order at every (partition, sequence) both hold, and the same
 * length unless one is allowed to be behind); and every order a client was acknowledged is in each queue at the
 * partition and sequence of its ack. Reads the queue files directly (the servers may be stopped).
 */
public final class OrderVerifier
{
    /**
     * The orders of one queue.
     */
    static final class QueueContents
    {
        final Path directory;
        final List<Long2LongHashMap> orderBySequence = new ArrayList<>(); // per partition: sequence -> key index
        final List<long[]> keys = new ArrayList<>();
        final Object2ObjectHashMap<String, long[]> byOrder = new Object2ObjectHashMap<>();
        long records;

        QueueContents(final Path directory)
        {
            this.directory = directory;
        }
    }

    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * @return what failed (empty when everything holds).
     */
    public List<String> problems()
    {
        return problems;
    }

    /**
     * @return what was checked.
     */
    public List<String> notes()
    {
        return notes;
    }

    /**
     * Verify.
     *
     * @param queues       one or two queue directories.
     * @param acked        a CSV of acknowledged orders (clientId,orderId,partition,epoch,sequence), or null.
     * @param allowBehind  accept a queue that is a strict prefix of the other (a server that died and did not
     *                     rejoin).
     * @return true if every check passed.
     */
    public boolean verify(final List<Path> queues, final Path acked, final boolean allowBehind)
    {
        final List<QueueContents> contents = new ArrayList<>();
        for (final Path queue : queues)
        {
            contents.add(read(queue));
        }
        final List<QueueContents> complete = new ArrayList<>(contents);
        if (2 == contents.size())
        {
            final int behind = compare(contents.get(0), contents.get(1), allowBehind);
            if (allowBehind && behind >= 0)
            {
                complete.remove(contents.get(behind)); // a dead server's queue: only its prefix must agree
                notes.add(contents.get(behind).directory + " is behind: not checked for completeness");
            }
        }
        if (null != acked)
        {
            final List<long[]> acks = readAcks(acked);
            acknowledgedOnce(acks);
            for (final QueueContents queue : complete)
            {
                complete(queue, acks);
            }
            notes.add(acks.size() + " acknowledged orders checked against " + complete.size() + " queue(s)");
        }
        return problems.isEmpty();
    }

    private QueueContents read(final Path directory)
    {
        final QueueContents contents = new QueueContents(directory);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final OrderRecordDecoder record = new OrderRecordDecoder();
        try (OrderQueue queue = new OrderQueue(directory))
        {
            queue.replay((buffer, length) ->
            {
                record.wrapAndApplyHeader(buffer, 0, header);
                final int partition = record.partition();
                while (contents.orderBySequence.size() <= partition)
                {
                    contents.orderBySequence.add(new Long2LongHashMap(-1));
                }
                final Long2LongHashMap sequences = contents.orderBySequence.get(partition);
                final long sequence = record.sequence();
                if (sequence != sequences.size() + 1)
                {
                    problems.add(directory + ": partition " + partition + " sequence " + sequence + " follows " +
                        sequences.size() + " (not contiguous)");
                }
                final long[] key = {record.clientId(), record.orderId(), partition, sequence, record.epoch()};
                final long[] previous = contents.byOrder.put(key[0] + "/" + key[1], key);
                if (null != previous)
                {
                    problems.add(directory + ": order " + key[0] + "/" + key[1] + " stored twice (partition " +
                        previous[2] + " sequence " + previous[3] + " and partition " + partition + " sequence " +
                        sequence + ")");
                }
                sequences.put(sequence, contents.keys.size());
                contents.keys.add(key);
                contents.records++;
            });
        }
        notes.add(directory + ": " + contents.records + " orders in " + contents.orderBySequence.size() +
            " partitions");
        return contents;
    }

    /**
     * @return the index (0 or 1) of the queue that is behind in some partition, or -1 if they are as long or if
     * each is behind in some partition (that is a divergence, reported as a problem even with allowBehind: a server
     * that died and did not rejoin is behind in every partition it differs in, never ahead in one).
     */
    private int compare(final QueueContents a, final QueueContents b, final boolean allowBehind)
    {
        int behind = -1;
        int aheadPartitionOfA = -1;
        int aheadPartitionOfB = -1;
        final int partitions = Math.max(a.orderBySequence.size(), b.orderBySequence.size());
        for (int p = 0; p < partitions; p++)
        {
            final Long2LongHashMap sa = sequences(a, p);
            final Long2LongHashMap sb = sequences(b, p);
            final long common = Math.min(sa.size(), sb.size());
            long staleFrom = 0;
            for (long sequence = 1; sequence <= common; sequence++)
            {
                final long[] ka = a.keys.get((int)sa.get(sequence));
                final long[] kb = b.keys.get((int)sb.get(sequence));
                final long[] shorter = sa.size() < sb.size() ? ka : kb;
                final long[] longer = sa.size() < sb.size() ? kb : ka;
                // a primary queues an order as it stores it: a server that died before replicating its last orders
                // keeps them, never acknowledged, at sequences the survivor gave others at a new epoch — one tail,
                // from its first such sequence to its end (a resent order may even land at its old sequence)
                final boolean isStale = allowBehind && shorter[4] < longer[4];
                if (0 != staleFrom)
                {
                    if (!isStale)
                    {
                        problems.add("partition " + p + " sequence " + sequence + ": the queue behind holds the " +
                            "same epoch again after its stale tail began at sequence " + staleFrom + " (not one tail)");
                        break; // one problem says it: the rest of the partition's comparison is no tail either
                    }
                    continue;
                }
                if (ka[0] == kb[0] && ka[1] == kb[1] && ka[4] == kb[4])
                {
                    continue;
                }
                if (isStale)
                {
                    staleFrom = sequence;
                    notes.add("partition " + p + " from sequence " + sequence + ": the queue behind holds orders " +
                        "of epoch " + shorter[4] + " that the other gave other orders at epoch " + longer[4] +
                        " (stored by a primary that died before replicating them; never acknowledged)");
                }
                else
                {
                    problems.add("partition " + p + " sequence " + sequence + " is order " + ka[0] + "/" + ka[1] +
                        " in " + a.directory + " but " + kb[0] + "/" + kb[1] + " in " + b.directory);
                }
            }
            if (sa.size() != sb.size())
            {
                behind = sa.size() < sb.size() ? 0 : 1;
                if (0 == behind)
                {
                    aheadPartitionOfB = p;
                }
                else
                {
                    aheadPartitionOfA = p;
                }
                final String text = "partition " + p + ": " + a.directory + " holds " + sa.size() + ", " +
                    b.directory + " holds " + sb.size();
                if (allowBehind)
                {
                    notes.add(text);
                }
                else
                {
                    problems.add(text);
                }
            }
        }
        if (aheadPartitionOfA >= 0 && aheadPartitionOfB >= 0)
        {
            problems.add("the queues diverge: " + a.directory + " is ahead in partition " + aheadPartitionOfA +
                " but " + b.directory + " is ahead in partition " + aheadPartitionOfB + " (neither is a prefix of " +
                "the other)");
            return -1;
        }
        return behind;
    }

    private static Long2LongHashMap sequences(final QueueContents queue, final int partition)
    {
        return partition < queue.orderBySequence.size() ? queue.orderBySequence.get(partition) :
            new Long2LongHashMap(-1);
    }

    /**
     * An order acknowledged twice must have been acknowledged at one place (partition and sequence): two places are
     * two copies of it somewhere in the pair.
     */
    private void acknowledgedOnce(final List<long[]> acks)
    {
        final Object2ObjectHashMap<String, long[]> byOrder = new Object2ObjectHashMap<>();
        int twice = 0;
        for (final long[] ack : acks)
        {
            final long[] previous = byOrder.put(ack[0] + "/" + ack[1], ack);
            if (null != previous && (previous[2] != ack[2] || previous[4] != ack[4]) && twice++ < 20)
            {
                problems.add("order " + ack[0] + "/" + ack[1] + " acknowledged at partition " + previous[2] +
                    " sequence " + previous[4] + " and at partition " + ack[2] + " sequence " + ack[4]);
            }
        }
        if (twice > 20)
        {
            problems.add(twice + " orders acknowledged at two places in all");
        }
    }

    private void complete(final QueueContents queue, final List<long[]> acks)
    {
        int missing = 0;
        for (final long[] ack : acks)
        {
            final long[] stored = queue.byOrder.get(ack[0] + "/" + ack[1]);
            if (null == stored || stored[2] != ack[2] || stored[3] != ack[4])
            {
                if (missing++ < 20)
                {
                    problems.add(queue.directory + ": acknowledged order " + ack[0] + "/" + ack[1] + " (partition " +
                        ack[2] + " sequence " + ack[4] + ") is " + (null == stored ? "missing" :
                        "at partition " + stored[2] + " sequence " + stored[3]));
                }
            }
        }
        if (missing > 20)
        {
            problems.add(queue.directory + ": " + missing + " acknowledged orders missing or misplaced in all");
        }
        notes.add(queue.directory + ": " + (acks.size() - missing) + " of " + acks.size() +
            " acknowledged orders in place, " + missing + " missing or misplaced");
    }

    private static List<long[]> readAcks(final Path file)
    {
        final List<long[]> acks = new ArrayList<>();
        try
        {
            for (final String line : Files.readAllLines(file))
            {
                final String[] columns = line.trim().split(",");
                if (columns.length < 5 || !columns[0].matches("-?\\d+"))
                {
                    continue; // header or comment
                }
                acks.add(new long[] {Long.parseLong(columns[0].trim()), Long.parseLong(columns[1].trim()),
                    Long.parseLong(columns[2].trim()), Long.parseLong(columns[3].trim()),
                    Long.parseLong(columns[4].trim())});
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return acks;
    }
}
