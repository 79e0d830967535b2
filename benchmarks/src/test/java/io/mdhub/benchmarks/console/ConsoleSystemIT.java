package io.mdhub.benchmarks.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;
import io.mdhub.benchmarks.system.OrderPairLaunch;

/**
 * The console against live servers, each a JVM from its fat jar: the backbone daemon, a distributor fed by a source,
 * a p2p-server with a client, and an order pair. Its model finds them through the attach API and reads their
 * figures; a confirmed operation drops the client; the overview prints as a table and as JSON; and the
 * interactive screen, run by {@code bin/mdhub console} in tmux, shows them and quits on q.
 */
@InterruptAfter(value = 240)
class ConsoleSystemIT
{
    private static final int ITEMS = 40;
    /** No management HTTP: the console reads JMX, and other servers of the host may hold the default ports. */
    private static final List<String> HTTP_OFF = List.of(
        "-Dmdhub.backbone.http.port=-1", "-Dmdhub.distributor.http.port=-1", "-Dmdhub.p2p.http.port=-1");

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));
    private final Set<Long> started = new java.util.HashSet<>();

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void overviewOfLiveServersWithAnOperationAndTheScreen() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();
        final Path backboneLog = start("backbone", "backbone/target/mdhub-backbone.jar", List.of(),
            "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        // the distributor also serves remote JMX, as on a blade the console reads from another host
        final int jmxPort = MdTests.unusedPort();
        final Path distributorLog = start("distributor", "distributor/target/mdhub-distributor.jar", List.of(
            "-Dcom.sun.management.jmxremote.port=" + jmxPort, "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
            "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false"),
            "--aeron-dir", aeronDir, "--port", Integer.toString(providerPort));
        final Path p2pLog = start("p2p", "p2p-server/target/mdhub-p2p.jar", List.of(),
            "--aeron-dir", aeronDir, "--port", Integer.toString(consumerPort));
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");
        final Path sourceLog = start("source", "benchmarks/target/mdhub-bench.jar", List.of(), "source",
            "--port", Integer.toString(providerPort), "--items", Integer.toString(ITEMS), "--rate", "400");
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");
        final Path clientLog = start("client", "benchmarks/target/mdhub-bench.jar", List.of(), "client",
            "--port", Integer.toString(consumerPort), "--items", Integer.toString(ITEMS), "--duration", "120");
        SystemProcesses.awaitLine(clientLog, "open " + ITEMS + "/" + ITEMS);
        final String orderServers = startOrderPair();

        try (ConsoleModel model = new ConsoleModel(() -> LocalProcesses.find().stream()
            .filter((target) -> started.contains(Long.parseLong(target.label().substring("pid ".length()))))
            .collect(Collectors.toList())))
        {
            MdTests.await(() -> "the console to see five servers, the order pair serving:\n" +
                OverviewFormat.table(model.refresh()), () -> isComplete(model.refresh()));
            final Process load = processes.start(dir.resolve("orders-load.log"),
                "order-probe/target/mdhub-order-probe.jar", List.of(), "orders-load", "--rate", "500",
                "--duration", "4", "--servers", orderServers, "--out", dir.resolve("acked.csv").toString());
            Thread.sleep(2_000);
            model.refresh();
            Thread.sleep(1_000);
            final List<ProcessRow> rows = model.refresh();
            final String table = OverviewFormat.table(rows);

            final ProcessRow distributor = only(rows, "distributor");
            assertEquals(1, distributor.providers(), table);
            assertEquals(ITEMS, distributor.items(), table);
            assertTrue(distributor.updatesInPerSec() > 100, table);
            final ProcessRow p2p = only(rows, "p2p");
            assertEquals(1, p2p.consumers(), table);
            assertEquals(ITEMS, p2p.items(), table);
            assertTrue(p2p.updatesOutPerSec() > 100, table);
            assertEquals(0, p2p.slowConsumers(), table);
            assertEquals(0, only(rows, "backbone").gaps(), table);
            for (final ProcessRow order : rows)
            {
                if ("order".equals(order.role()))
                {
                    assertEquals("SERVING", order.orderState(), table);
                    assertTrue(order.partitions().matches("0:\\w+ 1:\\w+"), table);
                }
            }
            final double ordersPerSec = rows.stream().filter((row) -> "order".equals(row.role()))
                .mapToDouble(ProcessRow::ordersPerSec).sum();
            assertTrue(ordersPerSec > 100, "orders acknowledged per second by the pair under 500/s of load: " +
                ordersPerSec + "\n" + table);
            assertTrue(rows.stream().anyMatch((row) -> row.ackP99Us() > 0 && row.ackP50Us() <= row.ackP99Us()),
                table);
            assertTrue(load.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the order load to end");
            assertEquals(0, load.exitValue(), SystemProcesses.read(dir.resolve("orders-load.log")));
            final String json = OverviewFormat.json(rows);
            assertTrue(json.contains("\"role\":\"p2p\"") && json.contains("\"consumers\":1"), json);

            // drop the client through the p2p-server's MBean, confirmed
            final ConsoleOperations.Pending drop = ConsoleOperations.ask(model, p2p, '1');
            assertNotNull(drop, "an operation for key 1");
            assertTrue(drop.what().startsWith("drop connection "), drop.what());
            assertEquals(drop.what() + ": true", drop.confirm());
            MdTests.await(() -> "the p2p-server to count the drop", () ->
            {
                model.refresh();
                final ProcessSample sample = model.sample(p2p.target());
                return 1 == sample.sum("p2p-disconnects", "reason=admin-drop");
            });

            aRemoteProcessIsReadOverItsJmxPort(jmxPort);
            theScreenShowsTheServersAndQuitsOnQ();
        }
    }

    private static void aRemoteProcessIsReadOverItsJmxPort(final int jmxPort)
    {
        final java.io.StringWriter out = new java.io.StringWriter();
        final int status = new picocli.CommandLine(new ConsoleMain()).setOut(new java.io.PrintWriter(out))
            .execute("--once", "--no-local", "--remote", "127.0.0.1:" + jmxPort, "--format", "json",
                "--interval-ms", "500");
        assertEquals(0, status, out.toString());
        assertTrue(out.toString().startsWith("[{\"target\":\"127.0.0.1:" + jmxPort + "\",\"role\":\"distributor\""),
            out.toString());
        assertTrue(out.toString().contains("\"providers\":1"), out.toString());
    }

    private void theScreenShowsTheServersAndQuitsOnQ() throws Exception
    {
        Assumptions.assumeTrue(0 == run("tmux", "-V"), "tmux is not installed: the screen test is skipped " +
            "(apt-get install tmux)");
        final String session = "mdhub-console-" + ProcessHandle.current().pid();
        final String launcher = processes.root().resolve("bin/mdhub").toString();
        assertEquals(0, run("tmux", "new-session", "-d", "-s", session, "-x", "220", "-y", "30",
            "MDHUB_NO_BUILD=1 bash " + launcher + " console"));
        try
        {
            MdTests.await(() -> "the screen to show the servers:\n" + capture(session), () ->
            {
                final String screen = capture(session);
                return screen.contains("MDHub console") && screen.contains("distributor pid") &&
                    screen.contains("p2p         pid") && screen.contains("SERVING");
            });
            assertEquals(0, run("tmux", "send-keys", "-t", session, "q"));
            MdTests.await("the console to quit on q", () -> 0 != run("tmux", "has-session", "-t", session));
        }
        finally
        {
            run("tmux", "kill-session", "-t", session);
        }
    }

    private static boolean isComplete(final List<ProcessRow> rows)
    {
        final long serving = rows.stream().filter((row) -> "SERVING".equals(row.orderState())).count();
        return rows.size() == 5 && rows.stream().allMatch((row) -> null == row.error()) && 2 == serving &&
            rows.stream().anyMatch((row) -> "p2p".equals(row.role()) && 1 == row.consumers());
    }

    private static ProcessRow only(final List<ProcessRow> rows, final String role)
    {
        final List<ProcessRow> matching = rows.stream().filter((row) -> role.equals(row.role())).toList();
        assertEquals(1, matching.size(), role + " rows:\n" + OverviewFormat.table(rows));
        return matching.get(0);
    }

    private String startOrderPair() throws IOException
    {
        final OrderPairLaunch.Pair pair = OrderPairLaunch.start(processes, dir, 2, (id) -> HTTP_OFF);
        for (final Process server : pair.servers())
        {
            started.add(server.pid());
        }
        return pair.ingress();
    }

    private Path start(final String name, final String jar, final List<String> jvmArgs, final String... args)
        throws IOException
    {
        final Path log = dir.resolve(name + ".log");
        final List<String> options = new ArrayList<>(jvmArgs);
        options.addAll(HTTP_OFF);
        started.add(processes.start(log, jar, options, args).pid());
        return log;
    }

    private static String capture(final String session)
    {
        try
        {
            final Process capture = new ProcessBuilder("tmux", "capture-pane", "-t", session, "-p")
                .redirectErrorStream(true).start();
            final String screen = new String(capture.getInputStream().readAllBytes());
            capture.waitFor(5, TimeUnit.SECONDS);
            return screen;
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return ex.toString();
        }
    }

    private static int run(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(10, TimeUnit.SECONDS) ? process.exitValue() : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
