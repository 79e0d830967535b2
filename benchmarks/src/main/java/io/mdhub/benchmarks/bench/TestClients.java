package io.mdhub.benchmarks.bench;

import java.util.List;

import io.mdhub.benchmarks.client.ClientStatsLine;

/**
 * What the benches read from a running test client ({@code mdhub-bench.jar client}): its once-a-second report lines.
 * The latency and throughput benches both keep one client, and so one open watchlist, for a whole sweep and change
 * the source's rate under it, as the published runs did.
 */
final class TestClients
{
    /** Report lines in a row that must show the watchlist whole before it counts as settled. */
    private static final int SETTLED_SECONDS = 3;
    /** Longest wait for a watchlist to open or to settle again. */
    private static final long SETTLE_TIMEOUT_SECONDS = 300;

    private TestClients()
    {
    }

    /**
     * Wait until the client has reported its watchlist whole (every item open, none Suspect, no refreshes) for a few
     * seconds in a row.
     *
     * @param client a running test client.
     */
    static void awaitWholeWatchlist(final BenchProcess client)
    {
        client.awaitLinesInARow((line) ->
        {
            final ClientStatsLine stats = ClientStatsLine.parse(line);
            return null != stats && stats.isWholeAndQuiet();
        }, SETTLED_SECONDS, SETTLE_TIMEOUT_SECONDS);
    }

    /**
     * @param output a client's output, or a prefix of it.
     * @return the cumulative lost updates in its last report line (0 before the first).
     */
    static long lostSoFar(final CharSequence output)
    {
        final List<ClientStatsLine> lines = ClientStatsLine.all(output);
        return lines.isEmpty() ? 0 : lines.get(lines.size() - 1).lostUpdates();
    }
}
