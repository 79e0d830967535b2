package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.management.jmx.JmxClient;
import io.mdhub.common.management.jmx.JmxServer;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * A live p2p-server's MXBean behind MDHub's remote JMX in this JVM, reached over the loopback RMI connector as a real
 * console would: a monitor reads its attributes but may not run its connection-drop operation, a control user runs
 * it, nobody creates MBeans, and wrong passwords are refused, counted and, past the allowance, throttled.
 */
@InterruptAfter(60)
class P2pJmxAccessTest
{
    private static final String DROP = "dropConnection";
    private static final String[] LONG_SIGNATURE = {long.class.getName()};

    @TempDir
    Path dir;

    private final StubMarketDataSource source = new StubMarketDataSource().service(1, "DIRECT_FEED");
    private P2pServer server;
    private JmxServer jmx;
    private String address;
    private ObjectName p2pName;

    @BeforeEach
    void start() throws IOException
    {
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-jmx-test")
            .itemSourceFactory(source));
        p2pName = MBeans.objectName("P2pServer", "p2p-jmx-test");
        final Path passwords = secretFile("jmx.password", "# users\nwatcher  s3cret-watch\noperator op-pass\n");
        final Path access = Files.writeString(dir.resolve("jmx.access"), "watcher monitor\noperator control\n");
        final int port = MdTests.unusedPort();
        jmx = JmxServer.launch(new JmxServer.Context().component("p2p-jmx-test").port(port).host("127.0.0.1")
            .users(passwords.toString(), access.toString()).loginFailuresPerMinute(3));
        address = "127.0.0.1:" + port;
    }

    @AfterEach
    void stop()
    {
        if (null != jmx)
        {
            jmx.close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    @Test
    void aMonitorReadsButMayNotActAndAControlUserActs() throws Exception
    {
        try (JMXConnector monitor = JmxClient.connect(address, "watcher", "s3cret-watch", false))
        {
            final MBeanServerConnection connection = monitor.getMBeanServerConnection();
            assertEquals(0, connection.getAttribute(p2pName, "ConnectionCount"));
            assertTrue(connection.queryNames(new ObjectName("io.mdhub:type=P2pServer,*"), null).contains(p2pName));
            final SecurityException refused = assertThrows(SecurityException.class,
                () -> connection.invoke(p2pName, DROP, new Object[] {7L}, LONG_SIGNATURE));
            assertTrue(refused.getMessage().contains("control role"), refused.getMessage());
        }
        try (JMXConnector control = JmxClient.connect(address, "operator", "op-pass", false))
        {
            final MBeanServerConnection connection = control.getMBeanServerConnection();
            // the operation ran: no connection 7 to drop
            assertEquals(Boolean.FALSE, connection.invoke(p2pName, DROP, new Object[] {7L}, LONG_SIGNATURE));
            assertThrows(SecurityException.class, () -> connection.createMBean("javax.management.timer.Timer",
                new ObjectName("io.mdhub:type=Timer,name=remote")));
            assertFalse(connection.isRegistered(new ObjectName("io.mdhub:type=Timer,name=remote")));
        }
        assertEquals(2, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_ACCEPTED_TYPE_ID));
        assertEquals(2, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_ACCESS_DENIED_TYPE_ID));
        assertEquals(0, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_FAILED_TYPE_ID));
    }

    @Test
    void wrongPasswordsAreRefusedCountedAndThrottled() throws Exception
    {
        for (final String[] wrong : new String[][] {{"watcher", "guess"}, {"nobody", "s3cret-watch"},
            {"operator", "s3cret-watch"}})
        {
            final SecurityException refused = assertThrows(SecurityException.class,
                () -> JmxClient.connect(address, wrong[0], wrong[1], false).close());
            assertEquals("authentication failed", refused.getMessage());
        }
        assertEquals(3, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_FAILED_TYPE_ID));
        assertThrows(SecurityException.class, () -> JmxClient.connect(address, null, null, false).close(),
            "a login without credentials");
        assertEquals(4, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_FAILED_TYPE_ID));
        // the allowance of 3 a minute is spent: even the right password is not looked at now
        final SecurityException throttled = assertThrows(SecurityException.class,
            () -> JmxClient.connect(address, "watcher", "s3cret-watch", false).close());
        assertTrue(throttled.getMessage().contains("too many failed logins"), throttled.getMessage());
        assertEquals(1, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_THROTTLED_TYPE_ID));
        assertEquals(0, MdCounters.sum(jmx.countersReader(), MdCounters.JMX_LOGINS_ACCEPTED_TYPE_ID));
    }

    private Path secretFile(final String name, final String content) throws IOException
    {
        final Path file = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
