package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The primary's record of which orders the backup was asked to answer: one bit per sequence, in a ring the size of
 * the send timestamps' ring.
 */
@InterruptAfter(10)
class PartitionTest
{
    private static final int RING = Partition.SEND_TIMESTAMP_RING;

    @Test
    void eachSequenceHasItsOwnBitUntilTheRingComesRound()
    {
        final Partition partition = new Partition(0, 0);
        for (long sequence = 1; sequence <= RING; sequence += 3)
        {
            partition.backupAnswers(sequence, true);
        }
        for (long sequence = 1; sequence <= RING; sequence++)
        {
            assertTrue(partition.isAnsweredByBackup(sequence) == (1 == sequence % 3), "sequence " + sequence);
        }
        partition.backupAnswers(64, true);
        partition.backupAnswers(63, true);
        partition.backupAnswers(64, false);
        assertTrue(partition.isAnsweredByBackup(63), "clearing a bit leaves its neighbour");
        assertFalse(partition.isAnsweredByBackup(64));
        assertTrue(partition.isAnsweredByBackup(1 + RING), "one ring later is the same slot");
        partition.backupAnswers(1 + RING, false);
        assertFalse(partition.isAnsweredByBackup(1));
    }
}
