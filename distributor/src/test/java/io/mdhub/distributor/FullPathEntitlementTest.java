package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.RejectReason;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entitlements over the whole path, real ETA applications at both ends: the entitlement file says which provider
 * login may publish which service and which consumer holds which permission codes; the provider's lock (PermData of
 * its refresh) travels through the distributor and the backbone to the p2p-server, which checks it for every
 * consumer, also when the image comes from a cache (a second fan-out worker, a later request).
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class FullPathEntitlementTest
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
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private FullPathServers servers;
    private WatchedEntitlementFile entitlements;

    @AfterEach
    void close()
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
        CloseHelper.closeAll(servers, entitlements);
    }

    @Test
    void providerRightsAndItemLocksHoldOverTheWholePath() throws Exception
    {
        final Path file = dir.resolve("entitlements");
        Files.writeString(file, FILE);
        entitlements = WatchedEntitlementFile.open(file, null, null);
        servers = FullPathServers.launch(dir, "entitled",
            (distributor) -> distributor.entitlementSource(entitlements).loginThrottle(LoginThrottle.off()),
            (p2p) -> p2p.workers(2).entitlementSource(entitlements));

        // a provider login the file does not know is refused
        final EtaNiProvider stranger = EtaNiProvider.connect(servers.distributor().port());
        closeables.add(stranger);
        stranger.sendLogin("stranger", true);
        final EtaMessage refused = EtaMessage.decode(stranger.awaitMessage());
        assertEquals(MsgClasses.STATUS, refused.msgClass(), refused::toString);
        assertEquals(StateCodes.NOT_ENTITLED, refused.code(), refused::toString);
        assertTrue(refused.text().contains("provider stranger may publish no service"), refused::toString);

        // "feed" may publish NI_PUB but not SECRET_PUB
        final EtaNiProvider feed = EtaNiProvider.connect(servers.distributor().port());
        closeables.add(feed);
        feed.login("feed");
        feed.publishDirectory(1, "NI_PUB");
        feed.publishDirectory(2, "SECRET_PUB");
        MdTests.await(() -> "SECRET_PUB refused", () -> 1 == MdCounters.sum(
            servers.distributor().context().countersManager(), MdCounters.ENTITLEMENT_SERVICES_REFUSED_TYPE_ID));
        publishLocked(feed, -2, 1, "TRI.N", "62", 12340);
        publishLocked(feed, -3, 1, "OPEN.N", null, 500);
        MdTests.await(() -> "the distributor to cache both items",
            () -> 2 == servers.distributor().onEventLoop(ServiceDirectory::itemCount));

        final EtaConsumer alice = consumer(feed, "alice");
        final int serviceId = FullPathServers.awaitService(alice, "NI_PUB").serviceId();
        alice.requestItem(5, serviceId, "TRI.N");
        final EtaMessage image = alice.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
        assertEquals(12340, image.mantissa(FieldIds.BID));

        // bob on both workers (connections alternate): one finds the item open, the other asks the cache for it
        for (int i = 0; i < 2; i++)
        {
            final EtaConsumer bob = consumer(feed, "bob");
            FullPathServers.awaitService(bob, "NI_PUB");
            bob.requestItem(5, serviceId, "TRI.N");
            final EtaMessage denied = bob.awaitMessage(5);
            assertEquals(MsgClasses.STATUS, denied.msgClass(), denied::toString);
            assertEquals(StreamStates.CLOSED, denied.streamState(), denied::toString);
            assertEquals(StateCodes.NOT_ENTITLED, denied.code(), denied::toString);
            assertTrue(denied.text().contains("(lock 62)"), denied::toString);
            bob.requestItem(6, serviceId, "OPEN.N");
            assertEquals(MsgClasses.REFRESH, bob.awaitMessage(6).msgClass());
        }
        assertEquals(2, servers.p2p().context().counters().rejected(RejectReason.NOT_ENTITLED).get());

        // the file no longer lets "feed" publish NI_PUB: the provider is disconnected, alice's stream goes Suspect
        Files.writeString(file, FILE.replace("publish NI_PUB", "publish OTHER_PUB"));
        feed.awaitClosed();
        assertEquals(DataStates.SUSPECT, alice.awaitMessage(5).dataState());
    }

    private EtaConsumer consumer(final EtaNiProvider provider, final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(servers.p2p().port());
        closeables.add(eta);
        eta.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        return eta;
    }

    private static void publishLocked(
        final EtaNiProvider provider, final int streamId, final int serviceId, final String name, final String lock,
        final long bid)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        int flags = RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | RefreshMsgFlags.CLEAR_CACHE |
            RefreshMsgFlags.REFRESH_COMPLETE;
        if (null != lock)
        {
            flags |= RefreshMsgFlags.HAS_PERM_DATA;
            refresh.permData(text(lock));
        }
        refresh.flags(flags);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.qos().timeliness(QosTimeliness.REALTIME);
        refresh.qos().rate(QosRates.TICK_BY_TICK);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(serviceId);
        refresh.msgKey().name(text(name));
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        final byte[] fields = new EtaFieldLists().begin(1, 0).real(FieldIds.BID, bid, RealHints.EXPONENT_2).end();
        final Buffer body = CodecFactory.createBuffer();
        body.data(java.nio.ByteBuffer.wrap(fields));
        refresh.encodedDataBody(body);
        provider.send(refresh::encode);
    }

    private static Buffer text(final String value)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(value);
        return buffer;
    }
}
