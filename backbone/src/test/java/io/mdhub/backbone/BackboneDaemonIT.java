package io.mdhub.backbone;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.mdhub.common.config.LauncherJvmOptions;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the backbone daemon as a separate process, as operators do — through {@code bin/mdhub backbone}, and as a
 * plain {@code java -jar mdhub-backbone.jar} — and talks to its driver from this JVM. Needs the fat jar, so it runs
 * in the integration-test phase after {@code package}.
 */
@InterruptAfter(60)
class BackboneDaemonIT
{
    @TempDir
    Path dir;

    private Process process;

    @AfterEach
    void destroyProcess() throws InterruptedException
    {
        if (null != process && process.isAlive())
        {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    @Test
    void servesIpcAndUdpClientsAndExitsCleanlyOnSigterm() throws InterruptedException
    {
        final Path aeronDir = dir.resolve("aeron");
        final Path log = dir.resolve("backbone.log");
        process = startWithLauncher(log,
            "--aeron-dir", aeronDir.toString(),
            "-D", BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME + "=64k",
            "-D", BackboneConfiguration.IPC_TERM_BUFFER_LENGTH_PROP_NAME + "=64k",
            "-D", BackboneConfiguration.DIR_DELETE_ON_SHUTDOWN_PROP_NAME + "=true");

        MdTests.await(() -> "ready line from the daemon; output so far:\n" + read(log), () ->
        {
            if (!process.isAlive())
            {
                throw new AssertionError("daemon exited with " + process.exitValue() + ":\n" + read(log));
            }
            return read(log).contains(BackboneMain.READY_LINE_PREFIX);
        });
        assertTrue(Files.exists(aeronDir.resolve("cnc.dat")), "CnC file");
        final List<String> jvmArgs = commandLine(process.pid());
        final int hugePages = jvmArgs.indexOf("-XX:+UseTransparentHugePages");
        assertTrue(hugePages > 0 && hugePages < jvmArgs.indexOf("-Xmx128m"),
            "the launcher's default JVM options come first, so JAVA_OPTS can turn them off: " + jvmArgs);
        final int safepoints = Collections.indexOfSubList(jvmArgs, LauncherJvmOptions.NO_PERIODIC_SAFEPOINTS);
        assertTrue(safepoints > 0 && safepoints < jvmArgs.indexOf("-Xmx128m"),
            "no periodic safepoints, before JAVA_OPTS: " + jvmArgs);
        final int sampling = Collections.indexOfSubList(jvmArgs, LauncherJvmOptions.RARE_HOUSEKEEPING);
        assertTrue(sampling > 0 && sampling < jvmArgs.indexOf("-Xmx128m"),
            "the JVM's housekeeping once a second, before JAVA_OPTS: " + jvmArgs);
        assertTrue(read(log).contains(BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME + "=65536"), "config printed");

        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir.toString())))
        {
            PubSubRoundTrip.check(aeron, "aeron:ipc", 2001, 200);
            PubSubRoundTrip.check(aeron, "aeron:udp?endpoint=127.0.0.1:" + MdTests.unusedPort(), 2002, 200);
        }

