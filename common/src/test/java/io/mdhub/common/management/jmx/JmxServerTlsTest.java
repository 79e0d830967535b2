package io.mdhub.common.management.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * MDHub's remote JMX over mutual TLS in this JVM: a key pair made with the JDK's keytool serves as the server's key,
 * the client's certificate and both trust stores (the client's through the standard {@code javax.net.ssl.*}
 * properties, as the console takes them). A TLS client logs in and reads; a plain one gets nowhere.
 */
@InterruptAfter(90)
class JmxServerTlsTest
{
    private static final String STORE_PASSWORD = "store-pass-1";
    private static final List<String> CLIENT_PROPERTIES = List.of("javax.net.ssl.trustStore",
        "javax.net.ssl.trustStorePassword", "javax.net.ssl.keyStore", "javax.net.ssl.keyStorePassword");

    @TempDir
    static Path dir;
    private static Path store;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        store = dir.resolve("jmx.p12");
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool")
            .toString(), "-genkeypair", "-alias", "jmx", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
            "-keystore", store.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD)
            .redirectErrorStream(true).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS), "keytool to finish");
        assertEquals(0, keytool.exitValue(), new String(keytool.getInputStream().readAllBytes()));
        System.setProperty("javax.net.ssl.trustStore", store.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", STORE_PASSWORD);
        System.setProperty("javax.net.ssl.keyStore", store.toString());
        System.setProperty("javax.net.ssl.keyStorePassword", STORE_PASSWORD);
    }

    @AfterAll
    static void forgetKeys()
    {
        CLIENT_PROPERTIES.forEach(System::clearProperty);
    }

    @Test
    void aTlsClientWithACertificateLogsInAndAPlainOneDoesNot() throws Exception
    {
        final Path storePassword = secret("store.pw", STORE_PASSWORD + "\n");
        final Path passwords = secret("jmx.password", "watcher watch-pass\n");
        final int port = MdTests.unusedPort();
        try (JmxServer server = JmxServer.launch(new JmxServer.Context().component("jmx-tls").port(port)
            .users(passwords.toString(), "").ssl(true, true)
            .sslKeyStore(store.toString(), storePassword.toString())
            .sslTrustStore(store.toString(), storePassword.toString())))
        {
            final String address = "127.0.0.1:" + port;
            try (JMXConnector client = JmxClient.connect(address, "watcher", "watch-pass", true))
            {
                assertEquals(ProcessHandle.current().pid(), client.getMBeanServerConnection()
                    .getAttribute(new ObjectName("java.lang:type=Runtime"), "Pid"));
            }
            assertThrows(IOException.class, () -> JmxClient.connect(address, "watcher", "watch-pass", false).close());
            assertEquals(1, MdCounters.sum(server.countersReader(), MdCounters.JMX_LOGINS_ACCEPTED_TYPE_ID));
        }
    }

    private static Path secret(final String name, final String content) throws IOException
    {
        final Path file = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
