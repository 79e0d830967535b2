package io.mdhub.benchmarks.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.management.jmx.JmxClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;
import picocli.CommandLine;

/**
 * A p2p-server from its fat jar serving MDHub's remote JMX with users, read by the console's own code as a monitor;
 * a monitor may not drop a connection, a wrong password is refused and shows in the server's exported counters; and
 * a p2p-server whose password file others may read, or with a JMX port and no password file, does not start (exit 2,
 * one line saying why).
 */
@InterruptAfter(value = 180)
class ConsoleJmxUsersSystemIT
{
    private static final String P2P_JAR = "p2p-server/target/mdhub-p2p.jar";

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void theConsoleReadsAP2pServerAsAMonitorAndItsRefusalsAreCounted() throws Exception
    {
        final Path passwords = file("jmx.password", "watcher watch-pass\noperator op-pass\n", "rw-------");
        final Path access = file("jmx.access", "watcher monitor\noperator control\n", "rw-r--r--");
        final int jmxPort = MdTests.unusedPort();
        final Path log = dir.resolve("p2p.log");
        processes.start(log, P2P_JAR, p2pOptions(jmxPort, passwords, access), "--embedded-driver",
            "--aeron-dir", dir.resolve("aeron").toString(), "--port", Integer.toString(MdTests.unusedPort()));
        SystemProcesses.awaitLine(log, "mdhub-p2p ready");
        assertTrue(SystemProcesses.read(log).contains(" jmx=" + jmxPort + " "), SystemProcesses.read(log));
        final String remote = "127.0.0.1:" + jmxPort;

        final Path watcherPassword = file("watcher.pw", "watch-pass\n", "rw-------");
        final StringWriter out = new StringWriter();
        assertEquals(0, console(out, "--remote", remote, "--user", "watcher", "--password-file",
            watcherPassword.toString()), out.toString());
        assertTrue(out.toString().startsWith("[{\"target\":\"" + remote + "\",\"role\":\"p2p\""), out.toString());

        final Path wrongPassword = file("wrong.pw", "guess\n", "rw-------");
        final StringWriter refused = new StringWriter();
        assertEquals(1, console(refused, "--remote", remote, "--user", "watcher", "--password-file",
            wrongPassword.toString()), refused.toString());
        assertTrue(refused.toString().contains("authentication failed"), refused.toString());

        final ObjectName p2p = new ObjectName("io.mdhub:type=P2pServer,name=mdhub-p2p");
        try (JMXConnector monitor = JmxClient.connect(remote, "watcher", "watch-pass", false))
        {
            final MBeanServerConnection connection = monitor.getMBeanServerConnection();
            assertEquals(0, connection.getAttribute(p2p, "ConnectionCount"));
            assertThrows(SecurityException.class, () -> connection.invoke(p2p, "dropConnection",
                new Object[] {1L}, new String[] {long.class.getName()}));
            // the console's two readings each tried to log in
            MdTests.await(() -> "the failed logins and the refused request in the exported counters: " +
                counters(connection), () -> counters(connection).contains("jmx-logins-failed=2") &&
                counters(connection).contains("jmx-access-denied=1"));
        }
        try (JMXConnector control = JmxClient.connect(remote, "operator", "op-pass", false))
        {
            assertEquals(Boolean.FALSE, control.getMBeanServerConnection().invoke(p2p, "dropConnection",
                new Object[] {1L}, new String[] {long.class.getName()}));
        }
        assertTrue(SystemProcesses.read(log).contains("JMX login refused: user=watcher from=127.0.0.1"),
            SystemProcesses.read(log));
    }

    @Test
    void unsafeSettingsStopTheServerAtStart() throws Exception
    {
        final Path open = file("open.password", "watcher watch-pass\n", "rw-r--r--");
        final String openLog = startFailing("open", p2pOptions(MdTests.unusedPort(), open, null));
        assertTrue(openLog.contains("mdhub-p2p: bad configuration: mdhub.jmx.password.file " + open +
            " may be read or written by group or others (rw-r--r--)"), openLog);

        final List<String> noPasswords = new ArrayList<>(p2pOptions(MdTests.unusedPort(), null, null));
        final String noPasswordLog = startFailing("no-password", noPasswords);
        assertTrue(noPasswordLog.contains("mdhub-p2p: bad configuration: mdhub.jmx.port=") &&
            noPasswordLog.contains("needs mdhub.jmx.password.file"), noPasswordLog);
    }

    private String startFailing(final String name, final List<String> options) throws Exception
    {
        final Path log = dir.resolve(name + ".log");
        final Process process = processes.start(log, P2P_JAR, options, "--embedded-driver",
            "--aeron-dir", dir.resolve("aeron-" + name).toString(), "--port", Integer.toString(MdTests.unusedPort()));
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the p2p-server to refuse to start");
        assertEquals(2, process.exitValue(), SystemProcesses.read(log));
        assertTrue(!SystemProcesses.read(log).contains("mdhub-p2p ready"), SystemProcesses.read(log));
        return SystemProcesses.read(log);
    }

    private static List<String> p2pOptions(final int jmxPort, final Path passwords, final Path access)
    {
        final List<String> options = new ArrayList<>(List.of("-Dmdhub.p2p.http.port=-1",
            "-Dmdhub.jmx.port=" + jmxPort, "-Dmdhub.jmx.host=127.0.0.1"));
        if (null != passwords)
        {
            options.add("-Dmdhub.jmx.password.file=" + passwords);
        }
        if (null != access)
        {
            options.add("-Dmdhub.jmx.access.file=" + access);
        }
        return options;
    }

    private static int console(final StringWriter out, final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("--once", "--no-local", "--format", "json",
            "--interval-ms", "200"));
        all.addAll(List.of(args));
        return new CommandLine(new ConsoleMain()).setOut(new PrintWriter(out)).execute(all.toArray(new String[0]));
    }

    private static String counters(final MBeanServerConnection connection)
    {
        try
        {
            final StringBuilder values = new StringBuilder();
            for (final CompositeData counter : (CompositeData[])connection.getAttribute(
                new ObjectName("io.mdhub:type=Counters,name=mdhub-p2p-jmx"), "Counters"))
            {
                final String label = (String)counter.get("label");
                values.append(label, 0, label.indexOf(':')).append('=').append(counter.get("value")).append(' ');
            }
            return values.toString();
        }
        catch (final IOException | javax.management.JMException ex)
        {
            return ex.toString();
        }
    }

    private Path file(final String name, final String content, final String permissions) throws IOException
    {
        final Path file = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }
}
