package io.mdhub.benchmarks.system;

import static io.mdhub.common.test.SystemProcesses.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.ScriptOptions;
import io.mdhub.common.test.SystemProcesses;

/**
 * The multiplex stacking script as an operator runs it, with tiny settings: {@code bin/mdhub-multiplex.sh}
 * starts a backbone daemon, a distributor and two p2p-servers sharing that one media driver, a source and a test
 * client per p2p-server, prints where everything listens and a health summary, and stops what it started. The script
 * must end healthy (exit 0, every client opened every item and lost nothing), and afterwards none of the processes
 * it named may still run and its Aeron directory must be gone.
 */
@InterruptAfter(120)
@EnabledOnOs(OS.LINUX)
class MultiplexScriptIT
{
    private static final int ITEMS = 200;
    private static final Pattern PID = Pattern.compile("\\bpid (\\d+)");
    private static final Pattern AERON_DIR = Pattern.compile("aeron dir (\\S+)");

    @TempDir
    Path dir;

    @Test
    void twoP2pServersOnOneBackboneDaemonServeEveryItemWithoutLoss() throws Exception
    {
        final Path log = dir.resolve("multiplex.log");
        final long startNs = System.nanoTime();
        final Process script;
        // closing sends SIGTERM, so the script's trap stops its processes; anything left after 10 s is killed
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            script = processes.startScript(log, "bin/mdhub-multiplex.sh", List.of("--p2p-servers", "2",
                "--items", Integer.toString(ITEMS), "--rate", "500", "--duration", "4",
                "--run-dir", dir.resolve("run").toString()),
                ScriptOptions.DEFAULTS.with("TMPDIR", dir.toString()).with("READY_TIMEOUT", "60"));
            assertTrue(script.waitFor(100, TimeUnit.SECONDS), () -> "the script did not end:\n" + read(log));
        }
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
        final String output = read(log);
        System.out.println(output + "(script took " + seconds + " s)");

        assertEquals(0, script.exitValue(), output);
        assertTrue(output.contains("health: OK"), output);
        for (int i = 1; i <= 2; i++)
        {
            assertTrue(output.matches("(?s).*p2p-" + i + " \\(port \\d+\\): client exit 0: .*items open " + ITEMS +
                ", closed 0, lost 0, out of order 0.*"), output);
        }
        final List<Long> pids = all(PID, output);
        assertEquals(7, pids.size(), "backbone, distributor, 2 p2p-servers, source, 2 clients: " + pids);
        for (final long pid : pids)
        {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still runs");
        }
        final Matcher aeronDir = AERON_DIR.matcher(output);
        assertTrue(aeronDir.find(), output);
        assertFalse(Files.exists(Paths.get(aeronDir.group(1))), "the Aeron directory was removed");
    }

    private static List<Long> all(final Pattern pattern, final String text)
    {
        final List<Long> values = new ArrayList<>();
        final Matcher matcher = pattern.matcher(text);
        while (matcher.find())
        {
            values.add(Long.parseLong(matcher.group(1)));
        }
        return values;
    }
}
