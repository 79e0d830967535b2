package io.mdhub.common.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * One process's TLS settings (defaults from {@link TlsConfiguration}) and the contexts built from them: a Netty
 * {@link SslContext} for the RIPC ports and a JDK {@link SSLContext} for the order ports, both on the JDK's own TLS
 * provider. Key material is read when a context is built, i.e. when a component concludes, so a wrong path or
 * password stops it at start with a message naming the key (never the password). {@link #toString()} masks
 * passwords, so the settings may be logged.
 */
public final class TlsSettings
{
    private final String keystore;
    private final char[] keystorePassword;
    private final String keystoreType;
    private final String truststore;
    private final char[] truststorePassword;
    private final String truststoreType;
    private final TlsClientAuth clientAuth;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final boolean verifyHostname;

    private TlsSettings(final Builder builder)
    {
        keystore = builder.keystore;
        keystorePassword = builder.keystorePassword.clone();
        keystoreType = builder.keystoreType;
        truststore = builder.truststore;
        truststorePassword = builder.truststorePassword.clone();
        truststoreType = builder.truststoreType;
        clientAuth = builder.clientAuth;
        protocols = List.copyOf(builder.protocols);
        cipherSuites = List.copyOf(builder.cipherSuites);
        verifyHostname = builder.verifyHostname;
    }

    /**
     * @return settings from the {@code mdhub.tls.*} keys.
     */
    public static TlsSettings fromConfiguration()
    {
        return builder().build();
    }

    /**
     * @param tls settings given in code, or null.
     * @return those settings, or the {@code mdhub.tls.*} keys' when none were given.
     */
    public static TlsSettings orConfiguration(final TlsSettings tls)
    {
        return null == tls ? fromConfiguration() : tls;
    }

    /**
     * @return a builder seeded from the {@code mdhub.tls.*} keys.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @return a builder holding these settings.
     */
    public Builder toBuilder()
    {
        return new Builder()
            .keystore(keystore, keystorePassword).keystoreType(keystoreType)
            .truststore(truststore, truststorePassword).truststoreType(truststoreType)
            .clientAuth(clientAuth).protocols(protocols).cipherSuites(cipherSuites).verifyHostname(verifyHostname);
    }

    /**
     * @return the client authentication a server asks for.
     */
    public TlsClientAuth clientAuth()
    {
        return clientAuth;
    }

    /**
     * @return the protocols offered.
     */
    public List<String> protocols()
    {
        return protocols;
    }

    /**
     * @return the cipher suites offered, empty for the JDK's defaults.
     */
    public List<String> cipherSuites()
    {
        return cipherSuites;
    }

    /**
     * @return whether a client checks the server's host name.
     */
    public boolean verifyHostname()
    {
        return verifyHostname;
    }

    /**
     * @return whether a keystore (an identity to present) is configured.
     */
    public boolean hasKeystore()
    {
        return !keystore.isBlank();
    }

    /**
     * A Netty context for a TLS server port; needs a keystore.
     *
     * @return the context (share it between the listeners of a process).
     * @throws IllegalArgumentException naming the key when the key material is missing or cannot be loaded.
     */
    public SslContext nettyServerContext()
    {
        requireKeystore();
        try
        {
            final SslContextBuilder builder = SslContextBuilder.forServer(keyManagers())
                .sslProvider(SslProvider.JDK)
                .protocols(protocols)
                .clientAuth(nettyClientAuth());
            if (TlsClientAuth.NONE != clientAuth)
            {
                builder.trustManager(trustManagers());
            }
            return ciphers(builder).build();
        }
        catch (final SSLException ex)
        {
            throw new IllegalArgumentException("TLS server context: " + ex.getMessage(), ex);
        }
    }

    /**
     * A Netty context for a TLS client; presents the keystore's certificate when one is configured.
     *
     * @return the context.
     * @throws IllegalArgumentException naming the key when the key material cannot be loaded.
     */
    public SslContext nettyClientContext()
    {
        try
        {
            final SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .protocols(protocols)
                .trustManager(trustManagers())
                .endpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
            if (hasKeystore())
            {
                builder.keyManager(keyManagers());
            }
            return ciphers(builder).build();
        }
        catch (final SSLException ex)
        {
            throw new IllegalArgumentException("TLS client context: " + ex.getMessage(), ex);
        }
    }

    /**
     * A JDK context for NIO ports ({@link #newServerEngine}, {@link #newClientEngine}).
     *
     * @param isServer true for a server (needs a keystore), false for a client (keystore optional).
     * @return the context.
     */
    public SSLContext jdkContext(final boolean isServer)
    {
        if (isServer)
        {
            requireKeystore();
        }
        try
        {
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(hasKeystore() ? keyManagers().getKeyManagers() : null, trustManagers().getTrustManagers(),
                null);
            return context;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException("TLS context: " + ex.getMessage(), ex);
        }
    }

    /**
     * @param context from {@link #jdkContext(boolean)} with true.
     * @return a server engine with these protocols, suites and client authentication.
     */
    public SSLEngine newServerEngine(final SSLContext context)
    {
        final SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        final SSLParameters parameters = parameters(engine);
        parameters.setNeedClientAuth(TlsClientAuth.REQUIRE == clientAuth);
        if (TlsClientAuth.OPTIONAL == clientAuth)
        {
            parameters.setWantClientAuth(true);
        }
        engine.setSSLParameters(parameters);
        return engine;
    }

    /**
     * @param context from {@link #jdkContext(boolean)} with false.
     * @param host    the server's host, checked against its certificate when host names are verified.
     * @param port    the server's port.
     * @return a client engine.
     */
    public SSLEngine newClientEngine(final SSLContext context, final String host, final int port)
    {
        final SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        final SSLParameters parameters = parameters(engine);
        if (verifyHostname)
        {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        engine.setSSLParameters(parameters);
        return engine;
    }

    @Override
    public String toString()
    {
        return "TlsSettings{keystore=" + keystore + ", keystoreType=" + keystoreType + ", keystorePassword=" +
            mask(keystorePassword) + ", truststore=" + truststore + ", truststoreType=" + truststoreType +
            ", truststorePassword=" + mask(truststorePassword) + ", clientAuth=" + clientAuth + ", protocols=" +
            protocols + ", cipherSuites=" + cipherSuites + ", verifyHostname=" + verifyHostname + "}";
    }

    private static String mask(final char[] password)
    {
        return 0 == password.length ? "(none)" : "****";
    }

    private SSLParameters parameters(final SSLEngine engine)
    {
        final SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(protocols.toArray(new String[0]));
        if (!cipherSuites.isEmpty())
        {
            parameters.setCipherSuites(cipherSuites.toArray(new String[0]));
        }
        return parameters;
    }

    private SslContextBuilder ciphers(final SslContextBuilder builder)
    {
        return cipherSuites.isEmpty() ? builder : builder.ciphers(cipherSuites);
    }

    private ClientAuth nettyClientAuth()
    {
        switch (clientAuth)
        {
            case REQUIRE:
                return ClientAuth.REQUIRE;
            case OPTIONAL:
                return ClientAuth.OPTIONAL;
            default:
                return ClientAuth.NONE;
        }
    }

    private void requireKeystore()
    {
        if (!hasKeystore())
        {
            throw new IllegalArgumentException(TlsConfiguration.KEYSTORE_PROP_NAME +
                " is required on a TLS server port (the server's key and certificate)");
        }
    }

    private KeyManagerFactory keyManagers()
    {
        final KeyStore store = load(TlsConfiguration.KEYSTORE_PROP_NAME, keystore, keystoreType, keystorePassword);
        try
        {
            final KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, keystorePassword);
            return factory;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException(TlsConfiguration.KEYSTORE_PROP_NAME + " " + keystore +
                ": cannot read its key (is " + TlsConfiguration.KEYSTORE_PASSWORD_PROP_NAME + " the key's too?): " +
                ex.getMessage(), ex);
        }
    }

    private TrustManagerFactory trustManagers()
    {
        final KeyStore store = truststore.isBlank() ? null :
            load(TlsConfiguration.TRUSTSTORE_PROP_NAME, truststore, truststoreType, truststorePassword);
        try
        {
            final TrustManagerFactory factory =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store); // null: the JDK's cacerts
            return factory;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException(TlsConfiguration.TRUSTSTORE_PROP_NAME + " " + truststore + ": " +
                ex.getMessage(), ex);
        }
    }

    private static KeyStore load(final String key, final String path, final String type, final char[] password)
    {
        try (InputStream in = Files.newInputStream(Path.of(path)))
        {
            final KeyStore store = KeyStore.getInstance(type);
            store.load(in, password);
            return store;
        }
        catch (final IOException | GeneralSecurityException ex)
        {
            // a wrong password shows as an IOException whose cause is UnrecoverableKeyException
            throw new IllegalArgumentException(key + " " + path + " (" + type + "): cannot load it: " +
                ex.getMessage(), ex);
        }
    }

    /**
     * Builds {@link TlsSettings}; starts from the {@code mdhub.tls.*} keys.
     */
    public static final class Builder
    {
        private String keystore = TlsConfiguration.keystore();
        private char[] keystorePassword = TlsConfiguration.keystorePassword();
        private String keystoreType = TlsConfiguration.keystoreType();
        private String truststore = TlsConfiguration.truststore();
        private char[] truststorePassword = TlsConfiguration.truststorePassword();
        private String truststoreType = TlsConfiguration.truststoreType();
        private TlsClientAuth clientAuth = TlsConfiguration.clientAuth();
        private List<String> protocols = TlsConfiguration.protocols();
        private List<String> cipherSuites = TlsConfiguration.cipherSuites();
        private boolean verifyHostname = TlsConfiguration.verifyHostname();

        private Builder()
        {
        }

        /**
         * @param path     keystore file, blank for none.
         * @param password its password (and its key's).
         * @return this.
         */
        public Builder keystore(final String path, final char[] password)
        {
            this.keystore = null == path ? "" : path;
            this.keystorePassword = null == password ? new char[0] : password.clone();
            return this;
        }

        /**
         * @param type keystore type (PKCS12, JKS).
         * @return this.
         */
        public Builder keystoreType(final String type)
        {
            this.keystoreType = type;
            return this;
        }

        /**
         * @param path     truststore file, blank for the JDK's cacerts.
         * @param password its password.
         * @return this.
         */
        public Builder truststore(final String path, final char[] password)
        {
            this.truststore = null == path ? "" : path;
            this.truststorePassword = null == password ? new char[0] : password.clone();
            return this;
        }

        /**
         * @param type truststore type.
         * @return this.
         */
        public Builder truststoreType(final String type)
        {
            this.truststoreType = type;
            return this;
        }

        /**
         * @param clientAuth what a server asks of its clients.
         * @return this.
         */
        public Builder clientAuth(final TlsClientAuth clientAuth)
        {
            this.clientAuth = clientAuth;
            return this;
        }

        /**
         * @param protocols protocol versions offered, in order.
         * @return this.
         */
        public Builder protocols(final List<String> protocols)
        {
            this.protocols = List.copyOf(protocols);
            return this;
        }

        /**
         * @param cipherSuites suites offered, empty for the JDK's defaults.
         * @return this.
         */
        public Builder cipherSuites(final List<String> cipherSuites)
        {
            this.cipherSuites = List.copyOf(cipherSuites);
            return this;
        }

        /**
         * @param verifyHostname whether a client checks the server's host name.
         * @return this.
         */
        public Builder verifyHostname(final boolean verifyHostname)
        {
            this.verifyHostname = verifyHostname;
            return this;
        }

        /**
         * @return the settings, after checking the protocols and suites are ones this JDK supports.
         * @throws IllegalArgumentException naming the key of a value that is wrong.
         */
        public TlsSettings build()
        {
            if (null == clientAuth)
            {
                throw new IllegalArgumentException(TlsConfiguration.CLIENT_AUTH_PROP_NAME + " is required");
            }
            if (null == keystoreType || keystoreType.isBlank() || null == truststoreType || truststoreType.isBlank())
            {
                throw new IllegalArgumentException(TlsConfiguration.KEYSTORE_TYPE_PROP_NAME + " and " +
                    TlsConfiguration.TRUSTSTORE_TYPE_PROP_NAME + " must not be blank");
            }
            final SSLParameters supported;
            try
            {
                supported = SSLContext.getDefault().getSupportedSSLParameters();
            }
            catch (final GeneralSecurityException ex)
            {
                throw new IllegalStateException("the JDK has no default TLS context", ex);
            }
            if (protocols.isEmpty())
            {
                throw new IllegalArgumentException(TlsConfiguration.PROTOCOLS_PROP_NAME + " must name a protocol");
            }
            requireSupported(TlsConfiguration.PROTOCOLS_PROP_NAME, protocols, supported.getProtocols());
            requireSupported(TlsConfiguration.CIPHER_SUITES_PROP_NAME, cipherSuites, supported.getCipherSuites());
            return new TlsSettings(this);
        }

        private static void requireSupported(final String key, final List<String> values, final String[] supported)
        {
            final List<String> known = Arrays.asList(supported);
            for (final String value : values)
            {
                if (!known.contains(value))
                {
                    throw new IllegalArgumentException(key + ": " + value + " is not supported by this JDK (" +
                        known + ")");
                }
            }
        }
    }
}
