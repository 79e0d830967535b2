package io.mdhub.common.management.jmx;

import io.mdhub.common.config.ConfigValues;

/**
 * Settings of a server's remote JMX connector, shared by every server process (backbone daemon, distributor,
 * p2p-server and order server). The only place that reads them from system properties.
 */
public final class JmxConfiguration
{
    /** The connector's port, for its RMI registry and its connections alike: 0 = no remote JMX. */
    public static final String PORT_PROP_NAME = "mdhub.jmx.port";
    /** Default of {@link #PORT_PROP_NAME}: off. */
    public static final int PORT_DEFAULT = 0;
    /** The address the connector listens on. */
    public static final String HOST_PROP_NAME = "mdhub.jmx.host";
    /** Default of {@link #HOST_PROP_NAME}: loopback, so nothing is exposed by accident. */
    public static final String HOST_DEFAULT = "127.0.0.1";
    /** Users and their passwords, one {@code NAME PASSWORD} a line (the JDK's jmxremote.password format). */
    public static final String PASSWORD_FILE_PROP_NAME = "mdhub.jmx.password.file";
    /** Users and their roles, one {@code NAME monitor|control} a line (the JDK's jmxremote.access format). */
    public static final String ACCESS_FILE_PROP_NAME = "mdhub.jmx.access.file";
    /** false to serve remote JMX without any login: only for a loopback-only lab, and said so in the log. */
    public static final String AUTHENTICATE_PROP_NAME = "mdhub.jmx.authenticate";
    /** Default of {@link #AUTHENTICATE_PROP_NAME}. */
    public static final boolean AUTHENTICATE_DEFAULT = true;
    /** TLS on the registry and the connections. */
    public static final String SSL_PROP_NAME = "mdhub.jmx.ssl";
    /** Default of {@link #SSL_PROP_NAME}. */
    public static final boolean SSL_DEFAULT = false;
    /** With TLS, require a client certificate the trust store trusts (mutual TLS). */
    public static final String SSL_NEED_CLIENT_AUTH_PROP_NAME = "mdhub.jmx.ssl.need.client.auth";
    /** Default of {@link #SSL_NEED_CLIENT_AUTH_PROP_NAME}. */
    public static final boolean SSL_NEED_CLIENT_AUTH_DEFAULT = false;
    /** The server's key store (PKCS12 or JKS); empty = the JVM's {@code javax.net.ssl.keyStore}. */
    public static final String SSL_KEYSTORE_PROP_NAME = "mdhub.jmx.ssl.keystore";
    /** A file holding the key store's password on its first line (readable by its owner only). */
    public static final String SSL_KEYSTORE_PASSWORD_FILE_PROP_NAME = "mdhub.jmx.ssl.keystore.password.file";
    /** The trust store for client certificates; empty = the JVM's {@code javax.net.ssl.trustStore}. */
    public static final String SSL_TRUSTSTORE_PROP_NAME = "mdhub.jmx.ssl.truststore";
    /** A file holding the trust store's password on its first line (readable by its owner only). */
    public static final String SSL_TRUSTSTORE_PASSWORD_FILE_PROP_NAME = "mdhub.jmx.ssl.truststore.password.file";
    /**
     * Failed logins one remote address may make a minute (also the burst); past it, its logins are refused without
     * looking at the password until the allowance refills.
     */
    public static final String LOGIN_FAILURES_PER_MINUTE_PROP_NAME = "mdhub.jmx.login.failures.per.minute";
    /** Default of {@link #LOGIN_FAILURES_PER_MINUTE_PROP_NAME}. */
    public static final int LOGIN_FAILURES_PER_MINUTE_DEFAULT = 10;

    private JmxConfiguration()
    {
    }

    /**
     * @return the connector's port, 0 when off.
     */
    public static int port()
    {
        return ConfigValues.getInt(PORT_PROP_NAME, PORT_DEFAULT, 0, 65_535);
    }

    /**
     * @return the address to listen on.
     */
    public static String host()
    {
        return ConfigValues.getString(HOST_PROP_NAME, HOST_DEFAULT);
    }

    /**
     * @return the password file, empty when none is set.
     */
    public static String passwordFile()
    {
        return ConfigValues.getString(PASSWORD_FILE_PROP_NAME, "");
    }

    /**
     * @return the access file, empty when none is set.
     */
    public static String accessFile()
    {
        return ConfigValues.getString(ACCESS_FILE_PROP_NAME, "");
    }

    /**
     * @return false when remote JMX is explicitly served without logins.
     */
    public static boolean authenticate()
    {
        return ConfigValues.getBoolean(AUTHENTICATE_PROP_NAME, AUTHENTICATE_DEFAULT);
    }

    /**
     * @return true for TLS.
     */
    public static boolean ssl()
    {
        return ConfigValues.getBoolean(SSL_PROP_NAME, SSL_DEFAULT);
    }

    /**
     * @return true to require client certificates.
     */
    public static boolean sslNeedClientAuth()
    {
        return ConfigValues.getBoolean(SSL_NEED_CLIENT_AUTH_PROP_NAME, SSL_NEED_CLIENT_AUTH_DEFAULT);
    }

    /**
     * @return the key store, empty for the JVM's default.
     */
    public static String sslKeyStore()
    {
        return ConfigValues.getString(SSL_KEYSTORE_PROP_NAME, "");
    }

    /**
     * @return the key store's password file, empty when none.
     */
    public static String sslKeyStorePasswordFile()
    {
        return ConfigValues.getString(SSL_KEYSTORE_PASSWORD_FILE_PROP_NAME, "");
    }

    /**
     * @return the trust store, empty for the JVM's default.
     */
    public static String sslTrustStore()
    {
        return ConfigValues.getString(SSL_TRUSTSTORE_PROP_NAME, "");
    }

    /**
     * @return the trust store's password file, empty when none.
     */
    public static String sslTrustStorePasswordFile()
    {
        return ConfigValues.getString(SSL_TRUSTSTORE_PASSWORD_FILE_PROP_NAME, "");
    }

    /**
     * @return failed logins an address may make a minute.
     */
    public static int loginFailuresPerMinute()
    {
        return ConfigValues.getInt(
            LOGIN_FAILURES_PER_MINUTE_PROP_NAME, LOGIN_FAILURES_PER_MINUTE_DEFAULT, 1, 1_000_000);
    }
}
