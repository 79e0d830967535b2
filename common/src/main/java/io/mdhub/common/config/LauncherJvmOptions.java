package io.mdhub.common.config;

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

    private LauncherJvmOptions()
    {
    }
}
