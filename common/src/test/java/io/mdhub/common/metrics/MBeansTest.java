package io.mdhub.common.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.server.RMIServerSocketFactory;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(20)
public class MBeansTest
{
    /**
     * Stats and operations of a test component.
     */
    public interface SessionStatsMXBean
    {
        long getMessagesIn();

        long addMessages(long count);

        void reset();
    }

    static final class SessionStats implements SessionStatsMXBean
    {
        private final AtomicLong messagesIn = new AtomicLong();

        public long getMessagesIn()
        {
            return messagesIn.get();
        }

        public long addMessages(final long count)
        {
            return messagesIn.addAndGet(count);
        }

        public void reset()
        {
            messagesIn.set(0);
        }
    }

    @Test
    void registersUnderMdhubDomainWithTypeFromInterface() throws Exception
    {
        final ObjectName name = MBeans.register("session-1", new SessionStats());
        try
        {
            assertEquals(new ObjectName("io.mdhub:type=SessionStats,name=session-1"), name);
            assertEquals(0L, MBeans.server().getAttribute(name, "MessagesIn"));

            final Object result = MBeans.server().invoke(
                name, "addMessages", new Object[] {5L}, new String[] {long.class.getName()});
            assertEquals(5L, result);
            assertEquals(5L, MBeans.server().getAttribute(name, "MessagesIn"));

            MBeans.server().invoke(name, "reset", new Object[0], new String[0]);
            assertEquals(0L, MBeans.server().getAttribute(name, "MessagesIn"));

            assertThrows(IllegalStateException.class, () -> MBeans.register("session-1", new SessionStats()));
        }
        finally
        {
            MBeans.unregister(name);
        }
        assertFalse(MBeans.server().isRegistered(name));
        MBeans.unregister(name); // idempotent
    }

    @Test
    void quotesNamesWithSpecialCharacters() throws Exception
    {
        final ObjectName name = MBeans.register("Session", "127.0.0.1:4000,a=b", new SessionStats());
        try
        {
            assertTrue(MBeans.server().isRegistered(name));
            assertEquals("127.0.0.1:4000,a=b", ObjectName.unquote(name.getKeyProperty("name")));
        }
        finally
        {
            MBeans.unregister(name);
        }
    }

    @Test
    void rejectsObjectsWithoutMxBeanInterface()
    {
        assertThrows(IllegalArgumentException.class, () -> MBeans.register("x", new Object()));
        assertThrows(IllegalArgumentException.class, () -> MBeans.register("Thing", "x", new Object()));
        assertThrows(IllegalArgumentException.class, () -> MBeans.objectName("Thing", ""));
    }

    @Test
    void operationsWorkOverLoopbackJmxConnector() throws Exception
    {
        // The connector's stub must name the loopback address, not whatever the host name resolves to.
        final String previousHostname = System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        final RMIServerSocketFactory loopbackOnly = new LoopbackServerSocketFactory();
        final JMXConnectorServer connectorServer = JMXConnectorServerFactory.newJMXConnectorServer(
            new JMXServiceURL("service:jmx:rmi://127.0.0.1"),
            Map.of(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, loopbackOnly),
            MBeans.server());
        final ObjectName name = MBeans.register("remote", new SessionStats());
        try
        {
            connectorServer.start();
            try (JMXConnector connector = JMXConnectorFactory.connect(connectorServer.getAddress()))
            {
                final MBeanServerConnection connection = connector.getMBeanServerConnection();
                connection.invoke(name, "addMessages", new Object[] {3L}, new String[] {long.class.getName()});
                assertEquals(3L, connection.getAttribute(name, "MessagesIn"));
            }
        }
        finally
        {
            MBeans.unregister(name);
            connectorServer.stop();
            if (null == previousHostname)
            {
                System.clearProperty("java.rmi.server.hostname");
            }
            else
            {
                System.setProperty("java.rmi.server.hostname", previousHostname);
            }
        }
    }

    private static final class LoopbackServerSocketFactory implements RMIServerSocketFactory
    {
        public ServerSocket createServerSocket(final int port) throws IOException
        {
            return new ServerSocket(port, 0, InetAddress.getLoopbackAddress());
        }
    }
}
