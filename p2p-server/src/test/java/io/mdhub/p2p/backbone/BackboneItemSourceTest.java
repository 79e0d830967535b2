package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.P2pServer;

/**
 * The p2p-server fed over a real Aeron backbone (embedded driver, IPC) by a distributor stand-in, read by a real
 * ETA 3.9.1.0 consumer: the directory comes from announcements, item requests travel as ItemRequests and come back
 * as images, updates flow by handle; a sequence gap turns the item Open/Suspect and recovers it with a fresh image;
 * a distributor that falls silent takes its items Suspect until it announces again.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class BackboneItemSourceTest
{
    private static final String CHANNEL = "aeron:ipc";
    private static final int DATA_STREAM = 1001;
    private static final int CONTROL_STREAM = 1002;
    private static final int ITEM_STREAM = 5;

    @TempDir
    Path dir;

    private BackboneNode node;
    private Aeron aeron;
    private FakeBackboneDistributor distributor;
    private P2pServer server;
    private EtaConsumer consumer;

    @BeforeEach
    void launch()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        distributor = new FakeBackboneDistributor(aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM)
            .item("TRI.N", 12340)
            .item("IBM.N", 20000);
        server = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("p2p-backbone-test")
            .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings()
                .channel(CHANNEL)
                .dataStreamId(DATA_STREAM)
                .controlStreamId(CONTROL_STREAM)
                .consumerId(42)
                .announceIntervalMs(20)
                .missedAnnouncements(4)
                .idle(10_000, 200_000))));
        MdTests.await("the p2p-server's heartbeat on the control stream",
            () -> distributor.consumerAnnouncements.get() > 0);
        final int seen = distributor.announcements.get();
        MdTests.await("an announcement after the p2p-server subscribed", () -> distributor.announcements.get() > seen);
        consumer = EtaConsumer.connect(server.port());
        assertEquals(StreamStates.OPEN, consumer.login("alice").state().streamState());
    }

    @AfterEach
    void close() throws Exception
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != server)
        {
            server.close();
        }
        if (null != distributor)
        {
            distributor.close();
        }
        if (null != aeron)
        {
            aeron.close();
        }
        if (null != node)
        {
            node.close();
        }
    }

    @Test
    void directoryImagesAndUpdatesComeOverTheBackbone()
    {
        consumer.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        final EtaMessage directory = consumer.awaitMessage(2);
        assertEquals(MsgClasses.REFRESH, directory.msgClass());
        assertTrue(directory.serviceNames().contains(FakeBackboneDistributor.SERVICE_NAME), directory::toString);

        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass());
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.SOLICITED));
        assertEquals(StreamStates.OPEN, refresh.streamState());
        assertEquals(12340L, refresh.mantissa(FieldIds.BID));

        for (int i = 1; i <= 50; i++)
        {
            distributor.update("TRI.N", 12340 + i);
        }
        for (int i = 1; i <= 50; i++)
        {
            final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass());
            assertEquals(12340L + i, update.mantissa(FieldIds.BID), "updates in order, none lost");
        }

        consumer.requestItem(ITEM_STREAM + 1, FakeBackboneDistributor.SERVICE_ID, "NOPE.N");
        final EtaMessage notFound = consumer.awaitMessage(ITEM_STREAM + 1);
        assertEquals(MsgClasses.STATUS, notFound.msgClass());
        assertEquals(StreamStates.CLOSED, notFound.streamState());
        assertEquals(StateCodes.NOT_FOUND, notFound.code());
    }

    @Test
    void aGapTurnsTheItemSuspectAndAFreshImageRecoversIt()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.skipSequence();
        distributor.update("IBM.N", 20100);

        final EtaMessage suspect = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(StreamStates.OPEN, suspect.streamState());
        assertEquals(DataStates.SUSPECT, suspect.dataState());
        final EtaMessage recovered = awaitClass(MsgClasses.REFRESH);
        assertEquals(0, recovered.flags() & RefreshMsgFlags.SOLICITED, "a recovery image is unsolicited");
        assertEquals(DataStates.OK, recovered.dataState());
        assertEquals(20100L, recovered.mantissa(FieldIds.BID), "the image has the update after the gap");
    }

    @Test
    void aSilentDistributorTakesItemsSuspectUntilItAnnouncesAgain()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.isAnnouncing = false;
        final EtaMessage suspect = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(DataStates.SUSPECT, suspect.dataState());

        distributor.isAnnouncing = true;
        final EtaMessage recovered = awaitClass(MsgClasses.REFRESH);
        assertEquals(DataStates.OK, recovered.dataState());
    }

    @Test
    void anUnansweredRequestIsSentAgain()
    {
        distributor.ignoreNextRequestFor("IBM.N");
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(20000L, refresh.mantissa(FieldIds.BID));
    }

    private EtaMessage awaitClass(final int msgClass)
    {
        while (true)
        {
            final EtaMessage message = consumer.awaitMessage(ITEM_STREAM);
            if (message.msgClass() == msgClass)
            {
                return message;
            }
        }
    }
}
