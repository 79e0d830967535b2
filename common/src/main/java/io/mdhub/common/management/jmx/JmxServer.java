package io.mdhub.common.management.jmx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.rmi.AlreadyBoundException;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;

import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.rmi.ssl.SslRMIClientSocketFactory;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.metrics.CountersExport;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.common.status.MdCounters;

/**
 * A server's remote JMX connector over the platform MBean server (every MDHub bean and the JVM's own): the JDK's RMI
 * connector with its registry and its connection objects on one port ({@code mdhub.jmx.port}) bound to one address
 * ({@code mdhub.jmx.host}, loopback by default), so a single firewall rule serves it; logins checked by a
 * {@link JmxLoginGuard}, requests by a {@link JmxAccessController}; TLS on the registry and the connections when
 * asked. Off unless a port is set; a port without a password file is refused unless {@code mdhub.jmx.authenticate}
 * is explicitly false. Its counters are exported as {@code <component>-jmx}.
 * <p>
 * RMI's threads sleep in {@code accept} and socket reads: nothing runs while nobody is connected. RMI's distributed
 * GC would otherwise ask for a full {@code System.gc()} every hour on a server with remote objects; unless
 * {@code sun.rmi.dgc.server.gcInterval} is set, it is set to never here.
 */
public final class JmxServer implements AutoCloseable
{
    /** The name the connector is bound under in its registry, as the JDK's agent does. */
    public static final String REGISTRY_NAME = "jmxrmi";
    private static final Logger LOG = LoggerFactory.getLogger(JmxServer.class);
    private static final int COUNTERS = 8;
    private static final int BACKLOG = 50;

    private final Context ctx;
    private final CountersManager countersManager;
    private final JmxCounters counters;
    private final JmxLoginGuard guard;
    private final JmxAccessController accessController;
    private Registry registry;
    private JMXConnectorServer connector;
    private CountersExport export;

    private JmxServer(final Context ctx, final JmxUsers users)
    {
        this.ctx = ctx;
        countersManager = new InMemoryCounters(COUNTERS).manager();
        counters = new JmxCounters(countersManager, ctx.component);
        guard = null == users ? null : new JmxLoginGuard(ctx.component, users, counters, ctx.loginFailuresPerMinute);
        accessController = new JmxAccessController(ctx.component, users, counters);
    }

    /**
     * Serve remote JMX as the {@code mdhub.jmx.*} keys say.
     *
     * @param component the server's name, in log lines and the counters' labels.
     * @return the running connector, or null when {@code mdhub.jmx.port} is 0.
     * @throws IllegalArgumentException on a bad or unsafe configuration, or a port that cannot be listened on.
     */
    public static JmxServer launch(final String component)
    {
        return launch(Context.fromConfiguration(component));
    }

    /**
     * @param ctx where and how to serve.
     * @return the running connector, or null when its port is 0.
     * @throws IllegalArgumentException on a bad or unsafe configuration, or a port that cannot be listened on.
     */
    public static JmxServer launch(final Context ctx)
    {
        if (0 == ctx.port)
        {
            return null;
        }
        final JmxUsers users;
        if (ctx.authenticate)
        {
            if (ctx.passwordFile.isEmpty())
            {
                throw new IllegalArgumentException(JmxConfiguration.PORT_PROP_NAME + "=" + ctx.port + " needs " +
                    JmxConfiguration.PASSWORD_FILE_PROP_NAME + " (remote JMX without logins is refused; " +
                    JmxConfiguration.AUTHENTICATE_PROP_NAME + "=false allows it, for a loopback-only lab)");
            }
            users = JmxUsers.load(Path.of(ctx.passwordFile), ctx.accessFile.isEmpty() ? null : Path.of(ctx.accessFile));
        }
        else
        {
            users = null;
        }
        final JmxServer server = new JmxServer(ctx, users);
        try
        {
            server.start(users);
            return server;
        }
        catch (final RuntimeException ex)
        {
            server.close();
            throw ex;
        }
    }

