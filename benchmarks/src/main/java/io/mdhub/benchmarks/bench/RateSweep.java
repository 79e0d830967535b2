package io.mdhub.benchmarks.bench;

import java.io.PrintWriter;

/**
 * The rates of a {@code bench latency} sweep, the same for every system: the listed rates in order, whatever they are,
 * and with none listed, on past the last in fixed steps up to a limit; a system's sweep ends at its first rate not
 * sustained.
 */
final class RateSweep
{
    /**
     * Measures one rate.
     */
    @FunctionalInterface
    interface Step
    {
        /**
         * @param rate updates per second.
         * @return the step's row.
         * @throws Exception when the step cannot be run.
         */
        LatencyRow at(long rate) throws Exception;
    }

    private final long[] rates;
    private final boolean isOpenEnded;
    private final long openEndedStep;
    private final long openEndedLimit;

    /**
     * @param rates          the listed rates.
     * @param isOpenEnded    go on past the last in steps.
     * @param openEndedStep  the step past the last.
     * @param openEndedLimit the highest rate the open-ended steps try (listed rates are all tried).
     */
    RateSweep(final long[] rates, final boolean isOpenEnded, final long openEndedStep, final long openEndedLimit)
    {
        this.rates = rates.clone();
        this.isOpenEnded = isOpenEnded;
        this.openEndedStep = openEndedStep;
        this.openEndedLimit = openEndedLimit;
    }

    /**
     * @return the first rate.
     */
    long first()
    {
        return rates[0];
    }

    /**
     * Run the steps in order until one is not sustained, the list ends, or an open-ended step passes the limit.
     *
     * @param step    measures a rate.
     * @param console where the end is said.
     * @param system  the system's name.
     * @throws Exception from a step.
     */
    void run(final Step step, final PrintWriter console, final String system) throws Exception
    {
        for (int i = 0; i < rates.length || isOpenEnded; i++)
        {
            final long rate = i < rates.length ? rates[i] : rates[rates.length - 1] + (i - rates.length + 1) *
                openEndedStep;
            if (i >= rates.length && rate > openEndedLimit)
            {
                console.printf("bench latency: %s: every rate up to %d updates/s sustained; the sweep ends here%n",
                    system, openEndedLimit);
                break;
            }
            if (!step.at(rate).sustained())
            {
                console.printf("bench latency: %s: %d updates/s not sustained; the sweep ends here%n", system, rate);
                break;
            }
        }
        console.flush();
    }
}
