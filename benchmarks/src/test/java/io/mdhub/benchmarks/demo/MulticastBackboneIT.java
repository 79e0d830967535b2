package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.ScriptOptions;
import io.mdhub.common.test.SystemProcesses;

/**
 * The backbone over UDP multicast on a named interface. Multicast must not leave the machine and the host's
 * loopback does not carry it, so the test makes a network namespace of its own whose loopback has MULTICAST on and a
 * route for 224.0.0.0/4, runs {@code bin/mdhub demo} inside it with data and control streams on two multicast
 * groups bound to that interface, and deletes the namespace afterwards. Needs root and iproute2 (as CI has).
 */
@InterruptAfter(120)
@EnabledOnOs(OS.LINUX)
class MulticastBackboneIT
{
    @TempDir
    Path dir;

    @Test
    void demoRunsWithTheBackboneOnMulticastGroups() throws Exception
    {
        final boolean hasIp =
            Files.isExecutable(Paths.get("/sbin/ip")) || Files.isExecutable(Paths.get("/usr/sbin/ip"));
        assumeTrue("root".equals(System.getProperty("user.name")) && hasIp,
            "needs root and iproute2 to make a network namespace");
        final String namespace = "mdhub-mc-" + ProcessHandle.current().pid();
        assumeTrue(0 == run("ip", "netns", "add", namespace), "cannot create a network namespace here");
        try
        {
            assertEquals(0, run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up"));
            assertEquals(0, run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "multicast", "on"));
            assertEquals(0, run("ip", "netns", "exec", namespace, "ip", "route", "add", "224.0.0.0/4", "dev", "lo"));

            final Path log = dir.resolve("demo.log");
            try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
            {
                final Process process = processes.startScript(log, "bin/mdhub", List.of("demo", "--items", "500",
                    "--rate", "1000", "--duration", "5",
                    "--backbone-channel", "aeron:udp?endpoint=239.255.1.1:40456|interface=127.0.0.1",
                    "--backbone-control-channel", "aeron:udp?endpoint=239.255.1.3:40457|interface=127.0.0.1"),
                    ScriptOptions.DEFAULTS.under("ip", "netns", "exec", namespace)
                        .with("JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + dir));
                final String output = SystemProcesses.awaitSuccess(process, log, 100);
                assertTrue(output.contains("items open 500/500"), output);
                assertTrue(output.contains(", lost 0, out of order 0"), output);
            }
        }
        finally
        {
            run("ip", "netns", "delete", namespace);
        }
    }

    private static int run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).inheritIO().start();
        if (!process.waitFor(20, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
