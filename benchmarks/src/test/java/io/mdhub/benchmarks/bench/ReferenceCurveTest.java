package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

/**
 * A rate the published curve has no row for is compared with the straight line between its neighbours, so "below
 * HS22 at every rate reached" covers the rates a sweep adds between the published ones.
 */
@InterruptAfter(10)
class ReferenceCurveTest
{
    @TempDir
    Path dir;

    @Test
    void publishedRatesAreExactAndRatesBetweenThemInterpolated() throws Exception
    {
        final Path csv = dir.resolve("curve.csv");
        Files.writeString(csv, "# a comment\nupdate_rate_per_s,mean_us,stddev_us\n" +
            "1000000,759.65,1\n1100000,813.73,1\n1500000,1000.00,1\n");
        final ReferenceCurve curve = ReferenceCurve.read("HS22", csv);

        assertEquals(759.65, curve.meanAt(1_000_000), 1e-9);
        assertTrue(curve.isPublished(1_100_000));
        assertEquals(786.69, curve.meanAt(1_050_000), 1e-9, "half way between 759.65 and 813.73");
        assertFalse(curve.isPublished(1_050_000));
        assertEquals(860.2975, curve.meanAt(1_200_000), 1e-9, "a quarter of the way from 813.73 to 1,000");
        assertTrue(Double.isNaN(curve.meanAt(900_000)), "below the published range");
        assertTrue(Double.isNaN(curve.meanAt(1_600_000)), "above it");
    }
}
