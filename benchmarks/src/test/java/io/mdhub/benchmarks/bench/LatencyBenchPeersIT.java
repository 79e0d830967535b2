package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.benchmarks.peers.PeerSystem;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub bench latency --peers redis,nats,relay2,mdhub-eta} with tiny settings: MDHub on its defaults, then
 * the floor of two TCP relays, each peer whose server is installed and MDHub between an ETA provider and an ETA
 * consumer through the same rate, side by side in {@code systems.csv} and the report; a peer whose server is not
 * installed is skipped with a line that says how to install it.
 */
@InterruptAfter(300)
class LatencyBenchPeersIT
{
    @TempDir
    Path dir;

    @Test
    void thePeersRunBesideMdhubOrAreSkippedWithALine() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", List.of(
                "bench", "latency", "--items", "1000", "--rates", "1000", "--step-seconds", "3",
                "--warmup-seconds", "2", "--peers", "redis,nats,relay2,mdhub-eta", "--out", report.toString(),
                "--jvm-opts", "-Xmx256m")), log, 260);
            final String output = Files.readString(log);
            final List<String> systems = Files.readAllLines(report.resolve("systems.csv"));
            assertEquals(SystemRow.CSV_HEADER, systems.get(0));
            assertTrue(systems.get(1).startsWith("MDHub (defaults),1000,"), systems.get(1));
            final String md = Files.readString(report.resolve("report.md"));
            int installed = 0;
            for (final PeerSystem peer : PeerSystem.values())
            {
                if (PeerSystem.RELAY == peer)
                {
                    continue; // not asked for
                }
                if (0 == peer.relays() && !peer.isMdhub() && null == peer.findServer())
                {
                    System.out.println("LatencyBenchPeersIT: " + peer.binaryName() + " not installed: its skip line " +
                        "is checked, not its run (apt-get install " + peer.debianPackage() + ")");
                    assertTrue(output.contains(peer.label() + " skipped: " + peer.binaryName() +
                        " is not on the PATH (apt-get install " + peer.debianPackage() + ")"), output);
                    continue;
                }
                installed++;
                final String row = systems.stream().filter((line) -> line.startsWith(peer.label() + ",")).findFirst()
                    .orElseThrow(() -> new AssertionError(peer.label() + " has no row:\n" + systems));
                final String[] cells = row.split(",");
                assertEquals("1000", cells[1], row);
                assertTrue(Double.parseDouble(cells[3]) > 0, row); // a mean latency
                assertTrue(Long.parseLong(cells[7]) > 0, row); // samples
                assertEquals("0", cells[11], row); // nothing lost
                assertEquals("true", cells[12], row); // sustained
                assertTrue(Double.parseDouble(cells[13]) > 0, row); // CPU per update of its processes
                assertTrue(md.contains("| " + peer.label() + " | "), md);
                assertTrue(md.contains("| ÷ " + peer.label() + " | "), md);
            }
            assertEquals(1 + 1 + installed, systems.size(), () -> String.join("\n", systems));
        }
    }
}
