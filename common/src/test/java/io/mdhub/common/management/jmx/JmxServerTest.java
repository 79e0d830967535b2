package io.mdhub.common.management.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * What MDHub's remote JMX refuses to start with, how it reads its users' files, and a lab connector without logins.
 */
@InterruptAfter(30)
class JmxServerTest
{
    @TempDir
    Path dir;

    @Test
    void offByDefault()
    {
        assertNull(JmxServer.launch(new JmxServer.Context()));
    }

    @Test
    void aPortWithoutAPasswordFileIsRefused()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> JmxServer.launch(new JmxServer.Context().port(MdTests.unusedPort())));
        assertTrue(refused.getMessage().contains(JmxConfiguration.PASSWORD_FILE_PROP_NAME) &&
            refused.getMessage().contains(JmxConfiguration.AUTHENTICATE_PROP_NAME + "=false"), refused.getMessage());
    }

    @Test
    void aPasswordFileOthersMayReadIsRefused() throws IOException
    {
        for (final String permissions : new String[] {"rw-r-----", "rw----r--", "rw--w----"})
        {
            final Path passwords = file("jmx.password", "watcher secret\n", permissions);
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> JmxServer.launch(new JmxServer.Context().port(MdTests.unusedPort())
                    .users(passwords.toString(), "")));
            assertTrue(refused.getMessage().contains("group or others (" + permissions + ")") &&
                refused.getMessage().contains("chmod 600"), refused.getMessage());
        }
        final Path owners = file("jmx.password", "watcher secret\n", "r--------");
        assertEquals(JmxRole.MONITOR, JmxUsers.load(owners, null).roleOf("watcher"));
    }

    @Test
    void theFilesAreReadInTheJdksFormats() throws IOException
    {
        final Path passwords = file("jmx.password", "# comment\n\nwatcher  pass word\noperator op\nold x\n",
            "rw-------");
        final Path access = file("jmx.access", "watcher readonly\noperator readwrite\n# old has no role\n",
            "rw-r--r--");
        final JmxUsers users = JmxUsers.load(passwords, access);
        assertTrue(users.verify("watcher", "pass word"));
        assertTrue(!users.verify("watcher", "pass") && !users.verify("nobody", "pass word"));
        assertEquals(JmxRole.MONITOR, users.roleOf("watcher"));
        assertEquals(JmxRole.CONTROL, users.roleOf("operator"));
        assertNull(users.roleOf("old"));
        assertEquals(2, users.size());

        final Path create = file("create.access", "operator readwrite create javax.management.timer.*\n",
            "rw-r--r--");
        assertThrows(IllegalArgumentException.class, () -> JmxUsers.load(passwords, create));
        final Path unknown = file("unknown.access", "operator admin\n", "rw-r--r--");
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> JmxUsers.load(passwords, unknown));
        assertTrue(refused.getMessage().contains("monitor and control"), refused.getMessage());
        final Path noPassword = file("bad.password", "watcher\n", "rw-------");
        final IllegalArgumentException malformed =
            assertThrows(IllegalArgumentException.class, () -> JmxUsers.load(noPassword, null));
        assertTrue(malformed.getMessage().contains("line 1 is not NAME PASSWORD"), malformed.getMessage());
    }

    @Test
    void aLabConnectorWithoutLoginsReadsAndActsButCreatesNothing() throws Exception
    {
        final int port = MdTests.unusedPort();
        try (JmxServer server = JmxServer.launch(new JmxServer.Context().component("jmx-lab").port(port)
            .authenticate(false));
            JMXConnector client = JmxClient.connect("127.0.0.1:" + port, null, null, false))
        {
            assertEquals("jmx=" + port, JmxServer.describe(server));
            final MBeanServerConnection connection = client.getMBeanServerConnection();
            final ObjectName runtime = new ObjectName("java.lang:type=Runtime");
            assertEquals(ProcessHandle.current().pid(), connection.getAttribute(runtime, "Pid"));
            connection.invoke(new ObjectName("java.lang:type=Memory"), "gc", null, null);
            assertThrows(SecurityException.class, () -> connection.createMBean("javax.management.timer.Timer",
                new ObjectName("io.mdhub:type=Timer,name=lab")));
            assertEquals(1, MdCounters.sum(server.countersReader(), MdCounters.JMX_ACCESS_DENIED_TYPE_ID));
        }
    }

    private Path file(final String name, final String content, final String permissions) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }
}
