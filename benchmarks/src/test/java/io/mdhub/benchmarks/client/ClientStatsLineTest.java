package io.mdhub.benchmarks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The client's report line, as printed and as the benchmarks read it back.
 */
@InterruptAfter(10)
class ClientStatsLineTest
{
    private static final ClientStatsLine WHOLE = new ClientStatsLine(0, 9_000, 0, 100_000, 100_000, 0, 64, 0);

    @Test
    void aPrintedLineReadsBackToTheSameCounts()
    {
        final String printed = WHOLE.format() + "latency p50 88.1 us p99 700.2 us (818 samples)";

        assertEquals("client: refreshes/s 0, updates/s 9000, status/s 0, open 100000/100000, suspect 0, " +
            "recovered 64, lost 0, latency p50 88.1 us p99 700.2 us (818 samples)", printed);
        assertEquals(WHOLE, ClientStatsLine.parse(printed));
    }

    @Test
    void theWholeLineCarriesTheSecondsLatencyAndReadsBack()
    {
        final Histogram interval = new Histogram(3);
        interval.recordValue(88_000);
        interval.recordValue(700_000);

        final String printed = WHOLE.format(interval);

        assertEquals(WHOLE.format() + "latency p50 88.1 us p99 700.4 us (2 samples)", printed);
        assertEquals(WHOLE, ClientStatsLine.parse(printed));
    }

    @Test
    void wholeAndQuietOnlyWithEveryItemOpenNoneSuspectAndNoRefreshes()
    {
        assertTrue(WHOLE.isWholeAndQuiet());
        assertFalse(new ClientStatsLine(0, 9_000, 0, 99_999, 100_000, 0, 64, 0).isWholeAndQuiet(), "one not open");
        assertFalse(new ClientStatsLine(0, 9_000, 0, 100_000, 100_000, 1, 64, 0).isWholeAndQuiet(), "one Suspect");
        assertFalse(new ClientStatsLine(3, 9_000, 0, 100_000, 100_000, 0, 67, 0).isWholeAndQuiet(), "recovering");
    }

    @Test
    void otherLinesAreNotReportsAndEveryReportOfAnOutputIsFound()
    {
        final ClientStatsLine lossy = new ClientStatsLine(0, 9_000, 0, 100_000, 100_000, 0, 64, 7);
        final String output = "mdhub-client: 1 mount(s) watching 100000 items in all on 127.0.0.1:14002 (MDH_SINK)\n" +
            WHOLE.format() + "latency p50 0.0 us p99 0.0 us (0 samples)\n" +
            lossy.format() + "latency p50 0.0 us p99 0.0 us (0 samples)\n" +
            "mdhub-client: refreshes 100000, updates 18000, statuses 0, items open 100000, closed 0, lost 7, " +
            "out of order 0, malformed 0, suspect now 0, recovered 64 (longest 3 ms), failovers 0\n";

        assertNull(ClientStatsLine.parse("mdhub-client: a mount failed: connection closed"));
        assertNull(ClientStatsLine.parse(output.substring(output.lastIndexOf("mdhub-client: refreshes"))));
        assertEquals(List.of(WHOLE, lossy), ClientStatsLine.all(output));
    }

    @Test
    void theJsonMountsPartOfALineReadsBackWhereItIsPrinted()
    {
        final String output = WHOLE.format() + "latency p50 1.0 us p99 2.0 us (5 samples) | x | " +
            ClientStatsLine.formatJson(4_500) + "\n" + WHOLE.format() + "latency p50 1.0 us p99 2.0 us (5 samples)\n" +
            WHOLE.format() + "latency p50 1.0 us p99 2.0 us (5 samples) | x | " + ClientStatsLine.formatJson(4_600);

        assertEquals(List.of(4_500L, 4_600L), ClientStatsLine.allJson(output));
        assertEquals(3, ClientStatsLine.all(output).size(), "the JSON part leaves the counts as they were");
    }
}
