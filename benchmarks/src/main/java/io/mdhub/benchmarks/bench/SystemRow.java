package io.mdhub.benchmarks.bench;

import java.util.Locale;

/**
 * One rate step of one system in {@code bench latency}: MDHub or a peer, its latency and the CPU all its processes
 * spent per update in the window.
 *
 * @param system         the system's name.
 * @param row            the step.
 * @param cpuUsPerUpdate µs of CPU per update, every process of the system together.
 */
record SystemRow(String system, LatencyRow row, double cpuUsPerUpdate)
{
    /** CSV header of {@link #csv()}. */
    static final String CSV_HEADER = "system," + LatencyRow.CSV_HEADER + ",cpu_us_per_update";

    String csv()
    {
        return system + "," + row.csv() + String.format(Locale.ROOT, ",%.3f", cpuUsPerUpdate);
    }
}
