package io.mdhub.common.management.jmx;

import java.io.IOException;
import java.net.MalformedURLException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * How a client (the console, a test) reaches a {@link JmxServer}, or any JVM's standard remote JMX agent: the
 * registry's URL, the user's credentials and, with TLS, a TLS registry lookup and a check that the connector's stub
 * speaks TLS too (so a stub substituted in the registry cannot lead the client to a plain socket). The JVM's
 * {@code javax.net.ssl.*} properties give the trust store (and, for client certificates, the key store).
 */
public final class JmxClient
{
    private JmxClient()
    {
    }

    /**
     * @param hostAndPort {@code host:port} of the registry.
     * @return its JMX service URL.
     * @throws IllegalArgumentException when it is not {@code host:port}.
     */
    public static JMXServiceURL serviceUrl(final String hostAndPort)
    {
        final int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostAndPort.length() - 1)
        {
            throw new IllegalArgumentException("a remote process is host:port, not " + hostAndPort);
        }
        try
        {
            return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hostAndPort + "/" + JmxServer.REGISTRY_NAME);
        }
        catch (final MalformedURLException ex)
        {
            throw new IllegalArgumentException("a remote process is host:port, not " + hostAndPort, ex);
        }
    }

    /**
     * @param passwordFile a file holding a password on its first line, readable by its owner only.
     * @return the password.
     * @throws IllegalArgumentException when the file is missing, empty or others may read it.
     */
    public static String password(final Path passwordFile)
    {
        return JmxUsers.readSecret(passwordFile, "the password file");
    }

    /**
     * @param user     the user, or null to log in as nobody (a server without logins).
     * @param password the password (with a user).
     * @param isTls    TLS on the registry and the connection.
     * @return the connector's environment.
     */
    public static Map<String, Object> environment(final String user, final String password, final boolean isTls)
    {
        final Map<String, Object> env = new HashMap<>();
        if (null != user)
        {
            env.put(JMXConnector.CREDENTIALS, new String[] {user, password});
        }
        if (isTls)
        {
            env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
            env.put("jmx.remote.x.check.stub", "true");
        }
        return env;
    }

    /**
     * @param hostAndPort {@code host:port} of the registry.
     * @param user        the user, or null.
     * @param password    the password.
     * @param isTls       TLS.
     * @return the open connector.
     * @throws IOException       when the server cannot be reached.
     * @throws SecurityException when the login is refused.
     */
    public static JMXConnector connect(
        final String hostAndPort, final String user, final String password, final boolean isTls) throws IOException
    {
        return JMXConnectorFactory.connect(serviceUrl(hostAndPort), environment(user, password, isTls));
    }
}
