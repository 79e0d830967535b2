package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaInteractiveProvider;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.backbone.DistributorBackboneConfiguration;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * Routes: the distributor mounts real ETA 3.9.1.0 interactive providers (it connects out, logs in, reads the
 * directory) and forwards item requests on demand; ETA consumers on a p2p-server fed by the backbone see the
 * provider's items. Sink-driven items exist only while wanted (closed upstream when the last consumer goes); with the
 * cache off every request gets a fresh refresh from the provider; a lost provider turns its items Open/Suspect and
 * they recover on a hot standby, or on the same provider once it is back, without the consumer asking again.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class RouteMountTest
{
    private static final String SERVICE = "SINK_SVC";
    private static final Duration QUIET = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private BackboneNode node;
    private Aeron aeron;
    private Distributor distributor;
    private P2pServer p2p;
    private final List<EtaInteractiveProvider> providers = new ArrayList<>();
    private final List<EtaConsumer> consumers = new ArrayList<>();
    private int maxProviders = DistributorConfiguration.MAX_PROVIDERS_DEFAULT;

    @AfterEach
    void close()
    {
        consumers.forEach(EtaConsumer::close);
        CloseHelper.closeAll(p2p, distributor, aeron, node);
        providers.forEach(EtaInteractiveProvider::close);
    }

    @Test
    void itemsAreRequestedOnDemandAndClosedUpstreamWithTheLastWatcher()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaConsumer first = consumer("first");
        final int serviceId = serviceId(first);
        assertEquals(0, provider.openStreams(), "nothing is requested before a consumer asks");

        first.requestItem(5, serviceId, "IBM.N");
        final EtaMessage refresh = first.awaitMessage(5);
        assertRefresh(refresh, "IBM.N", serviceId);
        assertEquals(10_000, refresh.mantissa(FieldIds.BID));
        assertEquals(1, provider.requests("IBM.N"));
        assertEquals("imaged, Open/Ok, complete", distributorHolds("IBM.N"));

        provider.update("IBM.N");
        final EtaMessage update = first.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(1, update.uint(FieldIds.MDH_UPDSEQ));

        // a second consumer of the open item is answered from the distributor's cache: no new provider request
        final EtaConsumer second = consumer("second");
        second.requestItem(7, serviceId, "IBM.N");
        final EtaMessage cached = second.awaitMessage(7);
        assertRefresh(cached, "IBM.N", serviceId);
        assertEquals(1, cached.uint(FieldIds.MDH_UPDSEQ), "the cached image includes the update");
        assertEquals(1, provider.requests("IBM.N"));

        // the item stays open upstream while one consumer watches, and closes with the last one
        first.closeItem(5);
        provider.update("IBM.N");
        assertEquals(2, second.awaitMessage(7).uint(FieldIds.MDH_UPDSEQ));
        assertEquals(0, provider.closes("IBM.N"));
        second.closeItem(7);
        MdTests.await("the item closed upstream", () -> 1 == provider.closes("IBM.N"));
        assertEquals(0, provider.openStreams());
        MdTests.await("the item left the distributor's cache", () -> 0 == distributor.mxBean().getItemCount());
    }

    @Test
    void withTheCacheOffEveryRequestGetsAFreshRefreshFromTheProvider()
    {
        final EtaInteractiveProvider provider = provider();
        launch(false, "hot-standby", provider);
        final EtaConsumer first = consumer("first");
        final int serviceId = serviceId(first);
        first.requestItem(5, serviceId, "VOD.L");
        assertRefresh(first.awaitMessage(5), "VOD.L", serviceId);
        assertEquals("state only, Open/Ok, complete", distributorHolds("VOD.L"),
            "a service without the cache follows the item's state and keeps no image");
        provider.update("VOD.L");
        provider.update("VOD.L");
        assertEquals(1, first.awaitMessage(5).uint(FieldIds.MDH_UPDSEQ));
        assertEquals(2, first.awaitMessage(5).uint(FieldIds.MDH_UPDSEQ));

        final EtaConsumer second = consumer("second");
        second.requestItem(9, serviceId, "VOD.L");
        final EtaMessage fresh = second.awaitMessage(9);
        assertRefresh(fresh, "VOD.L", serviceId);
        assertEquals(2, fresh.uint(FieldIds.MDH_UPDSEQ));
        assertEquals(2, provider.requests("VOD.L"), "a reissue asked the provider for the second refresh");
        assertEquals(1, provider.openStreams(), "one upstream stream serves both");
        assertNull(first.pollMessage(5, QUIET), "the reissue's refresh went only to the consumer that asked");

        provider.update("VOD.L");
        assertEquals(3, first.awaitMessage(5).uint(FieldIds.MDH_UPDSEQ));
        assertEquals(3, second.awaitMessage(9).uint(FieldIds.MDH_UPDSEQ));
    }

    @Test
    void withTheCacheOffARequestAfterAServiceRecoveryStillGetsAFreshRefresh()
    {
        final EtaInteractiveProvider provider = provider();
        launch(false, "hot-standby", provider);
        final EtaConsumer first = consumer("first");
        final int serviceId = serviceId(first);
        first.requestItem(5, serviceId, "BP.L");
        assertRefresh(first.awaitMessage(5), "BP.L", serviceId);
        for (int i = 0; i < 3; i++)
        {
            first.requestItem(20 + i, serviceId, "X" + i + ".L");
            assertRefresh(first.awaitMessage(20 + i), "X" + i + ".L", serviceId);
        }

        // a p2p-server that lost data asks for the whole service again: the provider's answer goes to every watcher
        final String controlChannel = DistributorBackboneConfiguration.controlChannel().isEmpty() ?
            DistributorBackboneConfiguration.channel() : DistributorBackboneConfiguration.controlChannel();
        final ExclusivePublication publication = aeron.addExclusivePublication(
            controlChannel, DistributorBackboneConfiguration.controlStreamId());
        MdTests.await("control stream connected", publication::isConnected);
        final ControlPublisher recovering = new ControlPublisher(new BackbonePublication(publication, 3,
            new AtomicCounter(new UnsafeBuffer(new byte[64]), 0)), 4242);
        MdTests.await("recovery requested", () -> recovering.requestRecovery(serviceId, -1, 0) > 0);
        final EtaMessage recovery = first.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, recovery.msgClass(), recovery::toString);
        assertEquals(DataStates.OK, recovery.dataState(), recovery::toString);
        assertEquals("BP.L", recovery.keyName());
        assertEquals(2, provider.requests("BP.L"), "the recovery reissued the item upstream");
        for (int i = 0; i < 3; i++)
        {
            final EtaMessage other = first.awaitMessage(20 + i); // one item per duty cycle: every one reissued
            assertEquals(MsgClasses.REFRESH, other.msgClass(), other::toString);
            assertEquals(2, provider.requests("X" + i + ".L"));
        }

        // the recovery's refresh has come and gone: a new request must ask the provider again, not wait for it
        final EtaConsumer second = consumer("second");
        second.requestItem(9, serviceId, "BP.L");
        assertRefresh(second.awaitMessage(9), "BP.L", serviceId);
        assertEquals(3, provider.requests("BP.L"));
        CloseHelper.close(publication);
    }

    @ParameterizedTest(name = "cache {0}")
    @ValueSource(booleans = {false, true})
    void aMultiPartRefreshReachesTheConsumerWhole(final boolean isCaching)
    {
        final EtaInteractiveProvider provider = provider();
        provider.refreshInParts("SHEL.L", 3);
        launch(isCaching, "hot-standby", provider);
        final EtaConsumer first = consumer("first");
        final int serviceId = serviceId(first);
        first.requestItem(5, serviceId, "SHEL.L");
        assertPartsOfOneRefresh(first, 5, 3);
        provider.update("SHEL.L");
        final EtaMessage update = first.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(1, update.uint(FieldIds.MDH_UPDSEQ));

        // a second consumer: the provider's parts again (cache off), or the whole image in one (cache on)
        final EtaConsumer second = consumer("second");
        second.requestItem(9, serviceId, "SHEL.L");
        final EtaMessage image = assertPartsOfOneRefresh(second, 9, isCaching ? 1 : 3);
        assertEquals(3, image.mantissa(FieldIds.ASK), "every part's fields in the image");
        assertNull(first.pollMessage(5, QUIET), "the second consumer's refresh went only to it");
    }

    /**
     * @return the last part.
     */
    private static EtaMessage assertPartsOfOneRefresh(final EtaConsumer consumer, final int streamId, final int parts)
    {
        EtaMessage refresh = null;
        for (int part = 1; part <= parts; part++)
        {
            refresh = consumer.awaitMessage(streamId);
            final EtaMessage seen = refresh;
            assertEquals(MsgClasses.REFRESH, seen.msgClass(), seen::toString);
            assertTrue(seen.isSolicited(), seen::toString);
            assertEquals(part == parts, seen.isRefreshComplete(), seen::toString);
            if (1 == part)
            {
                assertTrue(seen.has(FieldIds.BID), seen::toString);
            }
            else
            {
                assertEquals(part, seen.mantissa(FieldIds.ASK), () -> "parts in order: " + seen);
            }
        }
        return refresh;
    }

    @Test
    void anItemTheProviderRefusesIsClosedForTheConsumer()
    {
        final EtaInteractiveProvider provider = provider();
        provider.refuse("NOPE.N");
        launch(true, "hot-standby", provider);
        final EtaConsumer consumer = consumer("refused");
        consumer.requestItem(5, serviceId(consumer), "NOPE.N");
        final EtaMessage status = consumer.awaitMessage(5);
        assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
        assertEquals(StreamStates.CLOSED, status.streamState(), status::toString);
        MdTests.await("the refused item left the cache", () -> 0 == distributor.mxBean().getItemCount());
    }

    @Test
    void aHotStandbyTakesOverTheItemsOfALostProvider()
    {
        final EtaInteractiveProvider active = provider();
        final EtaInteractiveProvider standby = provider();
        launch(true, "hot-standby", active, standby);
        awaitMounted(2);
        final EtaConsumer consumer = consumer("failover");
        final int serviceId = serviceId(consumer);
        consumer.requestItem(5, serviceId, "A.N");
        consumer.requestItem(6, serviceId, "B.N");
        assertRefresh(consumer.awaitMessage(5), "A.N", serviceId);
        assertRefresh(consumer.awaitMessage(6), "B.N", serviceId);
        assertEquals(2, active.openStreams());
        assertEquals(0, standby.openStreams(), "the standby serves nothing while the active is up");

        providers.remove(active);
        active.close();
        final List<EtaMessage> seen = new ArrayList<>();
        boolean suspectA = false;
        boolean recoveredA = false;
        while (!recoveredA)
        {
            final EtaMessage message = consumer.awaitMessage(5);
            seen.add(message);
            if (MsgClasses.STATUS == message.msgClass() && DataStates.SUSPECT == message.dataState())
            {
                assertEquals(StreamStates.OPEN, message.streamState(), message::toString);
                suspectA = true;
            }
            recoveredA = MsgClasses.REFRESH == message.msgClass() && DataStates.OK == message.dataState();
        }
        assertTrue(suspectA, () -> "A.N went Open/Suspect before it recovered: " + seen);
        MdTests.await("both items on the standby", () -> 2 == standby.openStreams());
        standby.update("B.N");
        EtaMessage update;
        do
        {
            update = consumer.awaitMessage(6);
        }
        while (MsgClasses.UPDATE != update.msgClass());
        assertEquals(1, update.uint(FieldIds.MDH_UPDSEQ), "B.N updates come from the standby now");
    }

    @Test
    void loadBalancingSpreadsItemsAndMovesALostProvidersItems()
    {
        final EtaInteractiveProvider one = provider();
        final EtaInteractiveProvider two = provider();
        launch(true, "load-balance", one, two);
        awaitMounted(2);
        final EtaConsumer consumer = consumer("balance");
        final int serviceId = serviceId(consumer);
        for (int i = 0; i < 6; i++)
        {
            consumer.requestItem(10 + i, serviceId, "LB" + i + ".N");
            assertRefresh(consumer.awaitMessage(10 + i), "LB" + i + ".N", serviceId);
        }
        assertEquals(3, one.openStreams());
        assertEquals(3, two.openStreams());

        providers.remove(one);
        one.close();
        MdTests.await("every item on the surviving provider", () -> 6 == two.openStreams());
    }

    @Test
    void aRestartedProviderRecoversItsItemsWithoutTheConsumerAsking()
    {
        EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaConsumer consumer = consumer("restart");
        final int serviceId = serviceId(consumer);
        consumer.requestItem(5, serviceId, "R.N");
        assertRefresh(consumer.awaitMessage(5), "R.N", serviceId);

        final int port = stop(provider);
        final EtaMessage suspect = consumer.awaitMessage(5);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(DataStates.SUSPECT, suspect.dataState(), suspect::toString);

        provider = restart(port);
        final EtaMessage refresh = consumer.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        provider.update("R.N");
        assertEquals(MsgClasses.UPDATE, consumer.awaitMessage(5).msgClass());
    }

    @Test
    void aRouteIsMountedEvenWhenProviderConnectionsFillTheLimit()
    {
        final int port = stop(provider()); // a port to mount, with no provider on it yet
        maxProviders = 1;
        launch(true, "hot-standby", "127.0.0.1:" + port);
        final EtaNiProvider nip = EtaNiProvider.connect(distributor.port()); // takes the only provider slot
        try
        {
            nip.login("nip");
            MdTests.await("the non-interactive provider counted",
                () -> 1 == distributor.mxBean().getConnections().length);

            restart(port);
            awaitMounted(1); // refused, the route would have closed with no reconnect behind it
            assertTrue(nip.service(), "the non-interactive provider keeps its connection");
        }
        finally
        {
            nip.close();
        }
    }

    @Test
    void anItemAskedForWhileTheProviderIsDownWaitsOpenSuspectAndOpensWhenItIsBack()
    {
        EtaInteractiveProvider provider = provider();
        launch(false, "hot-standby", provider);
        final EtaConsumer consumer = consumer("waiting");
        final int serviceId = serviceId(consumer);
        consumer.requestItem(5, serviceId, "R.N");
        assertRefresh(consumer.awaitMessage(5), "R.N", serviceId);

        final int port = stop(provider);
        final EtaMessage suspect = consumer.awaitMessage(5);
        assertEquals(DataStates.SUSPECT, suspect.dataState(), suspect::toString);

        // asked for while no provider of the service is up: not closed, kept Open/Suspect until one is
        consumer.requestItem(6, serviceId, "NEW.N");
        final EtaMessage waiting = consumer.awaitMessage(6);
        assertEquals(MsgClasses.STATUS, waiting.msgClass(), waiting::toString);
        assertEquals(StreamStates.OPEN, waiting.streamState(), waiting::toString);
        assertEquals(DataStates.SUSPECT, waiting.dataState(), waiting::toString);

        provider = restart(port);
        EtaMessage opened = consumer.awaitMessage(6);
        while (MsgClasses.STATUS == opened.msgClass())
        {
            assertEquals(StreamStates.OPEN, opened.streamState(), opened::toString);
            opened = consumer.awaitMessage(6);
        }
        assertRefresh(opened, "NEW.N", serviceId);
        assertEquals(1, provider.requests("NEW.N"));
        provider.update("NEW.N");
        EtaMessage update;
        do
        {
            update = consumer.awaitMessage(6);
        }
        while (MsgClasses.UPDATE != update.msgClass());
        assertEquals(1, update.uint(FieldIds.MDH_UPDSEQ));
    }

    @Test
    void aWatcherOfAnItemThatMovedGetsTheNewConnectionsImageEvenWhenARequestWaitsForIt()
    {
        EtaInteractiveProvider provider = provider();
        launch(false, "hot-standby", provider);
        final EtaConsumer consumer = consumer("moved");
        final int serviceId = serviceId(consumer);
        consumer.requestItem(5, serviceId, "M.N");
        assertRefresh(consumer.awaitMessage(5), "M.N", serviceId);
        provider.update("M.N");
        provider.update("M.N");
        awaitUpdate(consumer, 5, 1);
        awaitUpdate(consumer, 5, 2);

        final int port = stop(provider);
        assertEquals(DataStates.SUSPECT, consumer.awaitMessage(5).dataState());
        consumer.requestItem(6, serviceId, "M.N"); // waits at the distributor for the provider's next refresh

        // the restarted provider's stream starts again at 0: the first stream's watcher must take its image too
        provider = restart(port);
        EtaMessage image = consumer.awaitMessage(5);
        while (MsgClasses.STATUS == image.msgClass())
        {
            image = consumer.awaitMessage(5);
        }
        assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
        assertEquals(DataStates.OK, image.dataState(), image::toString);
        assertEquals(0, image.uint(FieldIds.MDH_UPDSEQ), "the new stream's image");
        assertRefresh(consumer.awaitMessage(6), "M.N", serviceId);
        provider.update("M.N");
        awaitUpdate(consumer, 5, 1);
        awaitUpdate(consumer, 6, 1);
    }

    private static void awaitUpdate(final EtaConsumer consumer, final int streamId, final long sequence)
    {
        EtaMessage update;
        do
        {
            update = consumer.awaitMessage(streamId);
        }
        while (MsgClasses.UPDATE != update.msgClass());
        assertEquals(sequence, update.uint(FieldIds.MDH_UPDSEQ), update::toString);
    }

    @Test
    void aSecondDistributorMountingTheSameProviderTakesOverWhenTheFirstStops()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final Distributor.Context context = new Distributor.Context()
            .providerPort(0)
            .componentName("route-distributor-2")
            .registerMBean(false)
            .routes("127.0.0.1:" + provider.port())
            .routeReconnectMs(100)
            .maxProviders(maxProviders);
        context.backbone().aeron(aeron).distributorId(2);
        final Distributor second = Distributor.launch(context);
        boolean isSecondOpen = true;
        try
        {
            awaitMounted(distributor, 1);
            awaitMounted(second, 1);
            final EtaConsumer consumer = consumer("distributor-failover");
            final int serviceId = serviceId(consumer);
            consumer.requestItem(5, serviceId, "D.N");
            assertRefresh(consumer.awaitMessage(5), "D.N", serviceId);
            // both distributors heard the request and opened the item; the p2p-server took the first answer and
            // handed the other distributor's interest back, so exactly one keeps the item open upstream
            MdTests.await("both distributors asked, one was told nobody wants its answer", () ->
                2 == provider.requests("D.N") && 1 == provider.closes("D.N") && 1 == provider.openStreams());
            MdTests.await("the closed item left its distributor's cache", () ->
                1 == distributor.mxBean().getItemCount() + second.mxBean().getItemCount());
            final boolean isFirstServing = 1 == distributor.mxBean().getItemCount();
            final Distributor serving = isFirstServing ? distributor : second;
            final Distributor standby = isFirstServing ? second : distributor;
            assertEquals(0, standby.mxBean().getItemCount(), "the standby holds no interest");

            serving.close();
            if (isFirstServing)
            {
                distributor = null;
            }
            else
            {
                isSecondOpen = false;
            }
            final long stoppedNs = System.nanoTime();
            EtaMessage message;
            boolean wasSuspect = false;
            do
            {
                message = consumer.awaitMessage(5);
                wasSuspect |= MsgClasses.STATUS == message.msgClass() && DataStates.SUSPECT == message.dataState();
            }
            while (!(MsgClasses.REFRESH == message.msgClass() && DataStates.OK == message.dataState()));
            assertTrue(wasSuspect, "the item went Open/Suspect before it recovered");
            System.out.printf("distributor failover: D.N recovered %d ms after the serving distributor stopped%n",
                (System.nanoTime() - stoppedNs) / 1_000_000);
            MdTests.await("the standby serves the item", () -> 1 == standby.mxBean().getItemCount());
            provider.update("D.N");
            do
            {
                message = consumer.awaitMessage(5);
            }
            while (MsgClasses.UPDATE != message.msgClass());
        }
        finally
        {
            if (isSecondOpen)
            {
                CloseHelper.close(second);
            }
        }
    }

    @Test
    void anEtaConsumerThatReconnectsToAnotherP2pServerGetsItsItemsAgain()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final P2pServer other = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("route-p2p-2")
            .registerMBean(false)
            .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings()
                .consumerId(2))));
        try
        {
            final EtaConsumer first = consumer("reconnecting");
            final int serviceId = serviceId(first);
            first.requestItem(5, serviceId, "F.N");
            assertRefresh(first.awaitMessage(5), "F.N", serviceId);

            p2p.close(); // the consumer's server goes away
            p2p = null;
            first.awaitClosed();

            // what a reconnecting ETA application does: connect to the next server, log in, request again
            final EtaConsumer again = EtaConsumer.connect(other.port());
            consumers.add(again);
            assertEquals(StreamStates.OPEN, again.login("reconnecting").state().streamState());
            final int otherServiceId = serviceId(again);
            again.requestItem(5, otherServiceId, "F.N");
            assertRefresh(again.awaitMessage(5), "F.N", otherServiceId);
            provider.update("F.N");
            final EtaMessage update = again.awaitMessage(5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        }
        finally
        {
            CloseHelper.close(other);
        }
    }

    @Test
    void aPrivateStreamIsItsOwnStreamToTheProviderSeenByNoOtherConsumerAndGenericMessagesPassBothWays()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaConsumer shared = consumer("shared");
        final int serviceId = serviceId(shared);
        shared.requestItem(5, serviceId, "PRV.N");
        assertRefresh(shared.awaitMessage(5), "PRV.N", serviceId);
        assertEquals(1, provider.requests("PRV.N"));

        final EtaConsumer owner = consumer("owner");
        owner.requestPrivate(6, serviceId, "PRV.N");
        final EtaMessage refresh = owner.awaitMessage(6);
        assertRefresh(refresh, "PRV.N", serviceId);
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.PRIVATE_STREAM), refresh::toString);
        assertEquals(2, provider.requests("PRV.N"), "a stream of its own upstream, not the shared one");
        assertEquals(1, provider.privateRequests("PRV.N"));
        assertNull(shared.pollMessage(5, QUIET), "the private stream's refresh reaches its owner only");

        // a second private stream of the same item is another upstream stream again
        owner.requestPrivate(7, serviceId, "PRV.N");
        assertRefresh(owner.awaitMessage(7), "PRV.N", serviceId);
        assertEquals(2, provider.privateRequests("PRV.N"));

        // the consumer's generic message reaches the provider on the private stream's upstream stream
        owner.generic(6, DomainTypes.MARKET_PRICE, new EtaFieldLists().begin(0, 0).uint(FieldIds.MDH_UPDSEQ, 4242)
            .end());
        final EtaMessage generic = provider.awaitGeneric();
        assertEquals(MsgClasses.GENERIC, generic.msgClass());
        assertEquals(4242L, generic.uint(FieldIds.MDH_UPDSEQ));

        // the provider's generic message on the item reaches each of its streams' watchers
        provider.generic("PRV.N", new EtaFieldLists().begin(0, 0).uint(FieldIds.MDH_UPDSEQ, 77).end());
        for (final int stream : new int[] {6, 7})
        {
            final EtaMessage back = owner.awaitMessage(stream);
            assertEquals(MsgClasses.GENERIC, back.msgClass(), back::toString);
            assertEquals(77L, back.uint(FieldIds.MDH_UPDSEQ));
        }
        assertEquals(MsgClasses.GENERIC, shared.awaitMessage(5).msgClass());

        // closing the private stream closes its upstream stream only
        owner.closeItem(6);
        MdTests.await("the private stream closed upstream", () -> 1 == provider.closes("PRV.N"));
        provider.update("PRV.N");
        assertEquals(MsgClasses.UPDATE, shared.awaitMessage(5).msgClass());
        assertEquals(MsgClasses.UPDATE, owner.awaitMessage(7).msgClass());
        assertNull(owner.pollMessage(6, QUIET), "nothing on the closed private stream");
    }

    @Test
    void theProviderIsAskedForTheUnionOfTheConsumersViewsWidenedAsConsumersWantMore()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaConsumer bid = consumer("bid");
        final int serviceId = serviceId(bid);
        bid.requestView(5, serviceId, "VW.N", true, FieldIds.BID);
        final EtaMessage bidRefresh = bid.awaitMessage(5);
        assertEquals(List.of(FieldIds.BID), bidRefresh.fieldIds(), bidRefresh::toString);
        assertEquals(List.of("[22]"), provider.requestedViews("VW.N"));

        // a consumer of another field: one upstream stream, asked again for both fields
        final EtaConsumer seq = consumer("seq");
        seq.requestView(5, serviceId, "VW.N", true, FieldIds.MDH_UPDSEQ);
        assertEquals(List.of(FieldIds.MDH_UPDSEQ), seq.awaitMessage(5).fieldIds());
        assertEquals(List.of("[22]", "[-4001, 22]"), provider.requestedViews("VW.N"));

        // a consumer of a field already asked for: nothing more upstream
        final EtaConsumer bid2 = consumer("bid2");
        bid2.requestView(5, serviceId, "VW.N", true, FieldIds.BID);
        assertEquals(List.of(FieldIds.BID), bid2.awaitMessage(5).fieldIds());

        // a consumer without a view: every field upstream
        final EtaConsumer all = consumer("all");
        all.requestItem(5, serviceId, "VW.N");
        assertEquals(List.of(FieldIds.BID, FieldIds.MDH_UPDSEQ), all.awaitMessage(5).fieldIds());
        assertEquals(List.of("[22]", "[-4001, 22]", "all"), provider.requestedViews("VW.N"));
        assertEquals(1, provider.openStreams(), "one stream upstream throughout");

        provider.update("VW.N");
        assertEquals(List.of(FieldIds.BID), bid.awaitMessage(5).fieldIds());
        assertEquals(List.of(FieldIds.MDH_UPDSEQ), seq.awaitMessage(5).fieldIds());
        assertEquals(List.of(FieldIds.BID, FieldIds.MDH_UPDSEQ), all.awaitMessage(5).fieldIds());
    }

    @Test
    void aPrivateStreamToANonInteractiveServiceIsRefused()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaNiProvider nip = EtaNiProvider.connect(distributor.port());
        try
        {
            nip.login("nip");
            nip.publishDirectory(9, "NI_ONLY");
            final EtaConsumer consumer = consumer("private-nip");
            int niServiceId = -1;
            for (int stream = 40; niServiceId < 0; stream++)
            {
                consumer.requestDirectory(stream, Directory.ServiceFilterFlags.INFO, false, -1);
                for (final Service service : consumer.awaitMessage(stream).directoryRefresh().serviceList())
                {
                    if ("NI_ONLY".equals(service.info().serviceName().toString()))
                    {
                        niServiceId = service.serviceId();
                    }
                }
            }
            consumer.requestPrivate(8, niServiceId, "ANY.N");
            final EtaMessage refused = consumer.awaitMessage(8);
            assertEquals(StreamStates.CLOSED, refused.streamState(), refused::toString);
            assertTrue(refused.text().contains("interactive providers only"), refused::toString);
        }
        finally
        {
            nip.close();
        }
    }

    @Test
    void aConsumersPostsReachTheMountedProviderAndItsAckAndNakComeBack()
    {
        final EtaInteractiveProvider provider = provider();
        launch(true, "hot-standby", provider);
        final EtaConsumer poster = consumer("poster");
        final int serviceId = serviceId(poster);
        poster.requestItem(5, serviceId, "IBM.N");
        assertRefresh(poster.awaitMessage(5), "IBM.N", serviceId);

        // on-stream: on the route's stream of the open item, with the distributor's postId, ACKed back to the poster
        poster.post(5, serviceId, null, 77, true, new EtaFieldLists().begin(0, 0).real(FieldIds.BID, 12_345, 12).end());
        final EtaInteractiveProvider.ReceivedPost onStream = provider.awaitPost();
        assertTrue(onStream.streamId() >= RouteSession.FIRST_ITEM_STREAM, onStream::toString);
        assertTrue(onStream.isAckRequested(), onStream::toString);
        assertEquals(42, onStream.postUserId(), "the poster's user info passes unchanged");
        assertEquals(12_345, onStream.message().mantissa(FieldIds.BID));
        final AckMsg ack = (AckMsg)poster.awaitMessage(5).msg();
        assertEquals(MsgClasses.ACK, ack.msgClass());
        assertEquals(77, ack.ackId());
        assertTrue(!ack.checkHasNakCode(), () -> "an ACK, not a NAK: " + ack.nakCode());

        // off-stream, to an item nobody has open: on the route's login stream, key naming the provider's service
        provider.answerPosts(NakCodes.DENIED_BY_SRC, "closed for posting");
        poster.post(1, serviceId, "NEW.N", 78, true, new EtaFieldLists().begin(0, 0).real(FieldIds.BID, 1, 12).end());
        final EtaInteractiveProvider.ReceivedPost offStream = provider.awaitPost();
        assertEquals(RouteSession.LOGIN_STREAM, offStream.streamId(), offStream::toString);
        assertEquals("NEW.N", offStream.keyName());
        assertEquals(1, offStream.keyServiceId());
        final AckMsg nak = (AckMsg)poster.awaitMessage(1).msg();
        assertEquals(78, nak.ackId());
        assertEquals(NakCodes.DENIED_BY_SRC, nak.nakCode());
        assertEquals("closed for posting", nak.text().toString());
        assertEquals(0, provider.requests("NEW.N"), "posting opens no item");
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Wait until the distributor has logged in to every route and read each one's directory.
     */
    private void awaitMounted(final int routes)
    {
        awaitMounted(distributor, routes);
    }

    private static void awaitMounted(final Distributor mounting, final int routes)
    {
        MdTests.await(() -> routes + " routes mounted with their service: " +
            java.util.Arrays.toString(mounting.mxBean().getConnections()), () ->
        {
            final String[] connections = mounting.mxBean().getConnections();
            return routes == java.util.Arrays.stream(connections)
                .filter((line) -> line.contains("kind=route") && line.contains("services=1")).count();
        });
    }

    /**
     * Stop a provider as a kill would.
     *
     * @return its port, to start it again on.
     */
    private int stop(final EtaInteractiveProvider provider)
    {
        final int port = provider.port();
        providers.remove(provider);
        provider.close();
        return port;
    }

    /**
     * Start a provider of the service on a port (0: any free one), closed after the test.
     */
    private EtaInteractiveProvider restart(final int port)
    {
        final EtaInteractiveProvider provider = EtaInteractiveProvider.start(1, SERVICE, port);
        providers.add(provider);
        return provider;
    }

    /**
     * @return what the distributor holds of a MarketPrice item of the mounted service: its image or its state only,
     * and its state.
     */
    private String distributorHolds(final String name)
    {
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return distributor.onEventLoop((directory) ->
        {
            final ItemCache cache = directory.service(SERVICE).cache();
            final int handle = cache.handle(DomainTypes.MARKET_PRICE, new UnsafeBuffer(bytes), 0, bytes.length);
            if (ItemCache.NO_HANDLE == handle)
            {
                return "absent";
            }
            final CachedItem item = cache.item(handle);
            return (item.isImaged() ? "imaged" : "state only") + ", " +
                (StreamStates.OPEN == item.streamState() ? "Open" : "not open") + "/" +
                (DataStates.OK == item.dataState() ? "Ok" : "not ok") + ", " +
                (item.isRefreshComplete() ? "complete" : "incomplete");
        });
    }

    private EtaInteractiveProvider provider()
    {
        return restart(0);
    }

    private void launch(final boolean isCaching, final String mirroring, final EtaInteractiveProvider... mounted)
    {
        final StringBuilder routes = new StringBuilder();
        for (final EtaInteractiveProvider provider : mounted)
        {
            routes.append(routes.length() > 0 ? "," : "").append("127.0.0.1:").append(provider.port());
        }
        launch(isCaching, mirroring, routes.toString());
    }

    private void launch(final boolean isCaching, final String mirroring, final String routes)
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        final Distributor.Context context = new Distributor.Context()
            .providerPort(0)
            .componentName("route-distributor")
            .registerMBean(false)
            .routes(routes)
            .routeMirroring(mirroring)
            .routeCacheEnabled(isCaching)
            .routeReconnectMs(100);
        context.backbone().aeron(aeron).recoveryBatch(1); // a whole-service recovery walks its items over cycles
        distributor = Distributor.launch(context);
        p2p = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("route-p2p")
            .cacheEnabled(isCaching) // both caches off: the published latency configuration
            .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings())));
    }

    private EtaConsumer consumer(final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        return eta;
    }

    private static int serviceId(final EtaConsumer eta)
    {
        int directoryStream = 2;
        while (true)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE, false, -1);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            for (final Service service : directory.directoryRefresh().serviceList())
            {
                if (service.checkHasInfo() && SERVICE.equals(service.info().serviceName().toString()) &&
                    1 == service.state().serviceState())
                {
                    return service.serviceId();
                }
            }
            directoryStream++;
            MdTests.idle(() -> SERVICE + " up in the p2p-server's directory");
        }
    }

    private static void assertRefresh(final EtaMessage refresh, final String name, final int serviceId)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.isSolicited(), refresh::toString);
        assertEquals(serviceId, refresh.keyServiceId(), refresh::toString);
        assertEquals(name, refresh.keyName());
    }
}
