package io.mdhub.benchmarks.source;

import static io.mdhub.common.test.SystemProcesses.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.ScriptOptions;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub source} as an operator runs it: a separate JVM from the fat jar, publishing into a (fake)
 * distributor, printing a line per second and taking {@code ur <rate>} on standard input.
 */
@InterruptAfter(60)
class SourceLauncherIT
{
    private static final Pattern LISTENING = Pattern.compile("interactive, listening on [0-9.]+:([0-9]+)");

    private final SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @TempDir
    Path dir;

    @AfterEach
    void stopProcesses()
    {
        processes.close();
    }

    @Test
    void helpDescribesTheOptions() throws Exception
    {
        final Path log = dir.resolve("help.log");
        final String output = SystemProcesses.awaitSuccess(start(log, "--help"), log, 30);
        assertTrue(output.contains("--rate") && output.contains("--item-file"), output);
        assertTrue(output.contains("--interactive") && output.contains("Sink_Driven_Src"), output);
    }

    @Test
    void interactiveModeListensForConsumersAndUpdatesWhatTheyOpen() throws Exception
    {
        final Path log = dir.resolve("interactive.log");
        final Process process = start(log, "--interactive", "--port", "0", "--service", "SINK_IT", "--rate", "2000",
            "--duration", "4");
        MdTests.await(() -> "listening line:\n" + read(log), () -> LISTENING.matcher(read(log)).find());
        final Matcher listening = LISTENING.matcher(read(log));
        assertTrue(listening.find());
        final int port = Integer.parseInt(listening.group(1));
        try (TestClient client = TestClient.launch(new TestClient.Context()
            .port(port)
            .serviceName("SINK_IT")
            .itemCount(50));
            OutputStream stdin = process.getOutputStream())
        {
            MdTests.await(() -> "items open: " + client.totals().itemsOpen, () -> 50 == client.totals().itemsOpen);
            stdin.write("ur 3000\n".getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            MdTests.await(() -> "rate command acknowledged:\n" + read(log),
                () -> read(log).contains("rate now 3000 updates/s"));
            MdTests.await(() -> "a report with the open items:\n" + read(log),
                () -> read(log).contains("connections 1, open items 50, requests 50"));
            MdTests.await(() -> "updates: " + client.totals().updates, () -> client.totals().updates > 500);
            assertEquals(0, client.totals().lostUpdates);
        }
        MdTests.await(() -> "exit after --duration:\n" + read(log), () -> !process.isAlive());
        assertEquals(0, process.exitValue(), read(log));
    }

    @Test
    void publishesIntoADistributorAndTakesRateCommands() throws Exception
    {
        final Path log = dir.resolve("source.log");
        try (FakeDistributor distributor = new FakeDistributor(true))
        {
            final Process process = start(log, "--port", Integer.toString(distributor.port()), "--items", "100",
                "--rate", "1000", "--duration", "3");
            MdTests.await(() -> "first report line:\n" + read(log), () -> read(log).contains("source: refreshes 100"));
            try (OutputStream stdin = process.getOutputStream())
            {
                stdin.write("ur 2000\n".getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
                MdTests.await(() -> "rate command acknowledged:\n" + read(log),
                    () -> read(log).contains("rate now 2000 updates/s"));
            }
            MdTests.await(() -> "exit after --duration:\n" + read(log), () -> !process.isAlive());
            assertEquals(0, process.exitValue(), read(log));
            assertTrue(distributor.isProviderLogin);
            assertTrue(distributor.received.size() > 102, "login, directory, 100 refreshes and updates");
        }
    }

    private Process start(final Path log, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("source"));
        command.addAll(List.of(args));
        return processes.startScript(log, "bin/mdhub", command, ScriptOptions.DEFAULTS.with("JAVA_OPTS", "-Xmx128m"));
    }
}
