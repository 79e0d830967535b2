package io.mdhub.benchmarks.chaos;

import java.util.List;

/**
 * One round's figures as a chaos run tables and judges them.
 */
interface ChaosRound
{
    /**
     * @return ok, or FAIL with every broken promise.
     */
    Verdict verdict();

    /**
     * @return the table row, one cell per column, the verdict last.
     */
    List<String> cells();

    /**
     * @return true when the round left the system broken, so it must be made whole before the next round.
     */
    boolean leftBroken();
}
