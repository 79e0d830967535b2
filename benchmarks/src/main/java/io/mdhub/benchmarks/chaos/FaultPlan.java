package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The faults of a chaos run, drawn from a seed so that the same seed, rounds and fault list give the same run again.
 * Faults are dealt like cards: each pass over the list is shuffled, so every kind comes up as often as the others
 * (a run of as many rounds as kinds has each once) and the order is still random. Every round also draws when its
 * fault strikes, how long the killed process stays down and which server is hit where the fault leaves it open.
 */
public final class FaultPlan
{
    /** Earliest kill, as a share of the round's load. */
    static final double KILL_FROM = 0.2;
    /** Latest kill, as a share of the round's load. */
    static final double KILL_TO = 0.5;
    /** Shortest time a killed process stays down, ms. */
    static final long DOWN_FROM_MS = 500;
    /** Longest time a killed process stays down, ms. */
    static final long DOWN_TO_MS = 3000;
    /** Shortest wait between a restart and a second kill of the same process (kill during catch-up), ms. */
    static final long AGAIN_FROM_MS = 0;
    /** Longest such wait, ms. */
    static final long AGAIN_TO_MS = 1000;

    private FaultPlan()
    {
    }

    /**
     * One round's draw.
     *
     * @param round         1, 2, ...
     * @param fault         what is killed.
     * @param killAt        when, as a share of the round's load ({@link #KILL_FROM} to {@link #KILL_TO}).
     * @param downMs        how long the killed process stays down before it is restarted.
     * @param againMs       after a restart, how long until a second kill where the fault has one.
     * @param victim        server 0 or 1, where the fault leaves it open (which goes first, which is killed twice).
     * @param <F>           the kind of fault.
     */
    public record Round<F>(int round, F fault, double killAt, long downMs, long againMs, int victim)
    {
    }

    /**
     * @param seed   the run's seed.
     * @param rounds how many rounds.
     * @param faults the kinds to deal, at least one.
     * @param <F>    the kind of fault.
     * @return the rounds, in order.
     */
    public static <F> List<Round<F>> plan(final long seed, final int rounds, final List<F> faults)
    {
        if (faults.isEmpty())
        {
            throw new IllegalArgumentException("no faults to choose from");
        }
        if (rounds < 1)
        {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Round<F>> plan = new ArrayList<>(rounds);
        final List<F> deck = new ArrayList<>();
        for (int r = 1; r <= rounds; r++)
        {
            if (deck.isEmpty())
            {
                deck.addAll(faults);
                for (int i = deck.size() - 1; i > 0; i--) // Fisher-Yates with the run's own generator
                {
                    final int j = random.nextInt(i + 1);
                    deck.set(i, deck.set(j, deck.get(i)));
                }
            }
            final F fault = deck.remove(0);
            final double killAt = KILL_FROM + (KILL_TO - KILL_FROM) * random.nextDouble();
            final long downMs = random.nextLong(DOWN_FROM_MS, DOWN_TO_MS + 1);
            final long againMs = random.nextLong(AGAIN_FROM_MS, AGAIN_TO_MS + 1);
            final int victim = random.nextInt(2);
            plan.add(new Round<>(r, fault, killAt, downMs, againMs, victim));
        }
        return plan;
    }

    /**
     * @return a seed for a run not given one.
     */
    public static long newSeed()
    {
        return new SplittableRandom(System.nanoTime() ^ System.currentTimeMillis()).nextLong() & Long.MAX_VALUE;
    }
}
