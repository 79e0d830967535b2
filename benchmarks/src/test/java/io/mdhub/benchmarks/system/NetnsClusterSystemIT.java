package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * docker/compose.yaml's cluster run as docker/netns-cluster runs it where no container engine is at hand: every
 * service a process in a network namespace of its own on one bridge, the backbone over UDP multicast between them.
 * The cluster must become healthy: every server ready over its management endpoint, and updates crossing the backbone
 * into both p2p-servers and out to their clients. Needs root (ip netns); skipped with a line without it.
 */
@InterruptAfter(value = 300)
class NetnsClusterSystemIT
{
    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @AfterEach
    void down() throws Exception
    {
        // the run stops everything itself; this is for a run cut short
        final Process down = new ProcessBuilder("python3", script(), "down", "--run-dir", dir.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("down.log").toFile()).start();
        down.waitFor(60, TimeUnit.SECONDS);
    }

    private String script()
    {
        return processes.root().resolve("docker/netns-cluster").toString();
    }

    @Test
    void theComposeClusterBecomesHealthyOverAMulticastBackbone() throws Exception
    {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
            "netns-cluster needs root for ip netns: skipped");
        final Process yaml = new ProcessBuilder("python3", "-c", "import yaml").start();
        Assumptions.assumeTrue(yaml.waitFor(30, TimeUnit.SECONDS) && 0 == yaml.exitValue(),
            "netns-cluster reads the compose file with python3-yaml, which is not installed: skipped");
        final Path log = dir.resolve("cluster.log");
        final Process run = new ProcessBuilder("python3", script(), "run", "--run-dir", dir.toString(),
            "--seconds", "180").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(run.waitFor(280, TimeUnit.SECONDS), "the cluster run to end:\n" + SystemProcesses.tail(log));
        final String output = Files.readString(log);
        assertEquals(0, run.exitValue(), output + logs());
        assertTrue(output.contains("netns-cluster: healthy"), output);
        for (final String server : List.of("distributor", "order-0", "order-1"))
        {
            assertTrue(output.matches("(?s).*\\n  " + server + " +ready\\n.*"), server + ":\n" + output);
        }
        for (final String server : List.of("p2p-1", "p2p-2"))
        {
            assertTrue(output.matches("(?s).*\\n  " + server + " +ready, \\d+ updates out\\n.*"), server + ":\n" +
                output);
        }
        assertTrue(output.contains("netns-cluster: down (8 processes, 10 namespaces)"), output);
    }

    private String logs() throws Exception
    {
        final StringBuilder text = new StringBuilder();
        try (var files = Files.list(dir))
        {
            for (final Path file : files.filter((f) -> f.toString().endsWith(".log")).toList())
            {
                text.append("\n--- ").append(file.getFileName()).append('\n').append(SystemProcesses.tail(file));
            }
        }
        return text.toString();
    }
}
