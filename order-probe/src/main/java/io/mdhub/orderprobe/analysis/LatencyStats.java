package io.mdhub.orderprobe.analysis;

import java.util.Arrays;

/**
 * The published statistics of one latency sample (mean, median, min, max, standard deviation, 90th and 95th
 * percentiles), plus the 99th and 99.9th, computed exactly from the sorted values. Percentiles are nearest-rank.
 *
 * @param count    values.
 * @param meanUs   mean.
 * @param medianUs median.
 * @param minUs    minimum.
 * @param maxUs    maximum.
 * @param stddevUs population standard deviation.
 * @param p90Us    90th percentile.
 * @param p95Us    95th percentile.
 * @param p99Us    99th percentile.
 * @param p999Us   99.9th percentile.
 */
public record LatencyStats(
    int count,
    double meanUs,
    double medianUs,
    double minUs,
    double maxUs,
    double stddevUs,
    double p90Us,
    double p95Us,
    double p99Us,
    double p999Us)
{
    /** Bucket width of the published histograms: 10 µs. */
    public static final long PUBLISHED_BUCKET_NS = 10_000;
    private static final double NS_PER_US = 1000.0;

    /**
     * @param valuesNs latencies in nanoseconds (not modified).
     * @return their statistics; all zero for none.
     */
    public static LatencyStats of(final long[] valuesNs)
    {
        if (0 == valuesNs.length)
        {
            return new LatencyStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        final long[] sorted = valuesNs.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (final long value : sorted)
        {
            sum += value;
        }
        final double mean = sum / sorted.length;
        double squares = 0;
        for (final long value : sorted)
        {
            final double delta = value - mean;
            squares += delta * delta;
        }
        return new LatencyStats(
            sorted.length,
            mean / NS_PER_US,
            percentile(sorted, 50) / NS_PER_US,
            sorted[0] / NS_PER_US,
            sorted[sorted.length - 1] / NS_PER_US,
            Math.sqrt(squares / sorted.length) / NS_PER_US,
            percentile(sorted, 90) / NS_PER_US,
            percentile(sorted, 95) / NS_PER_US,
            percentile(sorted, 99) / NS_PER_US,
            percentile(sorted, 99.9) / NS_PER_US);
    }

    /**
     * @param sorted  ascending values, at least one.
     * @param percent 0 to 100.
     * @return the nearest-rank percentile.
     */
    static long percentile(final long[] sorted, final double percent)
    {
        final int rank = (int)Math.ceil(percent * sorted.length / 100.0 - 1e-9); // 99.9 % of 1000 is rank 999
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * The published histograms' bucket width, or a multiple of it when more than {@code maxBuckets} of those would be
     * needed to reach {@code limitNs}: a run whose tail reaches seconds still gets a histogram of readable size (and
     * a chart library is never handed millions of bars).
     *
     * @param limitNs    where the histogram ends.
     * @param maxBuckets most buckets wanted.
     * @return the bucket width, a multiple of {@link #PUBLISHED_BUCKET_NS}.
     */
    public static long bucketWidthNs(final long limitNs, final int maxBuckets)
    {
        final long needed = (Math.max(1, limitNs) + maxBuckets - 1) / maxBuckets;
        return Math.max(1, (needed + PUBLISHED_BUCKET_NS - 1) / PUBLISHED_BUCKET_NS) * PUBLISHED_BUCKET_NS;
    }

    /**
     * @param valuesNs latencies in nanoseconds.
     * @param bucketNs bucket width (the published histograms used 10 µs).
     * @param limitNs  values at or above it share the last bucket.
     * @return counts per bucket: bucket i holds [i × width, (i + 1) × width).
     */
    public static long[] histogram(final long[] valuesNs, final long bucketNs, final long limitNs)
    {
        final int buckets = (int)Math.max(1, (limitNs + bucketNs - 1) / bucketNs);
        final long[] counts = new long[buckets + 1];
        for (final long value : valuesNs)
        {
            counts[(int)Math.min(buckets, Math.max(0, value) / bucketNs)]++;
        }
        return counts;
    }
}
