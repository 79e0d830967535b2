package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The security settings as an operator sets them, every server its own JVM from its fat jar: the distributor and the
 * p2p-server read one entitlement file, the p2p-server serves consumers over TLS only and records usage; the source
 * logs in as the file's provider and locks its items. ETA's own encrypted consumers log in as an entitled and an
 * unentitled user, and the usage report, run from the p2p-server's jar, lists both.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(value = 180)
class SecuritySystemIT
{
    private static final String FILE = """
        code 62 NYSE
        provider feed
          publish NI_PUB
        user alice
          service NI_PUB 62
        user bob
          service NI_PUB 99
        """;

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void entitledAndUnentitledUsersOverTlsAndTheirUsage() throws Exception
    {
        final TlsTestKeys keys = TlsTestKeys.get();
        final Path entitlements = dir.resolve("entitlements");
        Files.writeString(entitlements, FILE);
        final Path items = dir.resolve("items");
        Files.writeString(items, "TRI.N\nIBM.N\n");
        final Path usage = dir.resolve("usage");
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        processes.start(backboneLog, "backbone/target/mdhub-backbone.jar", List.of(), "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = dir.resolve("distributor.log");
        processes.start(distributorLog, "distributor/target/mdhub-distributor.jar",
            List.of("-Dmdhub.entitlements.file=" + entitlements), "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Path p2pLog = dir.resolve("p2p.log");
        processes.start(p2pLog, "p2p-server/target/mdhub-p2p.jar", List.of(
            "-Dmdhub.entitlements.file=" + entitlements,
            "-Dmdhub.p2p.usage.dir=" + usage,
            "-Dmdhub.p2p.tls.enabled=true",
            "-Dmdhub.tls.keystore=" + keys.serverKeystore(),
            "-Dmdhub.tls.keystore.password=" + TlsTestKeys.PASSWORD),
            "--aeron-dir", aeronDir, "--port", Integer.toString(consumerPort));
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");
        final Path sourceLog = dir.resolve("source.log");
        processes.start(sourceLog, "benchmarks/target/mdhub-bench.jar", List.of(), "source",
            "--port", Integer.toString(providerPort), "--user", "feed", "--lock", "62",
            "--item-file", items.toString(), "--rate", "20");
        SystemProcesses.awaitLine(sourceLog, "source: refreshes 2,");

        try (EtaConsumer alice = tlsConsumer(keys, consumerPort, "alice");
            EtaConsumer bob = tlsConsumer(keys, consumerPort, "bob"))
        {
            final int serviceId = awaitService(alice);
            alice.requestItem(5, serviceId, "TRI.N");
            final EtaMessage image = alice.awaitMessage(5);
            assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
            assertEquals(MsgClasses.UPDATE, alice.awaitMessage(5).msgClass(), "updates follow");

            awaitService(bob);
            bob.requestItem(5, serviceId, "TRI.N");
            final EtaMessage denied = bob.awaitMessage(5);
            assertEquals(StreamStates.CLOSED, denied.streamState(), denied::toString);
            assertEquals(StateCodes.NOT_ENTITLED, denied.code(), denied::toString);
            assertTrue(denied.text().contains("not entitled to TRI.N of NI_PUB (lock 62)"), denied::toString);
            alice.closeItem(5);
        }

        final Path reportLog = dir.resolve("report.log");
        final Process report = processes.start(reportLog, "p2p-server/target/mdhub-p2p.jar", List.of(),
            "usage-report", "--dir", usage.toString(), "--format", "csv");
        final String output = SystemProcesses.awaitSuccess(report, reportLog, 60);
        // user, logins, logins-denied, items, items-denied, distinct-items, watch, open, posts-denied
        assertTrue(output.lines().anyMatch((line) -> line.matches("alice,1,0,1,0,1,\\d+,0,0")), output);
        assertTrue(output.lines().anyMatch((line) -> line.matches("bob,1,0,0,1,0,0,0,0")), output);
        // code, name, users, distinct-items, grants, watch, open
        assertTrue(output.lines().anyMatch((line) -> line.matches("62,,1,1,1,\\d+,0")), output);
    }

    private static EtaConsumer tlsConsumer(final TlsTestKeys keys, final int port, final String user)
    {
        final EtaConsumer consumer = EtaConsumer.connectEncrypted(
            "localhost", port, keys.clientKeystore().toString(), TlsTestKeys.PASSWORD);
        assertEquals(StreamStates.OPEN, consumer.login(user).state().streamState());
        return consumer;
    }

    /**
     * @return the id the p2p-server gives the source's service, once it is in the consumer's directory.
     */
    private static int awaitService(final EtaConsumer consumer) throws IOException
    {
        for (int stream = 2; ; stream++)
        {
            consumer.requestDirectory(stream, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE,
                false, -1);
            final EtaMessage directory = consumer.awaitMessage(stream);
            for (final var service : directory.directoryRefresh().serviceList())
            {
                if ("NI_PUB".equals(service.info().serviceName().toString()))
                {
                    return service.serviceId();
                }
            }
            MdTests.idle(() -> "service NI_PUB in the p2p-server's directory");
        }
    }
}
