package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pServer;

/**
 * What an ADS consumer application does beyond plain streaming, over the whole path (ETA non-interactive provider,
 * distributor, Aeron backbone, p2p-server, ETA consumers): views (a view consumer and a full-image consumer of one
 * item each get exactly their fields, in refreshes and updates; batch + view; a view changed and removed by reissue;
 * a snapshot with a view; an invalid view refused on its stream only); items that wait for their publisher
 * (Open/Suspect, then the data when the provider publishes, with no re-request); posting (on-stream and off-stream
 * posts applied to the distributor's cache and published to every watcher, the ACK to the poster; NAKs with
 * reasons).
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(60)
class FullPathAdsFeaturesEtaTest
{
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_PUB";
    private static final int LATE_SERVICE_ID = 3;
    private static final String LATE_SERVICE = "NI_LATE";
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final List<Integer> VIEW = List.of(FieldIds.BID, FieldIds.ASK);
    private static final List<Integer> ALL = List.of(
        FieldIds.DSPLY_NAME, FieldIds.TRDPRC_1, FieldIds.BID, FieldIds.ASK, FieldIds.ACVOL_1);

    private FullPathServers servers;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private final List<EtaConsumer> consumers = new ArrayList<>();
    private final EtaFieldLists fields = new EtaFieldLists();
    private int nextProviderStream = -2;

    @BeforeAll
    void launch(@TempDir final Path dir)
    {
        servers = FullPathServers.launch(dir, "views");
        distributor = servers.distributor();
        p2p = servers.p2p();
        provider = EtaNiProvider.connect(distributor.port());
        provider.login("views-provider");
        provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME);
    }

    @AfterEach
    void closeConsumers()
    {
        consumers.forEach(EtaConsumer::close);
        consumers.clear();
        provider.service();
    }

    @AfterAll
    void close()
    {
        CloseHelper.closeAll(provider, servers);
    }

    @Test
    void theLoginRefreshSaysViewsAreSupported()
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        final LoginRefresh refresh = eta.login("views");
        assertTrue(refresh.checkHasFeatures() && refresh.features().checkHasSupportViewRequests());
        assertEquals(1, refresh.features().supportViewRequests());
    }

    @Test
    void aViewConsumerAndAFullConsumerOfOneItemEachGetExactlyTheirFields()
    {
        final int stream = publish("VIEW1.N", 100);
        final EtaConsumer full = consumer("full");
        final int serviceId = serviceId(full);
        final EtaConsumer viewer = consumer("viewer");

        full.requestItem(5, serviceId, "VIEW1.N");
        assertEquals(ALL, full.awaitMessage(5).fieldIds());
        viewer.requestView(5, serviceId, "VIEW1.N", true, FieldIds.ASK, FieldIds.BID);
        final EtaMessage refresh = viewer.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertTrue(refresh.isSolicited());
        assertEquals(VIEW, refresh.fieldIds(), "only the view's fields: " + refresh);
        assertEquals(10_000L, refresh.mantissa(FieldIds.BID));
        assertEquals(10_002L, refresh.mantissa(FieldIds.ASK));

        provider.update(stream, fields.begin(0, 0)
            .real(FieldIds.TRDPRC_1, 10_101, RealHints.EXPONENT_2)
            .real(FieldIds.BID, 10_099, RealHints.EXPONENT_2)
            .real(FieldIds.ACVOL_1, 2_000, RealHints.EXPONENT0)
            .end());
        final EtaMessage fullUpdate = full.awaitMessage(5);
        assertEquals(List.of(FieldIds.TRDPRC_1, FieldIds.BID, FieldIds.ACVOL_1), fullUpdate.fieldIds());
        final EtaMessage viewUpdate = viewer.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, viewUpdate.msgClass(), viewUpdate::toString);
        assertEquals(List.of(FieldIds.BID), viewUpdate.fieldIds());
        assertEquals(10_099L, viewUpdate.mantissa(FieldIds.BID));

        // an update with none of the view's fields reaches the full consumer only
        provider.update(stream, fields.begin(0, 0).real(FieldIds.ACVOL_1, 2_100, RealHints.EXPONENT0).end());
        assertEquals(List.of(FieldIds.ACVOL_1), full.awaitMessage(5).fieldIds());
        provider.update(stream, fields.begin(0, 0).real(FieldIds.ASK, 10_103, RealHints.EXPONENT_2).end());
        assertEquals(List.of(FieldIds.ASK), full.awaitMessage(5).fieldIds());
        final EtaMessage next = viewer.awaitMessage(5);
        assertEquals(List.of(FieldIds.ASK), next.fieldIds(), "the ACVOL_1-only update was not sent: " + next);
        assertNull(viewer.pollMessage(5, QUIET));
        assertNull(full.pollMessage(5, QUIET));
    }

    @Test
    void batchWithViewGivesEveryItemTheViewAndAReissueChangesOrRemovesIt()
    {
        final int a = publish("BV1.N", 200);
        publish("BV2.N", 300);
        final EtaConsumer eta = consumer("batch-view");
        final int serviceId = serviceId(eta);

        eta.requestBatchView(10, serviceId, true, new int[] {FieldIds.BID, FieldIds.ASK}, "BV1.N", "BV2.N");
        assertEquals(StreamStates.CLOSED, eta.awaitMessage(10).streamState(), "the batch stream closes");
        assertEquals(VIEW, eta.awaitMessage(11).fieldIds());
        final EtaMessage second = eta.awaitMessage(12);
        assertEquals(VIEW, second.fieldIds());
        assertEquals(30_000L, second.mantissa(FieldIds.BID));

        // reissue with another view: a refresh with the new fields, updates filtered by it
        eta.requestView(11, serviceId, "BV1.N", true, FieldIds.TRDPRC_1);
        assertEquals(List.of(FieldIds.TRDPRC_1), eta.awaitMessage(11).fieldIds());
        provider.update(a, fields.begin(0, 0)
            .real(FieldIds.TRDPRC_1, 20_201, RealHints.EXPONENT_2)
            .real(FieldIds.BID, 20_199, RealHints.EXPONENT_2)
            .end());
        assertEquals(List.of(FieldIds.TRDPRC_1), eta.awaitMessage(11).fieldIds());

        // reissue without a view: every field again
        eta.requestItem(11, serviceId, "BV1.N");
        assertEquals(ALL, eta.awaitMessage(11).fieldIds());
        provider.update(a, fields.begin(0, 0)
            .real(FieldIds.TRDPRC_1, 20_202, RealHints.EXPONENT_2)
            .real(FieldIds.BID, 20_198, RealHints.EXPONENT_2)
            .end());
        assertEquals(List.of(FieldIds.TRDPRC_1, FieldIds.BID), eta.awaitMessage(11).fieldIds());
    }

    @Test
    void aSnapshotWithAViewIsOneRefreshOfTheViewsFields()
    {
        publish("SV1.N", 400);
        final EtaConsumer eta = consumer("snapshot-view");
        eta.requestView(7, serviceId(eta), "SV1.N", false, FieldIds.DSPLY_NAME, FieldIds.ASK);
        final EtaMessage snapshot = eta.awaitMessage(7);
        assertEquals(StreamStates.NON_STREAMING, snapshot.streamState());
        assertEquals(List.of(FieldIds.DSPLY_NAME, FieldIds.ASK), snapshot.fieldIds());
        assertEquals("ITEM 400", snapshot.string(FieldIds.DSPLY_NAME));
        assertNull(eta.pollMessage(7, QUIET));
    }

    @Test
    void aStreamingWatcherThatJoinsASnapshotWithAViewGetsTheWholeItemAndItsUpdates()
    {
        final int stream = publish("SNAPV.N", 950);
        final EtaConsumer snapshot = consumer("snapshot-view");
        final EtaConsumer streaming = consumer("streaming-all");
        final int serviceId = serviceId(snapshot);
        snapshot.requestView(7, serviceId, "SNAPV.N", false, FieldIds.BID);
        streaming.requestItem(8, serviceId, "SNAPV.N");
        assertEquals(List.of(FieldIds.BID), snapshot.awaitMessage(7).fieldIds());
        final EtaMessage image = streaming.awaitMessage(8);
        assertEquals(StreamStates.OPEN, image.streamState(), image::toString);
        assertEquals(ALL, image.fieldIds());
        provider.update(stream, fields.begin(0, 0).real(FieldIds.ASK, 95_003, RealHints.EXPONENT_2).end());
        assertEquals(95_003L, streaming.awaitMessage(8).mantissa(FieldIds.ASK), "the item streams on");
        assertNull(snapshot.pollMessage(7, QUIET), "nothing after the snapshot");
    }

    @Test
    void anInvalidViewIsRefusedOnItsStreamOnly()
    {
        publish("EV1.N", 500);
        final EtaConsumer eta = consumer("element-view");
        final int serviceId = serviceId(eta);
        eta.requestView(8, serviceId, "EV1.N", true, 40_000); // outside the int16 field ids
        final EtaMessage refused = eta.awaitMessage(8);
        assertEquals(StreamStates.CLOSED, refused.streamState());
        assertEquals(StateCodes.USAGE_ERROR, refused.code());
        assertTrue(refused.text().startsWith("Invalid view"), refused::toString);
        eta.requestItem(9, serviceId, "EV1.N");
        assertEquals(ALL, eta.awaitMessage(9).fieldIds(), "the connection serves on");
    }

    @Test
    void aConsumerThatAsksBeforeItsProviderPublishesGetsTheDataWhenItDoes()
    {
        final EtaConsumer eta = consumer("early");
        final int serviceId = serviceId(eta);
        eta.requestItem(5, serviceId, "EARLY.N");
        eta.requestView(6, serviceId, "EARLY.N", true, FieldIds.BID);
        final EtaMessage waiting = eta.awaitMessage(5);
        assertEquals(MsgClasses.STATUS, waiting.msgClass(), waiting::toString);
        assertEquals(StreamStates.OPEN, waiting.streamState());
        assertEquals(DataStates.SUSPECT, waiting.dataState());
        assertEquals("waiting for the provider to publish the item", waiting.text());
        assertEquals(StreamStates.OPEN, eta.awaitMessage(6).streamState());

        final int stream = publish("EARLY.N", 600);
        final EtaMessage image = eta.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
        assertEquals(DataStates.OK, image.dataState());
        assertEquals(ALL, image.fieldIds());
        assertEquals(60_000L, image.mantissa(FieldIds.BID));
        assertEquals(List.of(FieldIds.BID), eta.awaitMessage(6).fieldIds());
        provider.update(stream, fields.begin(0, 0).real(FieldIds.BID, 60_601, RealHints.EXPONENT_2).end());
        assertEquals(60_601L, eta.awaitMessage(5).mantissa(FieldIds.BID));
        assertEquals(60_601L, eta.awaitMessage(6).mantissa(FieldIds.BID));
    }

    @Test
    void anOnStreamPostReachesEveryWatcherAndItsAckThePoster()
    {
        publish("POST1.N", 700);
        final EtaConsumer poster = consumer("poster");
        final EtaConsumer watcher = consumer("watcher");
        final int serviceId = serviceId(poster);
        poster.requestItem(5, serviceId, "POST1.N");
        assertEquals(ALL, poster.awaitMessage(5).fieldIds());
        watcher.requestView(5, serviceId, "POST1.N", true, FieldIds.BID);
        assertEquals(VIEW.subList(0, 1), watcher.awaitMessage(5).fieldIds());

        poster.post(5, serviceId, null, 77, true, fields.begin(0, 0)
            .real(FieldIds.BID, 70_099, RealHints.EXPONENT_2).real(FieldIds.ACVOL_1, 5, RealHints.EXPONENT0).end());

        final EtaMessage viewed = watcher.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, viewed.msgClass(), viewed::toString);
        assertEquals(70_099L, viewed.mantissa(FieldIds.BID), "the post, applied and published by the distributor");
        EtaMessage ack = null;
        boolean sawUpdate = false;
        for (int i = 0; i < 2; i++)
        {
            final EtaMessage message = poster.awaitMessage(5);
            if (MsgClasses.ACK == message.msgClass())
            {
                ack = message;
            }
            else
            {
                assertEquals(70_099L, message.mantissa(FieldIds.BID), message::toString);
                sawUpdate = true;
            }
        }
        assertTrue(sawUpdate, "the poster watches the item too");
        assertTrue(null != ack, "the ACK");
        final AckMsg ackMsg = (AckMsg)ack.msg();
        assertEquals(77, ackMsg.ackId());
        assertTrue(!ackMsg.checkHasNakCode(), () -> "an ACK, not a NAK: " + ackMsg.nakCode());

        // a late consumer gets the posted value in its image: the distributor's cache took it
        final EtaConsumer late = consumer("late");
        late.requestItem(5, serviceId, "POST1.N");
        assertEquals(70_099L, late.awaitMessage(5).mantissa(FieldIds.BID));
    }

    @Test
    void anOffStreamPostNeedsNoOpenStreamAndAPostToNothingIsRefusedWithAReason()
    {
        publish("POST2.N", 800);
        final EtaConsumer poster = consumer("off-stream");
        final int serviceId = serviceId(poster);
        final EtaConsumer watcher = consumer("off-stream-watcher");
        watcher.requestItem(5, serviceId, "POST2.N");
        assertEquals(ALL, watcher.awaitMessage(5).fieldIds());

        poster.post(1, serviceId, "POST2.N", 78, true,
            fields.begin(0, 0).real(FieldIds.ASK, 80_003, RealHints.EXPONENT_2).end());
        final EtaMessage ack = poster.awaitMessage(1);
        assertEquals(MsgClasses.ACK, ack.msgClass(), ack::toString);
        assertEquals(78, ((AckMsg)ack.msg()).ackId());
        assertTrue(!((AckMsg)ack.msg()).checkHasNakCode());
        assertEquals(80_003L, watcher.awaitMessage(5).mantissa(FieldIds.ASK));

        poster.post(1, serviceId, "NOSUCH.N", 79, true,
            fields.begin(0, 0).real(FieldIds.ASK, 1, RealHints.EXPONENT_2).end());
        final AckMsg nak = (AckMsg)poster.awaitMessage(1).msg();
        assertEquals(79, nak.ackId());
        assertEquals(NakCodes.SYMBOL_UNKNOWN, nak.nakCode());
        assertTrue(nak.text().toString().contains("item not found"), nak.text()::toString);

        poster.post(1, 999, "POST2.N", 80, true, fields.begin(0, 0).real(FieldIds.ASK, 1, RealHints.EXPONENT_2).end());
        final AckMsg unknownService = (AckMsg)poster.awaitMessage(1).msg();
        assertEquals(80, unknownService.ackId());
        assertEquals(NakCodes.SOURCE_UNKNOWN, unknownService.nakCode());

        poster.post(42, serviceId, null, 81, true,
            fields.begin(0, 0).real(FieldIds.ASK, 1, RealHints.EXPONENT_2).end());
        final AckMsg notOpen = (AckMsg)poster.awaitMessage(42).msg();
        assertEquals(NakCodes.NOT_OPEN, notOpen.nakCode());
        assertNull(watcher.pollMessage(5, QUIET), "no refused post reached anyone");
    }

    @Test
    void theLoginRefreshSaysPostingIsSupported()
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        final LoginRefresh refresh = eta.login("posting");
        assertEquals(1, refresh.features().supportOMMPost());
    }

    @Test
    void genericMessagesPassBothWaysBetweenAConsumerAndTheNonInteractiveProviderOfTheItem()
    {
        final int stream = publish("GEN.N", 900);
        final EtaConsumer eta = consumer("generic");
        final int serviceId = serviceId(eta);
        eta.requestItem(5, serviceId, "GEN.N");
        assertEquals(ALL, eta.awaitMessage(5).fieldIds());

        provider.send((it) ->
        {
            final GenericMsg generic = (GenericMsg)CodecFactory.createMsg();
            generic.msgClass(MsgClasses.GENERIC);
            generic.domainType(DomainTypes.MARKET_PRICE);
            generic.streamId(stream);
            generic.containerType(DataTypes.FIELD_LIST);
            generic.applyMessageComplete();
            generic.encodedDataBody().data(ByteBuffer.wrap(fields.begin(0, 0).uint(FieldIds.MDH_UPDSEQ, 9).end()));
            return generic.encode(it);
        });
        final EtaMessage fromProvider = eta.awaitMessage(5);
        assertEquals(MsgClasses.GENERIC, fromProvider.msgClass(), fromProvider::toString);
        assertEquals(9L, fromProvider.uint(FieldIds.MDH_UPDSEQ));

        eta.generic(5, DomainTypes.MARKET_PRICE, fields.begin(0, 0).uint(FieldIds.MDH_UPDSEQ, 10).end());
        Msg received;
        do
        {
            received = EtaNiProvider.decode(provider.awaitMessage());
        }
        while (MsgClasses.GENERIC != received.msgClass());
        assertEquals(stream, received.streamId(), "on the provider's own stream of the item");
    }

    @Test
    void aConsumerThatAsksWhileItsProviderIsDownGetsTheDataWhenTheProviderStartsAgain()
    {
        final EtaNiProvider first = EtaNiProvider.connect(distributor.port());
        first.login("late-feed");
        first.publishDirectory(LATE_SERVICE_ID, LATE_SERVICE);
        final EtaConsumer eta = consumer("before-the-feed");
        final int serviceId = serviceId(eta, LATE_SERVICE);
        first.close(); // the feed stops: its service goes down, nothing of it is published

        eta.requestItem(5, serviceId, "FEED.N");
        final EtaMessage waiting = eta.awaitMessage(5);
        assertEquals(StreamStates.OPEN, waiting.streamState(), waiting::toString);
        assertEquals(DataStates.SUSPECT, waiting.dataState());

        try (EtaNiProvider second = EtaNiProvider.connect(distributor.port()))
        {
            second.login("late-feed");
            second.publishDirectory(LATE_SERVICE_ID, LATE_SERVICE);
            second.refresh(-2, LATE_SERVICE_ID, "FEED.N", fields.begin(0, 0)
                .real(FieldIds.BID, 4_200, RealHints.EXPONENT_2).end());
            eta.channel().serviceAlongside(second.channel());
            final EtaMessage image = eta.awaitMessage(5);
            assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
            assertEquals(DataStates.OK, image.dataState());
            assertEquals(4_200L, image.mantissa(FieldIds.BID), "served when published, with no re-request");
        }
    }

    // ------------------------------------------------------------------ helpers

    private int publish(final String name, final int base)
    {
        final int streamId = nextProviderStream--;
        provider.refresh(streamId, NIP_SERVICE_ID, name, fields.begin(0, 0)
            .ascii(FieldIds.DSPLY_NAME, "ITEM " + base)
            .real(FieldIds.TRDPRC_1, 100L * base + 1, RealHints.EXPONENT_2)
            .real(FieldIds.BID, 100L * base, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, 100L * base + 2, RealHints.EXPONENT_2)
            .real(FieldIds.ACVOL_1, 1_000, RealHints.EXPONENT0)
            .end());
        return streamId;
    }

    private EtaConsumer consumer(final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        return eta;
    }

    /**
     * @return the provider's service id as the p2p-server's directory gives it, once the service is there.
     */
    private int serviceId(final EtaConsumer eta)
    {
        return serviceId(eta, SERVICE_NAME);
    }

    private static int serviceId(final EtaConsumer eta, final String serviceName)
    {
        return FullPathServers.awaitService(eta, serviceName).serviceId();
    }
}
