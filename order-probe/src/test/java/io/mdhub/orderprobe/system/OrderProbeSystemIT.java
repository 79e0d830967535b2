package io.mdhub.orderprobe.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.pause.HiccupMeter;
import io.mdhub.common.pause.PauseEvent;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.analysis.SpikeEpisode;

/**
 * The probe as users run it, every piece its own process: two order servers with their pause recorders and order
 * counters on JMX, and {@code bin/mdhub probe}. A clean run: nothing is attributed to a pause, and the servers'
 * exported counters account for every order. A run during which order server 1 is stopped with SIGSTOP for 50 ms:
 * the analyser puts the spike that stop made on it.
 */
@InterruptAfter(300)
class OrderProbeSystemIT
{
    private static final long SPIKE_NS = 10_000_000L;

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));
    private final int[] ingressPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final int[] peerPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final int[] fencePorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final int[] jmxPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final Process[] servers = new Process[2];

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void aStoppedServerExplainsItsSpikeAndACleanRunHasNothingAttributed() throws Exception
    {
        final Path[] logs = {startServer(0), startServer(1)};
        SystemProcesses.awaitLine(logs[1], "partition 1 (handed over");

        final ProbeRun clean = probe("clean", List.of());
        assertEquals("0", clean.property(ProbeRun.FAILED));
        assertEquals("", clean.property("problem.0"), "both servers' pauses were read over JMX");
        final RunGroup cleanGroup = RunGroup.group(List.of(clean), SPIKE_NS).get(0);
        for (final SpikeEpisode episode : cleanGroup.episodes())
        {
            // no JVM stopped anything: a spike is unexplained, or a hiccup (the OS not running a process) explains it
            assertTrue(episode.isUnexplained() || HiccupMeter.CAUSE.equals(episode.causes().get(0).cause()),
                () -> "nothing paused, yet attributed: " + episode.describeCause());
        }

        // the order-only servers export their order counters over JMX like every server: together they acknowledged
        // at least every order the clean run measured
        long acked = 0;
        for (int id = 0; id < 2; id++)
        {
            final long serverAcked = exportedCount(jmxPorts[id], "order-server-" + id, "order-acked");
            assertTrue(serverAcked > 0, "server " + id + " is primary of half the partitions: it acknowledged some");
            acked += serverAcked;
        }
        assertTrue(acked >= clean.orders(), acked + " acknowledged, " + clean.orders() + " measured");

        final ProbeRun stopped = probe("stopped",
            List.of("--inject-stop", "order-server-1:" + servers[1].pid() + ":2:50"));
        assertEquals("", stopped.property("problem.0"));
        final PauseEvent stop = stopped.pauses().stream().filter((p) -> "SIGSTOP".equals(p.cause())).findFirst()
            .orElseThrow(() -> new AssertionError("the injected stop was not recorded: " + stopped.pauses()));
        assertEquals("order-server-1", stop.process());
        assertTrue(stop.durationNs() >= 50_000_000L, stop::toString);
        final RunGroup group = RunGroup.group(List.of(stopped), SPIKE_NS).get(0);
        final List<SpikeEpisode> overlapping = new ArrayList<>();
        for (final SpikeEpisode episode : group.episodes())
        {
            if (episode.startEpochNs() < stop.endEpochNs() && episode.endEpochNs() > stop.startEpochNs())
            {
                overlapping.add(episode);
            }
        }
        assertEquals(1, overlapping.size(), () -> "one spike episode around the stop: " + group.episodes());
        final SpikeEpisode spike = overlapping.get(0);
        assertTrue(spike.maxLatencyNs() >= 40_000_000L, () -> "the stop held orders: " + spike);
        assertFalse(spike.isUnexplained(), () -> "attributed: " + spike);
        final PauseEvent cause = spike.causes().get(0);
        // the stop as injected, or the stopped server's own hiccup meter measuring it: either names order-server-1
        assertTrue(stop.equals(cause) || ("order-server-1".equals(cause.process()) &&
            HiccupMeter.CAUSE.equals(cause.cause()) && cause.durationNs() >= 40_000_000L),
            () -> "attributed to the stop of order-server-1: " + spike.describeCause());
        System.out.println("OrderProbeSystemIT: spike of " + spike.orders() + " orders, worst " +
            spike.maxLatencyNs() / 1_000_000.0 + " ms, attributed to " + spike.describeCause());
    }

    /**
     * @return the running total a server exports over JMX for its counter of that label.
     */
    private static long exportedCount(final int jmxPort, final String source, final String label) throws IOException
    {
        final JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
        try (JMXConnector connector = JMXConnectorFactory.connect(url))
        {
            final MBeanServerConnection server = connector.getMBeanServerConnection();
            final Set<ObjectName> names = server.queryNames(new ObjectName("io.mdhub:type=meters,*"), null);
            for (final ObjectName name : names)
            {
                final String key = String.valueOf(name.getKeyProperty("name"));
                if (key.contains(".label." + label + "_") && key.contains(".source." + source + "."))
                {
                    return ((Number)server.getAttribute(name, "Count")).longValue();
                }
            }
            throw new AssertionError("no exported counter " + label + " of " + source + " in " + names);
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private ProbeRun probe(final String name, final List<String> extra) throws Exception
    {
        final Path out = dir.resolve("probe-" + name);
        final Path log = dir.resolve("probe-" + name + ".log");
        final List<String> args = new ArrayList<>(List.of("probe", "--rate", "400", "--warmup", "2", "--duration",
            "5", "--publishers", "4", "--probe-id", "A", "--label", name,
            "--servers", "localhost:" + ingressPorts[0] + ",localhost:" + ingressPorts[1],
            "--server-jmx", "127.0.0.1:" + jmxPorts[0] + ",127.0.0.1:" + jmxPorts[1],
            "--spike-us", Long.toString(SPIKE_NS / 1000), "--out", out.toString()));
        args.addAll(extra);
        final Process probe = processes.start(log, "order-probe/target/mdhub-order-probe.jar", List.of(),
            args.toArray(new String[0]));
        MdTests.await(() -> name + ": the probe to finish:\n" + SystemProcesses.tail(log), () -> !probe.isAlive());
        assertEquals(0, probe.exitValue(), SystemProcesses.read(log));
        return ProbeRun.load(out);
    }

    private Path startServer(final int id) throws IOException
    {
        final Path log = dir.resolve("server-" + id + ".log");
        final int peer = 1 - id;
        servers[id] = processes.start(log, "p2p-server/target/mdhub-p2p.jar", List.of(
            // a young generation the start-up garbage and the JMX reads cannot fill in the test: the clean run's
            // premise is that nothing pauses, and a default-sized one can collect during it
            "-Xmx768m", "-Xms768m", "-Xmn384m",
            "-Dmdhub.order.enabled=true",
            "-Dmdhub.p2p.market.data.enabled=false",
            "-Dmdhub.order.server.id=" + id,
            "-Dmdhub.order.partitions=4",
            "-Dmdhub.order.address=localhost:" + ingressPorts[id],
            "-Dmdhub.order.peer.address=localhost:" + peerPorts[id],
            "-Dmdhub.order.peer.remote.address=localhost:" + peerPorts[peer],
            "-Dmdhub.order.fence.address=localhost:" + fencePorts[id],
            "-Dmdhub.order.peer.fence.address=localhost:" + fencePorts[peer],
            "-Dmdhub.order.queue.dir=" + dir.resolve("queue-" + id),
            "-Dcom.sun.management.jmxremote.port=" + jmxPorts[id],
            "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPorts[id],
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false"));
        SystemProcesses.awaitLine(log, "mdhub-p2p ready");
        return log;
    }
}