    private void start(final JmxUsers users)
    {
        final InetAddress address = address(ctx.host);
        final SSLContext ssl = ctx.ssl ? sslContext(ctx) : null;
        final RMIServerSocketFactory serverSockets = new ServerSockets(address, ssl, ctx.sslNeedClientAuth);
        final SslRMIClientSocketFactory clientSockets = ctx.ssl ? new SslRMIClientSocketFactory() : null;
        if (null == System.getProperty("java.rmi.server.hostname") && !address.isAnyLocalAddress())
        {
            // the stubs clients get name this address: the host's own name may not be bound at all
            System.setProperty("java.rmi.server.hostname", address.getHostAddress());
        }
        if (null == System.getProperty("sun.rmi.dgc.server.gcInterval"))
        {
            System.setProperty("sun.rmi.dgc.server.gcInterval", Long.toString(Long.MAX_VALUE - 1));
        }
        final Map<String, Object> env = new HashMap<>();
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, serverSockets);
        if (null != clientSockets)
        {
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, clientSockets);
        }
        if (null != guard)
        {
            env.put(JMXConnectorServer.AUTHENTICATOR, guard);
        }
        // a login's credentials are two strings and nothing else is deserialised from them
        env.put(RMIConnectorServer.CREDENTIALS_FILTER_PATTERN, "java.lang.String;!*");
        env.put("jmx.remote.x.daemon", "true");
        try
        {
            registry = LocateRegistry.createRegistry(ctx.port, clientSockets, serverSockets);
            final RMIJRMPServerImpl rmiServer = new RMIJRMPServerImpl(ctx.port, clientSockets, serverSockets, env);
            connector = new RMIConnectorServer(new JMXServiceURL("rmi", null, ctx.port), env, rmiServer,
                MBeans.server());
            connector.setMBeanServerForwarder(accessController.forwarder());
            connector.start();
            registry.bind(REGISTRY_NAME, rmiServer.toStub());
        }
        catch (final IOException | AlreadyBoundException ex)
        {
            throw new IllegalArgumentException(JmxConfiguration.PORT_PROP_NAME + " " + ctx.port + " on " +
                ctx.host + " cannot be served: " + ex.getMessage(), ex);
        }
        export = CountersExport.start(countersManager, ctx.component + "-jmx", MdCounters::isMonotonic);
        if (null == users)
        {
            LOG.warn("{}: remote JMX on {}:{} WITHOUT logins ({}=false): whoever reaches the port controls the " +
                "process; only for a loopback-only lab", ctx.component, ctx.host, port(),
                JmxConfiguration.AUTHENTICATE_PROP_NAME);
        }
        else
        {
            LOG.info("{}: remote JMX on {}:{}{} for {} users", ctx.component, ctx.host, port(),
                ctx.ssl ? (ctx.sslNeedClientAuth ? " (TLS, client certificates)" : " (TLS)") : " (no TLS)",
                users.size());
        }
    }

    /**
     * @return the port served.
     */
    public int port()
    {
        return ctx.port;
    }

    /**
     * @return the connector's counters (logins accepted, failed, throttled; requests refused).
     */
    public CountersReader countersReader()
    {
        return countersManager;
    }

    /**
     * @return {@code jmx=<port>}, for a ready line.
     */
    @Override
    public String toString()
    {
        return "jmx=" + port();
    }

    /**
     * @param server a connector, or null.
     * @return {@code jmx=<port>} or {@code jmx=none}.
     */
    public static String describe(final JmxServer server)
    {
        return null == server ? "jmx=none" : server.toString();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(
            () ->
            {
                if (null != connector)
                {
                    connector.stop();
                }
            },
            () ->
            {
                if (null != registry)
                {
                    unexport(registry);
                }
            },
            export,
            () ->
            {
                if (null != guard)
                {
                    guard.flush();
                }
                accessController.flush();
            });
    }

    private static void unexport(final Registry registry)
    {
        try
        {
            UnicastRemoteObject.unexportObject(registry, true);
        }
        catch (final NoSuchObjectException ignore)
        {
            // never exported: nothing to take back
        }
    }

    private static InetAddress address(final String host)
    {
        try
        {
            return InetAddress.getByName(host);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(JmxConfiguration.HOST_PROP_NAME + " is no address: " + host, ex);
        }
    }

    private static SSLContext sslContext(final Context ctx)
    {
        try
        {
            if (ctx.sslKeyStore.isEmpty() && ctx.sslTrustStore.isEmpty())
            {
                return SSLContext.getDefault(); // the javax.net.ssl.* properties
            }
            KeyManagerFactory keys = null;
            if (!ctx.sslKeyStore.isEmpty())
            {
                final char[] password = secret(ctx.sslKeyStorePasswordFile,
                    JmxConfiguration.SSL_KEYSTORE_PASSWORD_FILE_PROP_NAME);
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(KeyStore.getInstance(Path.of(ctx.sslKeyStore).toFile(), password), password);
            }
            TrustManagerFactory trust = null;
            if (!ctx.sslTrustStore.isEmpty())
            {
                final char[] password = secret(ctx.sslTrustStorePasswordFile,
                    JmxConfiguration.SSL_TRUSTSTORE_PASSWORD_FILE_PROP_NAME);
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(KeyStore.getInstance(Path.of(ctx.sslTrustStore).toFile(), password));
            }
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null == keys ? null : keys.getKeyManagers(), null == trust ? null : trust.getTrustManagers(),
                null);
            return context;
        }
        catch (final GeneralSecurityException | IOException ex)
        {
            throw new IllegalArgumentException("JMX TLS cannot be set up from " +
                JmxConfiguration.SSL_KEYSTORE_PROP_NAME + "/" + JmxConfiguration.SSL_TRUSTSTORE_PROP_NAME + ": " +
                ex.getMessage(), ex);
        }
    }

    private static char[] secret(final String file, final String keyName)
    {
        if (file.isEmpty())
        {
            throw new IllegalArgumentException(keyName + " must name the file holding the store's password");
        }
        return JmxUsers.readSecret(Path.of(file), keyName).toCharArray();
    }

    /**
     * Listening sockets on one address, TLS or not. One instance serves the registry and the connector, so RMI
     * shares their port.
     */
    private static final class ServerSockets implements RMIServerSocketFactory
    {
        private final InetAddress address;
        private final SSLContext ssl;
        private final boolean isNeedClientAuth;

        ServerSockets(final InetAddress address, final SSLContext ssl, final boolean isNeedClientAuth)
        {
            this.address = address;
            this.ssl = ssl;
            this.isNeedClientAuth = isNeedClientAuth;
        }

        @Override
        public ServerSocket createServerSocket(final int port) throws IOException
        {
            if (null == ssl)
            {
                return new ServerSocket(port, BACKLOG, address);
            }
            final SSLServerSocket socket =
                (SSLServerSocket)ssl.getServerSocketFactory().createServerSocket(port, BACKLOG, address);
            socket.setNeedClientAuth(isNeedClientAuth);
            return socket;
        }
    }

    /**
     * Where and how to serve; {@link #fromConfiguration} reads the {@code mdhub.jmx.*} keys.
     */
    public static final class Context
    {
        private String component = "mdhub";
        private int port = JmxConfiguration.PORT_DEFAULT;
        private String host = JmxConfiguration.HOST_DEFAULT;
        private boolean authenticate = JmxConfiguration.AUTHENTICATE_DEFAULT;
        private String passwordFile = "";
        private String accessFile = "";
        private boolean ssl = JmxConfiguration.SSL_DEFAULT;
        private boolean sslNeedClientAuth = JmxConfiguration.SSL_NEED_CLIENT_AUTH_DEFAULT;
        private String sslKeyStore = "";
        private String sslKeyStorePasswordFile = "";
        private String sslTrustStore = "";
        private String sslTrustStorePasswordFile = "";
        private int loginFailuresPerMinute = JmxConfiguration.LOGIN_FAILURES_PER_MINUTE_DEFAULT;

        /**
         * @param component the server's name.
         * @return a context with every {@code mdhub.jmx.*} key's value.
         */
        public static Context fromConfiguration(final String component)
        {
            final Context ctx = new Context();
            ctx.component = component;
            ctx.port = JmxConfiguration.port();
            ctx.host = JmxConfiguration.host();
            ctx.authenticate = JmxConfiguration.authenticate();
            ctx.passwordFile = JmxConfiguration.passwordFile();
            ctx.accessFile = JmxConfiguration.accessFile();
            ctx.ssl = JmxConfiguration.ssl();
            ctx.sslNeedClientAuth = JmxConfiguration.sslNeedClientAuth();
            ctx.sslKeyStore = JmxConfiguration.sslKeyStore();
            ctx.sslKeyStorePasswordFile = JmxConfiguration.sslKeyStorePasswordFile();
            ctx.sslTrustStore = JmxConfiguration.sslTrustStore();
            ctx.sslTrustStorePasswordFile = JmxConfiguration.sslTrustStorePasswordFile();
            ctx.loginFailuresPerMinute = JmxConfiguration.loginFailuresPerMinute();
            return ctx;
        }

        /**
         * @param component the server's name, in log lines and counter labels.
         * @return this.
         */
        public Context component(final String component)
        {
            this.component = component;
            return this;
        }

        /**
         * @param port the port, 0 for no remote JMX.
         * @return this.
         */
        public Context port(final int port)
        {
            if (port < 0 || port > 65_535)
            {
                throw new IllegalArgumentException(JmxConfiguration.PORT_PROP_NAME + " must be 0 (off) or a port: " +
                    port);
            }
            this.port = port;
            return this;
        }

        /**
         * @param host the address to listen on.
         * @return this.
         */
        public Context host(final String host)
        {
            this.host = host;
            return this;
        }

        /**
         * @param passwordFile the users' password file.
         * @param accessFile   their access file, empty for every user a monitor.
         * @return this.
         */
        public Context users(final String passwordFile, final String accessFile)
        {
            this.passwordFile = passwordFile;
            this.accessFile = accessFile;
            return this;
        }

        /**
         * @param authenticate false for remote JMX without logins.
         * @return this.
         */
        public Context authenticate(final boolean authenticate)
        {
            this.authenticate = authenticate;
            return this;
        }

        /**
         * @param ssl               TLS on.
         * @param isNeedClientAuth  require client certificates.
         * @return this.
         */
        public Context ssl(final boolean ssl, final boolean isNeedClientAuth)
        {
            this.ssl = ssl;
            this.sslNeedClientAuth = isNeedClientAuth;
            return this;
        }

        /**
         * @param keyStore         the key store, empty for the JVM's.
         * @param passwordFile     its password's file.
         * @return this.
         */
        public Context sslKeyStore(final String keyStore, final String passwordFile)
        {
            this.sslKeyStore = keyStore;
            this.sslKeyStorePasswordFile = passwordFile;
            return this;
        }

        /**
         * @param trustStore       the trust store, empty for the JVM's.
         * @param passwordFile     its password's file.
         * @return this.
         */
        public Context sslTrustStore(final String trustStore, final String passwordFile)
        {
            this.sslTrustStore = trustStore;
            this.sslTrustStorePasswordFile = passwordFile;
            return this;
        }

        /**
         * @param perMinute failed logins one address may make a minute.
         * @return this.
         */
        public Context loginFailuresPerMinute(final int perMinute)
        {
            if (perMinute < 1)
            {
                throw new IllegalArgumentException(JmxConfiguration.LOGIN_FAILURES_PER_MINUTE_PROP_NAME +
                    " must be at least 1: " + perMinute);
            }
            this.loginFailuresPerMinute = perMinute;
            return this;
        }
    }
}
