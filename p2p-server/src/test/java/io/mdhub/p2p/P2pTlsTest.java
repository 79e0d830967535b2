package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.TransportReturnCodes;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.ripc.RipcCounters;
import io.mdhub.common.ripc.RipcDisconnectReason;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.tls.TlsClientAuth;

/**
 * ETA 3.9.1.0's own encrypted consumer (ConnectionTypes.ENCRYPTED over SOCKET: TLS, then RIPC) against a p2p-server
 * whose consumer port speaks TLS: login, refresh and updates end to end; with mutual TLS a consumer without a client
 * certificate is refused; a plain-TCP ETA consumer on the TLS port is refused (counted, logged) while the TLS
 * consumer keeps getting its updates; a plain and a TLS listener side by side on one server.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class P2pTlsTest
{
    private static final int UPDATES = 50;

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final StubMarketDataSource source = new StubMarketDataSource()
        .service(1, "FEED")
        .item(1, "TRI.N", FieldIds.BID, 1);
    private final RipcServer.Context ripc = new RipcServer.Context();
    private P2pServer server;
    private EtaConsumer consumer;
    private EtaChannel refused;

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(refused, consumer, server);
    }

    @Test
    void etaEncryptedConsumerGetsRefreshAndUpdatesWhileAPlainConsumerIsRefused()
    {
        launch(TlsClientAuth.NONE, List.of());
        consumer = EtaConsumer.connectEncrypted("localhost", server.port(), keys.truststore().toString(),
            TlsTestKeys.PASSWORD);
        streamUpdates(0);

        refused = EtaChannel.connectAsync("127.0.0.1", server.port(), EtaChannel.DEFAULT_PING_TIMEOUT_SECONDS,
            Codec.protocolType(), "plain-on-tls");
        assertNotEquals(TransportReturnCodes.SUCCESS, refused.awaitInitResult(), "plain TCP on a TLS port");
        final RipcCounters counters = ripc.counters();
        MdTests.await("the plain consumer's refusal counted",
            () -> counters.disconnects(RipcDisconnectReason.TLS_HANDSHAKE).get() >= 1);
        assertTrue(counters.tlsHandshakeFailures().get() >= 1);

        streamUpdates(UPDATES); // the TLS consumer is untouched
        assertEquals(1, counters.tlsHandshakesCompleted().get());
    }

    @Test
    void mutualTlsServesAConsumerWithACertificateAndRefusesOneWithout()
    {
        launch(TlsClientAuth.REQUIRE, List.of());
        consumer = EtaConsumer.connectEncrypted("localhost", server.port(), keys.clientKeystore().toString(),
            TlsTestKeys.PASSWORD);
        streamUpdates(0);

        refused = EtaChannel.connectAsync("localhost", server.port(), EtaChannel.DEFAULT_PING_TIMEOUT_SECONDS,
            Codec.protocolType(), "no-certificate",
            EtaChannel.encrypted(keys.truststore().toString(), TlsTestKeys.PASSWORD));
        assertNotEquals(TransportReturnCodes.SUCCESS, refused.awaitInitResult(), "no client certificate");
        final RipcCounters counters = ripc.counters();
        MdTests.await("the refusal counted", () -> 1 == counters.disconnects(RipcDisconnectReason.TLS_HANDSHAKE).get());
        assertEquals(1, counters.tlsHandshakeFailures().get());

        streamUpdates(UPDATES);
    }

    @Test
    void aPlainAndATlsListenerServeSideBySide()
    {
        launch(TlsClientAuth.NONE, List.of(new ConsumerListener(0, FlushProfile.LATENCY, false)));
        consumer = EtaConsumer.connectEncrypted("localhost", server.port(0), keys.truststore().toString(),
            TlsTestKeys.PASSWORD);
        streamUpdates(0);
        try (EtaConsumer plain = EtaConsumer.connect(server.port(1)))
        {
            assertEquals(StreamStates.OPEN, plain.login("plain").state().streamState());
            plain.requestItem(5, 1, "TRI.N");
            assertEquals(MsgClasses.REFRESH, plain.awaitMessage(5).msgClass());
            source.update(1, "TRI.N", 0, FieldIds.BID, 1_000);
            assertEquals(1_000L, plain.awaitMessage(5).mantissa(FieldIds.BID));
            assertEquals(1_000L, consumer.awaitMessage(5).mantissa(FieldIds.BID));
        }
    }

    private void launch(final TlsClientAuth clientAuth, final List<ConsumerListener> extra)
    {
        server = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .tlsEnabled(true)
            .tls(keys.serverSettings(clientAuth))
            .extraListeners(extra)
            .componentName("tls-test")
            .itemSourceFactory(source)
            .ripcContext(ripc));
    }

    /**
     * Log in and open the item on the first call (first == 0), then publish updates and check each arrives in order.
     */
    private void streamUpdates(final int first)
    {
        if (0 == first)
        {
            assertEquals(StreamStates.OPEN, consumer.login("tls-user").state().streamState());
            consumer.requestItem(5, 1, "TRI.N");
            assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(5).msgClass());
        }
        for (int i = 0; i < UPDATES; i++)
        {
            source.update(1, "TRI.N", 0, FieldIds.BID, 2 + first + i);
            final EtaMessage update = consumer.awaitMessage(5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(2L + first + i, update.mantissa(FieldIds.BID), "in order, none lost");
        }
    }
}
