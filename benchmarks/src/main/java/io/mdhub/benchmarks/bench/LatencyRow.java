package io.mdhub.benchmarks.bench;

/**
 * One rate step of the latency sweep: the commanded and achieved rates, the client's steady-state latency summary
 * (microseconds, the reference tables' columns plus percentiles), and whether the step was sustained.
 *
 * @param rate      commanded updates/s.
 * @param achieved  updates/s the client received on average over the measured window.
 * @param meanUs    mean latency.
 * @param stddevUs  standard deviation.
 * @param maxUs     maximum.
 * @param minUs     minimum.
 * @param samples   timestamped updates measured.
 * @param p50Us     median.
 * @param p99Us     99th percentile.
 * @param p999Us    99.9th percentile.
 * @param lost      updates the client found missing.
 * @param sustained the step kept up: no loss, no failure, achieved within 5 % of the rate.
 */
record LatencyRow(
    long rate,
    long achieved,
    double meanUs,
    double stddevUs,
    double maxUs,
    double minUs,
    long samples,
    double p50Us,
    double p99Us,
    double p999Us,
    long lost,
    boolean sustained)
{
    static final String CSV_HEADER = "update_rate_per_s,achieved_per_s,mean_us,stddev_us,max_us,min_us,samples," +
        "p50_us,p99_us,p99_9_us,lost,sustained";

    String csv()
    {
        return String.format(java.util.Locale.ROOT, "%d,%d,%.2f,%.2f,%.2f,%.2f,%d,%.2f,%.2f,%.2f,%d,%b", rate,
            achieved, meanUs, stddevUs, maxUs, minUs, samples, p50Us, p99Us, p999Us, lost, sustained);
    }
}
