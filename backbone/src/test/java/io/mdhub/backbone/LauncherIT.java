package io.mdhub.backbone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@code bin/mdhub} the way operators do. MDHUB_NO_BUILD keeps it from starting a nested Maven build inside
 * this one: the reactor has just packaged the jar.
 */
@InterruptAfter(60)
class LauncherIT
{
    private static final Path ROOT =
        Paths.get(System.getProperty("mdhub.build.dir", "target")).toAbsolutePath().getParent().getParent();

    @Test
    void helpListsEveryCommand() throws InterruptedException
    {
        final Result result = run("help");
        assertEquals(0, result.status, result.output);
        for (final String command : List.of(
            "backbone", "version", "help", "demo", "distributor", "p2p", "source", "client", "orders-load",
            "verify-orders", "usage-report", "probe", "bench", "console"))
        {
            assertTrue(result.output.contains("\n  " + command + " "), () -> command + " missing:\n" + result.output);
        }
    }

    @Test
    void anUnknownCommandExitsWithStatusTwo() throws InterruptedException
    {
        final Result unknown = run("frobnicate");
        assertEquals(2, unknown.status, unknown.output);
        assertTrue(unknown.output.contains("unknown command 'frobnicate'"), unknown.output);
    }

    @Test
    void versionAndBackboneVersionReportTheProjectVersion() throws InterruptedException
    {
        final Result version = run("version");
        assertEquals(0, version.status, version.output);
        assertTrue(version.output.startsWith("MDHub 0."), version.output);
        assertTrue(version.output.contains("backbone/target/mdhub-backbone.jar"), version.output);

        final Result backbone = run("backbone", "--version");
        assertEquals(0, backbone.status, backbone.output);
        assertTrue(backbone.output.contains("mdhub-backbone 0."), backbone.output);
        assertTrue(backbone.output.contains("Aeron "), backbone.output);
    }

    private static Result run(final String... args) throws InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("bin/mdhub").toString()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MDHUB_NO_BUILD", "1");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        final Process process;
        try
        {
            process = builder.start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        try
        {
            // Output is small, so reading it to the end before waiting cannot dead-lock on a full pipe.
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(process.waitFor(), output);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static final class Result
    {
        final int status;
        final String output;

        Result(final int status, final String output)
        {
            this.status = status;
            this.output = output;
        }
    }
}
