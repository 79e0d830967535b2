package io.mdhub.common.config;

import java.nio.file.Path;
import java.util.List;

/**
 * JVM options MDHub's launchers put before anyone else's, so a later option can turn them off again (the last of
 * {@code -XX:X=a} and {@code -XX:X=b} wins): {@code bin/mdhub} (its {@code DEFAULT_JAVA_OPTS}, written in shell and
 * held to this list by {@code BackboneDaemonIT}), the benchmarks' processes and the system tests' JVMs.
 */
public final class LauncherJvmOptions
{
    /**
     * No periodic safepoint: by default HotSpot stops every thread once a second for a "Cleanup" safepoint when it has
     * housekeeping queued, up to 6 ms on a loaded 2-vCPU box; with these the housekeeping waits for a safepoint the
     * JVM takes anyway (docs/operations.md, "Latency: no periodic safepoints").
     * {@code -XX:GuaranteedSafepointInterval=1000} after them brings the JVM's default back.
     */
    public static final List<String> NO_PERIODIC_SAFEPOINTS =
        List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0");

    /**
     * The JVM's own periodic housekeeping once a second instead of many times a second, since an idle server's CPU is
     * its count of wake-ups: performance counters (what {@code jstat} reads) sampled every second, not every 50 ms;
     * the check for idle monitors to deflate every second, not every 250 ms. Together about 22 fewer wake-ups a second
     * per JVM. (G1's remembered-set sampling, 3 a second, stays: its flag is gone from Java 23 on, and a JVM refuses
     * to start on an option it does not know.)
     */
    public static final List<String> RARE_HOUSEKEEPING = List.of("-XX:PerfDataSamplingInterval=1000",
        "-XX:+UnlockDiagnosticVMOptions", "-XX:AsyncDeflationInterval=1000");

    /**
     * JFR's repository (where a pause recorder's recording lives) in a directory of the caller's, instead of a
     * directory per process in {@code /tmp} that a killed process leaves behind. For processes a test or benchmark
     * starts and may kill; {@code bin/mdhub} leaves JFR's default.
     *
     * @param directory where the repository goes (JFR makes a directory per process in it).
     * @return the option.
     */
    public static String jfrRepository(final Path directory)
    {
        return "-XX:FlightRecorderOptions:repository=" + directory.toAbsolutePath();
    }

    private LauncherJvmOptions()
    {
    }
}
