package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The whole path with the backbone over UDP instead of IPC, on loopback: plain unicast (data to the p2p-server's
 * endpoint, control to the distributor's), and multi-destination-cast with dynamic control (the distributor's
 * data publication sends to every p2p-server that registers with its control address). Items open, updates arrive
 * with no loss and no status, and the media driver's own channel counters show the traffic went over UDP.
 */
@InterruptAfter(90)
class BackboneChannelsTest
{
    private static final int ITEMS = 200;

    @TempDir
    Path dir;

    @Test
    void udpUnicast()
    {
        final String data = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        final String control = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        runDemo(data, control, data, control);
    }

    @Test
    void multiDestinationCastWithDynamicControl()
    {
        final int controlPort = freeUdpPort();
        final String control = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        runDemo(
            "aeron:udp?control=localhost:" + controlPort + "|control-mode=dynamic",
            control,
            "aeron:udp?endpoint=localhost:0|control=localhost:" + controlPort + "|control-mode=dynamic",
            control);
    }

    private void runDemo(
        final String distributorData, final String distributorControl, final String p2pData, final String p2pControl)
    {
        final String aeronDir = dir.resolve("aeron").toString();
        try (Demo demo = Demo.launch(new Demo.Settings()
            .items(ITEMS)
            .rate(1000)
            .aeronDirectory(aeronDir)
            .channels(distributorData, distributorControl, p2pData, p2pControl)))
        {
            MdTests.await(() -> "every item open and 2000 updates: " + describe(demo.client()),
                () -> demo.client().totals().itemsOpen == ITEMS && demo.client().totals().updates >= 2000);
            final TestClient.Totals totals = demo.client().totals();
            assertNull(totals.failure);
            assertEquals(0, totals.lostUpdates);
            assertEquals(0, totals.outOfOrder);
            assertEquals(0, totals.statuses, "no item went Suspect");

            final List<String> labels = counterLabels(aeronDir);
            assertTrue(labels.stream().anyMatch((l) -> l.startsWith("snd-channel: aeron:udp")), labels::toString);
            assertTrue(labels.stream().anyMatch((l) -> l.startsWith("rcv-channel: aeron:udp")), labels::toString);
            assertTrue(labels.stream().noneMatch((label) -> label.contains("aeron:ipc")), "nothing went over IPC");
        }
    }

    private static List<String> counterLabels(final String aeronDir)
    {
        final List<String> labels = new ArrayList<>();
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)))
        {
            aeron.countersReader().forEach((counterId, typeId, keyBuffer, label) -> labels.add(label));
        }
        return labels;
    }

    private static int freeUdpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String describe(final TestClient client)
    {
        final TestClient.Totals totals = client.totals();
        return "open " + totals.itemsOpen + ", updates " + totals.updates + ", lost " + totals.lostUpdates +
            ", statuses " + totals.statuses + ", failure " + totals.failure;
    }
}
