package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.ConnectionTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * ETA's own WebSocket transport client on {@code rssl.rwf} (RIPC inside binary frames) against a p2p-server fed by a
 * stub source: the RIPC handshake, login, an item's refresh and update, its close.
 */
@InterruptAfter(30)
@ExtendWith(EtaTransportExtension.class)
class EtaWebSocketRwfTest
{
    private static final int SERVICE_ID = WebSocketServer.SERVICE_ID;
    private static final int STREAM = 2;

    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-ws-rwf-test");

    @Test
    void etasWebSocketClientOnRsslRwfLogsInGetsAnItemsRefreshAndUpdateAndClosesIt()
    {
        final EtaConsumer consumer = connect("rssl.rwf");
        final LoginRefresh login = consumer.login("alice");
        assertEquals(StreamStates.OPEN, login.state().streamState());
        assertEquals(DataStates.OK, login.state().dataState());
        assertEquals(1, ws.server().context().counters().connectionsActive().get(), "one consumer session");

        consumer.requestItem(STREAM, SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals("TRI.N", refresh.keyName());
        assertEquals(SERVICE_ID, refresh.keyServiceId());
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.isRefreshComplete(), refresh::toString);
        assertEquals(12340, refresh.mantissa(FieldIds.BID), refresh::toString);
        assertEquals(12350, refresh.mantissa(FieldIds.ASK), refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12360);
        final EtaMessage update = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(12360, update.mantissa(FieldIds.BID), update::toString);

        consumer.closeItem(STREAM);
        // the close reaches the worker before the next update: nothing more on the stream
        consumer.login("alice"); // a login reissue answered proves the close was read before it
        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12370);
        assertNull(consumer.pollMessage(STREAM, Duration.ofMillis(500)), "closed stream stays quiet");
    }

    @Test
    void aViewOverRsslRwfCarriesOnlyItsFields()
    {
        final EtaConsumer consumer = connect("rssl.rwf");
        consumer.login("dave");
        consumer.requestView(STREAM, SERVICE_ID, "TRI.N", true, FieldIds.ASK);
        final EtaMessage refresh = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(java.util.List.of(FieldIds.ASK), refresh.fieldIds(), refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12360); // nothing of the view
        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12370, FieldIds.ASK, 12380);
        final EtaMessage update = consumer.awaitMessage(STREAM);
        assertEquals(java.util.List.of(FieldIds.ASK), update.fieldIds(), update::toString);
        assertEquals(12380, update.mantissa(FieldIds.ASK), update::toString);
    }

    @Test
    void aBurstOfUpdatesToTwoItemsArrivesWholeAndInOrder()
    {
        final EtaConsumer consumer = connect("rssl.rwf");
        consumer.login("erin");
        consumer.requestItem(STREAM, SERVICE_ID, "TRI.N");
        consumer.requestItem(STREAM + 1, SERVICE_ID, "IBM.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(STREAM).msgClass());
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(STREAM + 1).msgClass());

        final int updates = 500;
        for (int i = 1; i <= updates; i++)
        {
            // however a flush packs them into RIPC frames, each goes in a binary frame of its own
            ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 20_000 + i);
            ws.source().update(SERVICE_ID, "IBM.N", 100, FieldIds.BID, 30_000 + i);
        }
        for (int i = 1; i <= updates; i++)
        {
            assertEquals(20_000 + i, consumer.awaitMessage(STREAM).mantissa(FieldIds.BID), "TRI.N in order");
            assertEquals(30_000 + i, consumer.awaitMessage(STREAM + 1).mantissa(FieldIds.BID), "IBM.N in order");
        }
    }

    @Test
    void aClientOfferingRwfFirstGetsRwf()
    {
        final EtaConsumer consumer = connect("rssl.rwf, tr_json2");
        assertEquals(StreamStates.OPEN, consumer.login("bob").state().streamState(), "RIPC and RWF spoken");
    }

    @Test
    void theServersRipcPingsReachEtaInsideBinaryFrames()
    {
        final EtaConsumer consumer = connect("rssl.rwf");
        consumer.login("carol");
        final int pingTimeoutSeconds = consumer.channel().channel().pingTimeout();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(pingTimeoutSeconds) / 3 * 2;
        while (0 == consumer.channel().pingsReceived() && System.nanoTime() < deadlineNs)
        {
            assertTrue(consumer.channel().service(), "the connection stays up");
            MdTests.idle(() -> "a ping from the server");
        }
        assertTrue(consumer.channel().pingsReceived() > 0, "a RIPC ping within two thirds of the ping timeout");
        assertEquals(StreamStates.OPEN, consumer.login("carol").state().streamState(), "still served");
    }

    @Test
    void aTextFrameOnRsslRwfClosesTheConnectionWith1003() throws Exception
    {
        final JsonWebSocketClient client = JsonWebSocketClient.connect(ws.port(), "rssl.rwf");
        ws.closeLater(client);
        assertEquals("rssl.rwf", client.protocol());
        client.send("[{\"Type\":\"Ping\"}]");
        final String close = client.awaitClose();
        assertTrue(null != close && close.startsWith("1003 "), () -> "close: " + close);
    }

    private EtaConsumer connect(final String protocols)
    {
        final EtaConsumer consumer = EtaConsumer.connect("127.0.0.1", ws.port(), (options) ->
        {
            options.connectionType(ConnectionTypes.WEBSOCKET);
            options.wSocketOpts().protocols(protocols);
        });
        ws.closeLater(consumer);
        return consumer;
    }
}
