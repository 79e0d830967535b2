package io.mdhub.common.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mdhub.common.tls.TlsClientAuth;
import io.mdhub.common.tls.TlsSettings;

/**
 * Throw-away TLS key material for tests, made once per test JVM with the JDK's {@code keytool} (so no key material
 * is committed) in a temporary directory deleted when the JVM exits: a server key and self-signed certificate for
 * {@code localhost} / {@code 127.0.0.1}, a client key and certificate, and a truststore that trusts both. PKCS12,
 * one password for every store and key.
 * <ul>
 *   <li>{@link #serverKeystore()}: the server's key and certificate.</li>
 *   <li>{@link #clientKeystore()}: the client's key and certificate, plus the server's certificate as a trusted
 *       entry (ETA's encrypted client reads one keystore for both its identity and its trust).</li>
 *   <li>{@link #truststore()}: trusts the server's and the client's certificates (no keys).</li>
 * </ul>
 */
public final class TlsTestKeys
{
    /** Password of every store and key. */
    public static final String PASSWORD = "mdhub-test-secret";

    private static final long KEYTOOL_TIMEOUT_S = 60;
    private static TlsTestKeys instance;

    private final Path dir;

    private TlsTestKeys(final Path dir)
    {
        this.dir = dir;
    }

    /**
     * @return the key material, made on first use.
     */
    public static synchronized TlsTestKeys get()
    {
        if (null == instance)
        {
            try
            {
                final Path dir = Files.createTempDirectory("mdhub-tls-test-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
                final TlsTestKeys keys = new TlsTestKeys(dir);
                keys.make();
                instance = keys;
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return instance;
    }

    /**
     * @return PKCS12 file with the server's key and certificate.
     */
    public Path serverKeystore()
    {
        return dir.resolve("server.p12");
    }

    /**
     * @return PKCS12 file with the client's key and certificate and the server's certificate (trusted).
     */
    public Path clientKeystore()
    {
        return dir.resolve("client.p12");
    }

    /**
     * @return PKCS12 file trusting the server's and the client's certificates.
     */
    public Path truststore()
    {
        return dir.resolve("trust.p12");
    }

    /**
     * @param clientAuth what the server asks of clients.
     * @return settings of a TLS server port.
     */
    public TlsSettings serverSettings(final TlsClientAuth clientAuth)
    {
        return TlsSettings.builder()
            .keystore(serverKeystore().toString(), PASSWORD.toCharArray()).keystoreType("PKCS12")
            .truststore(truststore().toString(), PASSWORD.toCharArray()).truststoreType("PKCS12")
            .clientAuth(clientAuth)
            .build();
    }

    /**
     * @param withCertificate present the client certificate (for mutual TLS).
     * @return settings of a TLS client trusting the server.
     */
    public TlsSettings clientSettings(final boolean withCertificate)
    {
        return TlsSettings.builder()
            .keystore(withCertificate ? clientKeystore().toString() : "", PASSWORD.toCharArray())
            .keystoreType("PKCS12")
            .truststore(truststore().toString(), PASSWORD.toCharArray()).truststoreType("PKCS12")
            .clientAuth(TlsClientAuth.NONE)
            .build();
    }

    private void make()
    {
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
            "-keystore", serverKeystore().toString());
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", serverKeystore().toString(),
            "-file", dir.resolve("server.crt").toString());
        keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=mdhub-test-client", "-validity", "2", "-keystore", clientKeystore().toString());
        keytool("-exportcert", "-rfc", "-alias", "client", "-keystore", clientKeystore().toString(),
            "-file", dir.resolve("client.crt").toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", dir.resolve("server.crt").toString(),
            "-keystore", truststore().toString());
        keytool("-importcert", "-noprompt", "-alias", "client", "-file", dir.resolve("client.crt").toString(),
            "-keystore", truststore().toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", dir.resolve("server.crt").toString(),
            "-keystore", clientKeystore().toString());
    }

    private void keytool(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-J-Xmx64m"));
        if ("-genkeypair".equals(args[0]))
        {
            command.addAll(List.of("-keypass", PASSWORD));
        }
        try
        {
            final Path log = dir.resolve("keytool.log");
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(KEYTOOL_TIMEOUT_S, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " did not finish in " + KEYTOOL_TIMEOUT_S +
                    " s");
            }
            if (0 != process.exitValue())
            {
                throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " +
                    Files.readString(log, StandardCharsets.UTF_8));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", ex);
        }
    }

    private static void delete(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // best effort at JVM exit: a temporary directory
        }
    }
}