        ProcessHandle.of(process.pid()).orElseThrow().destroy(); // SIGTERM on Linux
        assertEquals(0, process.waitFor(), () -> "exit status after SIGTERM; output:\n" + read(log));
        assertTrue(read(log).contains(BackboneMain.CLOSED_LINE), () -> read(log));
        assertFalse(Files.exists(aeronDir), "directory deleted on shutdown");
    }

    @Test
    void aRestartedDaemonTakesOverTheDirectoryOfOneKilledWithoutWaitingForTheDriverTimeout()
        throws InterruptedException
    {
        final Path aeronDir = dir.resolve("aeron");
        final Path killedLog = dir.resolve("killed.log");
        process = start(killedLog, "--aeron-dir", aeronDir.toString());
        awaitReady(killedLog);
        process.destroyForcibly(); // SIGKILL: the CnC file stays, naming a dead process
        process.waitFor();

        final Path log = dir.resolve("restarted.log");
        final long startNs = System.nanoTime();
        process = start(log, "--aeron-dir", aeronDir.toString());
        awaitReady(log);
        final long readyMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(read(log).contains("is no longer running: taking the directory over"), () -> read(log));
        assertTrue(readyMs < BackboneConfiguration.DRIVER_TIMEOUT_MS_DEFAULT,
            () -> "ready after " + readyMs + " ms, not before the driver timeout:\n" + read(log));
    }

    private void awaitReady(final Path log)
    {
        MdTests.await(() -> "ready line from the daemon; output so far:\n" + read(log), () ->
        {
            if (!process.isAlive())
            {
                throw new AssertionError("daemon exited with " + process.exitValue() + ":\n" + read(log));
            }
            return read(log).contains(BackboneMain.READY_LINE_PREFIX);
        });
    }

    @Test
    void badConfigurationExitsWithStatusTwoAndAClearMessage() throws InterruptedException
    {
        final Path log = dir.resolve("bad.log");
        process = start(log,
            "--aeron-dir", dir.resolve("aeron").toString(),
            "--threading-mode", "INVOKER");

        assertEquals(2, process.waitFor(), () -> read(log));
        assertTrue(read(log).contains("bad configuration: mdhub.backbone.threading.mode"), () -> read(log));
        assertFalse(Files.exists(dir.resolve("aeron")), "nothing created");
    }

    @Test
    void aValueOutOfItsKeysRangeIsRefusedWithTheRange() throws InterruptedException
    {
        final Path log = dir.resolve("range.log");
        process = start(log,
            "--aeron-dir", dir.resolve("aeron").toString(),
            "-D", BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME + "=-1");

        assertEquals(2, process.waitFor(), () -> read(log));
        assertTrue(read(log).contains(
            BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME + " must be in [64k, 1g]: '-1'"), () -> read(log));
        assertFalse(Files.exists(dir.resolve("aeron")), "nothing created");
    }

    @Test
    void aMisspeltKeyIsRefusedWithTheNearestKnownOne() throws InterruptedException
    {
        final Path log = dir.resolve("misspelt.log");
        process = start(log,
            "--aeron-dir", dir.resolve("aeron").toString(),
            "-D", "mdhub.backbone.term.bufer.length=65536");

        assertEquals(2, process.waitFor(), () -> read(log));
        assertTrue(read(log).contains("unknown configuration key: mdhub.backbone.term.bufer.length (did you mean " +
            BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME + "?)"), () -> read(log));
        assertFalse(Files.exists(dir.resolve("aeron")), "nothing created");
    }

    private static List<String> commandLine(final long pid)
    {
        try
        {
            final String cmdline = Files.readString(Paths.get("/proc", Long.toString(pid), "cmdline"));
            return Arrays.asList(cmdline.split("\0"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Process startWithLauncher(final Path log, final String... args)
    {
        final Path root = Paths.get(System.getProperty("mdhub.build.dir", "target")).toAbsolutePath().getParent()
            .getParent();
        final List<String> command = new ArrayList<>(List.of("bash", root.resolve("bin/mdhub").toString(), "backbone"));
        command.addAll(Arrays.asList(args));
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("MDHUB_NO_BUILD", "1"); // the build that runs this test has just made the jar
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS", "-Xmx128m -Djava.net.preferIPv4Stack=true");
        try
        {
            return builder.start(); // the launcher execs java, so this process is the daemon's JVM
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Process start(final Path log, final String... args)
    {
        final File jar = Paths.get(System.getProperty("mdhub.build.dir", "target"), "mdhub-backbone.jar").toFile();
        assertTrue(jar.isFile(), jar + " is missing: run mvn package (or verify) first");

        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m",
            "-Dchronicle.analytics.disable=true",
            "-Djava.net.preferIPv4Stack=true",
            "-jar", jar.getAbsolutePath()));
        command.addAll(Arrays.asList(args));
        try
        {
            return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String read(final Path log)
    {
        try
        {
            return Files.exists(log) ? Files.readString(log) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
