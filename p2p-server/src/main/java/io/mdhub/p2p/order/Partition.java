package io.mdhub.p2p.order;

import io.mdhub.common.codecs.order.PartitionRole;

/**
 * One partition as one server sees it: its role here and the peer's, its epoch, and the positions that drive
 * storing, replication, acknowledgement and draining. Sequences only grow: {@code drained <= acked <= last}, and
 * on a primary {@code backupAcked <= sent <= last}. Owned by the order agent.
 */
final class Partition
{
    final int id;
    final int homeServerId;
    PartitionRole role = PartitionRole.NONE;
    int epoch;
    /** Last sequence stored here (the Orders region's). */
    long last;
    /** Last sequence completed: post-processed, appended to this server's queue, acknowledged to its client. */
    long acked;
    /** Primary: last sequence sent to the peer. */
    long sent;
    /** Primary: last sequence the peer said it stored. */
    long backupAcked;
    /**
     * Primary: orders up to here are (re)sent to the peer as part of a catch-up — after live replication, in bounded
     * batches, and never answered by the peer — however the peer stands otherwise.
     */
    long catchUpEnd;
    /** Last sequence the downstream sink made durable (the primary's, or the one replicated from it); persisted. */
    long drained;
    /** Primary: last sequence written to the sink, not yet flushed ({@code drained <= written <= acked}). */
    long written;
    /** Backup: an ack is owed to the primary. */
    boolean isAckDue;
    /** Backup: the owed ack goes now (the primary answers the client on it, or asked again), not lazily. */
    boolean isAckUrgent;
    /** Backup: when an owed lazy ack goes at the latest ({@link System#nanoTime()}). */
    long ackDueByNs;
    /** Primary: handing the partition to the peer; new orders are refused until it is done. */
    boolean isHandingOver;
    long gaps;
    long failovers;
    long replicationSentNs;
    long replicationSentSequence;
    long lastRoundTripNs;
    long maxRoundTripNs;
    PartitionRole peerRole = PartitionRole.NONE;
    /**
     * The role the peer's last heartbeat gave (where {@link #peerRole} counts a peer that was sent its catch-up's end
     * as a backup before it says so).
     */
    PartitionRole peerReportedRole = PartitionRole.NONE;
    int peerEpoch;
    long peerLast;
    long peerDrained;
    /** The peer's completed position for the partition, from its heartbeats ({@link #UNKNOWN}: not heard). */
    long peerAcked = UNKNOWN;

    static final long UNKNOWN = -1;

    /** Client send timestamps of orders not yet completed, by sequence (a ring: echoed in the acks). */
    final long[] sendTimestampNs = new long[SEND_TIMESTAMP_RING];

    /** When this server stored each order not yet completed ({@link System#nanoTime()}; 0: not stored here). */
    final long[] storedNs = new long[SEND_TIMESTAMP_RING];

    static final int SEND_TIMESTAMP_RING = 16 * 1024;

    /**
     * Primary: whether the backup was asked to answer the client, by sequence, for orders not yet completed (a ring
     * of bits beside the timestamps). Should more than the ring's size be outstanding, a flag may belong to a later
     * order: an order then gets a second answer (the client counts it as stale) or none (its ack timeout resends
     * it and the resend gets the original ack).
     */
    private final long[] backupAnswersBits = new long[SEND_TIMESTAMP_RING / Long.SIZE];

    /**
     * Primary: orders the client sent again while they were in flight, after the backup had been asked to answer
     * them: the resend is answered here, as a duplicate, when the order completes (same ring).
     */
    private final long[] resentBits = new long[SEND_TIMESTAMP_RING / Long.SIZE];

    Partition(final int id, final int homeServerId)
    {
        this.id = id;
        this.homeServerId = homeServerId;
    }

    void backupAnswers(final long sequence, final boolean answers)
    {
        flag(backupAnswersBits, sequence, answers);
    }

    boolean isAnsweredByBackup(final long sequence)
    {
        return isFlagged(backupAnswersBits, sequence);
    }

    void resent(final long sequence, final boolean isResent)
    {
        flag(resentBits, sequence, isResent);
    }

    boolean isResent(final long sequence)
    {
        return isFlagged(resentBits, sequence);
    }

    /**
     * @return where a sequence sits in the rings of send timestamps and flags.
     */
    static int slot(final long sequence)
    {
        return (int)(sequence & (SEND_TIMESTAMP_RING - 1));
    }

    private static void flag(final long[] bits, final long sequence, final boolean value)
    {
        final int slot = slot(sequence);
        final long bit = 1L << slot;
        if (value)
        {
            bits[slot >>> 6] |= bit;
        }
        else
        {
            bits[slot >>> 6] &= ~bit;
        }
    }

    private static boolean isFlagged(final long[] bits, final long sequence)
    {
        final int slot = slot(sequence);
        return 0 != (bits[slot >>> 6] & (1L << slot));
    }

    boolean isPrimary()
    {
        return PartitionRole.PRIMARY == role;
    }

    boolean isBackup()
    {
        return PartitionRole.BACKUP == role;
    }

    /**
     * Forget everything stored (before a full state transfer). The drained position stays: it says what the
     * downstream already has, which the peer adopts if it knew less (it is replaced when the transfer completes).
     */
    void reset()
    {
        role = PartitionRole.CATCHING_UP;
        epoch = 0;
        last = 0;
        acked = 0;
        sent = 0;
        backupAcked = 0;
        catchUpEnd = 0;
        written = drained;
        peerAcked = UNKNOWN;
        isAckDue = false;
        isAckUrgent = false;
        isHandingOver = false;
    }
}
