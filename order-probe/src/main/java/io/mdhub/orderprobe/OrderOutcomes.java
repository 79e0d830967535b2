package io.mdhub.orderprobe;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The outcome of every order of a run, kept in memory (primitive arrays indexed by order id - first order id) and
 * written out at the end, as the GemCache probe did: nothing touches the disk while orders flow.
 */
public final class OrderOutcomes
{
    /** No outcome yet. */
    public static final byte NONE = 0;
    /** Acknowledged. */
    public static final byte ACKED = 1;
    /** Finally rejected. */
    public static final byte REJECTED = 2;

    /** Header line of the acked-orders CSV. */
    public static final String CSV_HEADER = "clientId,orderId,partition,epoch,sequence";

    private final long firstOrderId;
    private final byte[] states;
    private final int[] partitions;
    private final int[] epochs;
    private final long[] sequences;
    private long doubleOutcomes;

    /**
     * @param firstOrderId the run's first order id.
     * @param orders       orders in the run.
     */
    public OrderOutcomes(final long firstOrderId, final int orders)
    {
        this.firstOrderId = firstOrderId;
        this.states = new byte[orders];
        this.partitions = new int[orders];
        this.epochs = new int[orders];
        this.sequences = new long[orders];
    }

    /**
     * @param orderId   the order.
     * @param partition its partition.
     * @param epoch     its epoch.
     * @param sequence  its sequence.
     */
    public void acked(final long orderId, final int partition, final int epoch, final long sequence)
    {
        final int index = index(orderId);
        if (index < 0)
        {
            return;
        }
        if (NONE != states[index])
        {
            doubleOutcomes++;
        }
        states[index] = ACKED;
        partitions[index] = partition;
        epochs[index] = epoch;
        sequences[index] = sequence;
    }

    /**
     * @param orderId the order.
     */
    public void rejected(final long orderId)
    {
        final int index = index(orderId);
        if (index < 0)
        {
            return;
        }
        if (NONE != states[index])
        {
            doubleOutcomes++;
        }
        states[index] = REJECTED;
    }

    /**
     * @param orderId an order of the run.
     * @return its outcome: {@link #NONE}, {@link #ACKED} or {@link #REJECTED}.
     */
    public byte state(final long orderId)
    {
        return states[index(orderId)];
    }

    /**
     * @return outcomes reported for an order that already had one (the client reports each order once, so 0).
     */
    public long doubleOutcomes()
    {
        return doubleOutcomes;
    }

    /**
     * Write every acknowledged order, in order id order, as {@link #CSV_HEADER} lines.
     *
     * @param file     the CSV file (replaced).
     * @param clientId the client's id, first column.
     * @return rows written.
     * @throws IOException if writing fails.
     */
    public long writeAckedCsv(final Path file, final long clientId) throws IOException
    {
        long rows = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII))
        {
            out.write(CSV_HEADER);
            out.newLine();
            final StringBuilder line = new StringBuilder(64);
            for (int i = 0; i < states.length; i++)
            {
                if (ACKED == states[i])
                {
                    line.setLength(0);
                    line.append(clientId).append(',').append(firstOrderId + i).append(',').append(partitions[i])
                        .append(',').append(epochs[i]).append(',').append(sequences[i]);
                    out.append(line);
                    out.newLine();
                    rows++;
                }
            }
        }
        return rows;
    }

    private int index(final long orderId)
    {
        final long index = orderId - firstOrderId;
        return index < 0 || index >= states.length ? -1 : (int)index;
    }
}
