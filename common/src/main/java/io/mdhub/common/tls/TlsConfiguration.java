package io.mdhub.common.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mdhub.common.config.ConfigValues;

/**
 * The shared {@code mdhub.tls.*} keys: the only place they are read. They describe this process's TLS identity
 * (keystore), whom it trusts (truststore) and how handshakes go (client authentication, protocols, cipher suites);
 * each port family switches TLS on with its own key ({@code mdhub.p2p.tls.enabled},
 * {@code mdhub.distributor.tls.enabled}, {@code mdhub.order.tls.enabled}, {@code mdhub.ripc.client.tls.enabled},
 * {@code mdhub.order.client.tls.enabled}) and they all use these settings.
 * <p>
 * A password value is a literal, or {@code env:NAME} (read from that environment variable), or {@code file:PATH}
 * (the file's first line): the last two keep it out of {@code ps} and out of configuration files.
 */
public final class TlsConfiguration
{
    /** Keystore holding this process's private key and certificate chain (a server's, or a client's for mTLS). */
    public static final String KEYSTORE_PROP_NAME = "mdhub.tls.keystore";

    /** Password of the keystore and of its key: literal, {@code env:NAME} or {@code file:PATH}. */
    public static final String KEYSTORE_PASSWORD_PROP_NAME = "mdhub.tls.keystore.password";

    /** Keystore type. */
    public static final String KEYSTORE_TYPE_PROP_NAME = "mdhub.tls.keystore.type";

    /** Truststore: the certificates (usually a CA's) that vouch for the peer; blank for the JDK's cacerts. */
    public static final String TRUSTSTORE_PROP_NAME = "mdhub.tls.truststore";

    /** Password of the truststore: literal, {@code env:NAME} or {@code file:PATH}. */
    public static final String TRUSTSTORE_PASSWORD_PROP_NAME = "mdhub.tls.truststore.password";

    /** Truststore type. */
    public static final String TRUSTSTORE_TYPE_PROP_NAME = "mdhub.tls.truststore.type";

    /** Whether servers ask clients for a certificate: none, optional or require (mutual TLS). */
    public static final String CLIENT_AUTH_PROP_NAME = "mdhub.tls.client.auth";

    /** Comma-separated TLS protocol versions offered. */
    public static final String PROTOCOLS_PROP_NAME = "mdhub.tls.protocols";

    /** Comma-separated cipher suites offered; blank for the JDK's defaults. */
    public static final String CIPHER_SUITES_PROP_NAME = "mdhub.tls.cipher.suites";

    /** Whether a client checks that the server's certificate names the host it connected to. */
    public static final String VERIFY_HOSTNAME_PROP_NAME = "mdhub.tls.verify.hostname";

    /** Default keystore and truststore type. */
    public static final String STORE_TYPE_DEFAULT = "PKCS12";

    /** Default protocols: TLS 1.3 first, TLS 1.2 for older peers. */
    public static final String PROTOCOLS_DEFAULT = "TLSv1.3,TLSv1.2";

    /** Default client authentication. */
    public static final TlsClientAuth CLIENT_AUTH_DEFAULT = TlsClientAuth.NONE;

    /** Default: verify the host name. */
    public static final boolean VERIFY_HOSTNAME_DEFAULT = true;

    private static final String ENV_PREFIX = "env:";
    private static final String FILE_PREFIX = "file:";

    private TlsConfiguration()
    {
    }

    /**
     * @return the keystore path, or blank.
     */
    public static String keystore()
    {
        return ConfigValues.getString(KEYSTORE_PROP_NAME, "");
    }

    /**
     * @return the keystore password, resolved (empty when not set).
     */
    public static char[] keystorePassword()
    {
        return secret(KEYSTORE_PASSWORD_PROP_NAME, System.getProperty(KEYSTORE_PASSWORD_PROP_NAME, ""));
    }

    /**
     * @return the keystore type.
     */
    public static String keystoreType()
    {
        return ConfigValues.getString(KEYSTORE_TYPE_PROP_NAME, STORE_TYPE_DEFAULT);
    }

    /**
     * @return the truststore path, or blank.
     */
    public static String truststore()
    {
        return ConfigValues.getString(TRUSTSTORE_PROP_NAME, "");
    }

    /**
     * @return the truststore password, resolved (empty when not set).
     */
    public static char[] truststorePassword()
    {
        return secret(TRUSTSTORE_PASSWORD_PROP_NAME, System.getProperty(TRUSTSTORE_PASSWORD_PROP_NAME, ""));
    }

    /**
     * @return the truststore type.
     */
    public static String truststoreType()
    {
        return ConfigValues.getString(TRUSTSTORE_TYPE_PROP_NAME, STORE_TYPE_DEFAULT);
    }

    /**
     * @return the client authentication mode.
     */
    public static TlsClientAuth clientAuth()
    {
        final String value = System.getProperty(CLIENT_AUTH_PROP_NAME);
        return null == value ? CLIENT_AUTH_DEFAULT :
            ConfigValues.parseEnum(CLIENT_AUTH_PROP_NAME, TlsClientAuth.class, value);
    }

    /**
     * @return the protocols, in order.
     */
    public static List<String> protocols()
    {
        return list(ConfigValues.getString(PROTOCOLS_PROP_NAME, PROTOCOLS_DEFAULT));
    }

    /**
     * @return the cipher suites, empty for the JDK's defaults.
     */
    public static List<String> cipherSuites()
    {
        return list(ConfigValues.getString(CIPHER_SUITES_PROP_NAME, ""));
    }

    /**
     * @return whether clients verify the server's host name.
     */
    public static boolean verifyHostname()
    {
        return ConfigValues.getBoolean(VERIFY_HOSTNAME_PROP_NAME, VERIFY_HOSTNAME_DEFAULT);
    }

    /**
     * @param value comma-separated items.
     * @return the trimmed, non-blank items in order.
     */
    public static List<String> list(final String value)
    {
        final List<String> items = new ArrayList<>();
        for (final String item : value.split(","))
        {
            if (!item.isBlank())
            {
                items.add(item.trim());
            }
        }
        return items;
    }

    /**
     * Resolve a secret: {@code env:NAME} reads an environment variable, {@code file:PATH} the first line of a file,
     * anything else is the secret itself. The error names the key and where it looked, never the secret.
     *
     * @param name  the key, for the error.
     * @param value the configured value.
     * @return the secret.
     */
    public static char[] secret(final String name, final String value)
    {
        if (value.startsWith(ENV_PREFIX))
        {
            final String variable = value.substring(ENV_PREFIX.length()).trim();
            final String secret = System.getenv(variable);
            if (null == secret)
            {
                throw new IllegalArgumentException(name + ": environment variable " + variable + " is not set");
            }
            return secret.toCharArray();
        }
        if (value.toLowerCase(Locale.ROOT).startsWith(FILE_PREFIX))
        {
            final Path path = Path.of(value.substring(FILE_PREFIX.length()).trim());
            try
            {
                final List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
                return lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException(name + ": cannot read " + path + ": " + ex, ex);
            }
        }
        return value.toCharArray();
    }
}
