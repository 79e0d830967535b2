package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.benchmarks.source.ItemUniverse;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * A p2p-server SIGKILLed under a client with a server list, every component a separate JVM: the client's mounts are
 * spread over two p2p-servers; the mount on the killed one moves to the survivor, logs in, re-opens every item and
 * gets fresh refreshes, with no update lost without a refresh in between (per-item counters); the recovery time is
 * printed.
 * <p>
 * Alongside, an ETA 3.9.1.0 consumer (in this JVM) watching some items on the killed server does what a reconnecting
 * ETA application does: sees the connection end, connects to the other server, logs in, reads the directory and
 * requests its items again; each must be refreshed, and the updates that follow must continue the refresh's per-item
 * counter without a gap.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(value = 150)
class P2pFailoverSystemIT
{
    private static final int ITEMS = 5_000;
    private static final int RATE = 2_000;
    private static final int CLIENT_SECONDS = 30;
    private static final int ETA_ITEMS = 25;
    private static final int ETA_FIRST_STREAM = 10;
    private static final String SERVICE_NAME = "NI_PUB";

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    private EtaConsumer eta;

    @AfterEach
    void stopEverything()
    {
        if (null != eta)
        {
            eta.close();
        }
        processes.close();
    }

    @Test
    void theMountOfAKilledP2pServerMovesToTheOtherAndReopensEveryItem() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = dir.resolve("distributor.log");
        start(distributorLog, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Process p2pA = startP2p(dir.resolve("p2p-a.log"), aeronDir, portA, 1);
        startP2p(dir.resolve("p2p-b.log"), aeronDir, portB, 2);
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");

        final Path sourceLog = dir.resolve("source.log");
        start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source", "--port", Integer.toString(providerPort),
            "--items", Integer.toString(ITEMS), "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--servers", "127.0.0.1:" + portA + ",127.0.0.1:" + portB, "--mounts", "2",
            "--items", Integer.toString(ITEMS), "--duration", Integer.toString(CLIENT_SECONDS));
        final long recovered =
            ClientStatus.awaitAllOpenAndOk(clientLog, 2 * ITEMS, 0, "every item open on both mounts");

        final String[] etaNames = etaItemNames();
        Map<Integer, Long> etaCounters = openEtaItems(portA, etaNames);
        awaitEtaUpdates(etaCounters, ETA_ITEMS);

        p2pA.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long killedNs = System.nanoTime();
        eta.awaitClosed();
        eta.close();
        etaCounters = openEtaItems(portB, etaNames);
        System.out.printf("p2p failover (ETA consumer): %d items re-requested on the other server and refreshed " +
            "%d ms after the kill%n", ETA_ITEMS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));
        ClientStatus.awaitAllOpenAndOk(clientLog, 2 * ITEMS, recovered + ITEMS,
            "the moved mount's items re-opened on the other server");
        System.out.printf("p2p failover: %d items re-opened on the surviving p2p-server %d ms after the kill%n",
            ITEMS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));
        awaitEtaUpdates(etaCounters, 2 * ETA_ITEMS);

        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());
        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + 2 * ITEMS + ", closed 0, lost 0, out of order 0, malformed 0, " +
            "suspect now 0"), output);
        final Matcher summary =
            Pattern.compile("recovered (\\d+) \\(longest (\\d+) ms\\), failovers (\\d+)").matcher(output);
        assertTrue(summary.find(), output);
        assertEquals(1, Integer.parseInt(summary.group(3)), output);
        System.out.printf("p2p failover: the longest an item stayed Suspect: %s ms%n", summary.group(2));
    }

    private static String[] etaItemNames()
    {
        final ItemUniverse universe = ItemUniverse.generated(ITEMS);
        final String[] names = new String[ETA_ITEMS];
        for (int i = 0; i < ETA_ITEMS; i++)
        {
            final var name = universe.name(i * (ITEMS / ETA_ITEMS));
            names[i] = name.getStringWithoutLengthAscii(0, name.capacity());
        }
        return names;
    }

    /**
     * Connect, log in, find the source's service in the directory and request every item (streams from
     * {@link #ETA_FIRST_STREAM}); each must answer with an Open refresh.
     *
     * @return the per-item counter each refresh carries, by stream.
     */
    private Map<Integer, Long> openEtaItems(final int port, final String[] names)
    {
        eta = EtaConsumer.connect(port);
        assertEquals(StreamStates.OPEN, eta.login("failover").state().streamState());
        final int serviceId = awaitServiceId(port);
        for (int i = 0; i < names.length; i++)
        {
            eta.requestItem(ETA_FIRST_STREAM + i, serviceId, names[i]);
        }
        final Map<Integer, Long> counters = new HashMap<>();
        for (int i = 0; i < names.length; i++)
        {
            final EtaMessage refresh = eta.awaitMessage(ETA_FIRST_STREAM + i);
            assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
            assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
            assertEquals(names[i], refresh.keyName(), refresh::toString);
            counters.put(ETA_FIRST_STREAM + i, refresh.uint(FieldIds.MDH_UPDSEQ));
        }
        return counters;
    }

    private int awaitServiceId(final int port)
    {
        for (int directoryStream = 2; ; directoryStream++)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE, false, -1);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
            for (final Service service : directory.directoryRefresh().serviceList())
            {
                if (service.checkHasInfo() && SERVICE_NAME.equals(service.info().serviceName().toString()))
                {
                    return service.serviceId();
                }
            }
            MdTests.idle(() -> SERVICE_NAME + " in the directory of port " + port);
        }
    }

    /**
     * Read until {@code count} updates have arrived on the item streams; each must continue its item's counter (the
     * refresh's, then the previous update's) without a gap, and no item may get a status.
     */
    private void awaitEtaUpdates(final Map<Integer, Long> counters, final int count)
    {
        int updates = 0;
        while (updates < count)
        {
            final EtaMessage message = eta.awaitMessage();
            final Long last = counters.get(message.streamId());
            if (null == last)
            {
                continue; // login or directory
            }
            assertNotEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
            if (MsgClasses.UPDATE == message.msgClass())
            {
                final long counter = message.uint(FieldIds.MDH_UPDSEQ);
                assertEquals(last + 1, counter, () -> "the update continues the item's counter: " + message);
                counters.put(message.streamId(), counter);
                updates++;
            }
        }
    }

    private Process startP2p(final Path log, final String aeronDir, final int port, final int consumerId)
        throws IOException
    {
        final Process p2p = start(log, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(port), "-D", "mdhub.p2p.backbone.consumer.id=" + consumerId,
            "-D", "mdhub.p2p.component.name=p2p-" + consumerId);
        SystemProcesses.awaitLine(log, "mdhub-p2p ready");
        return p2p;
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
