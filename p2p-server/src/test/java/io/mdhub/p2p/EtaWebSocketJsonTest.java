package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.ConnectionTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaDictionaries;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * ETA's own WebSocket transport client on the JSON sub-protocols against a p2p-server fed by a stub source: ETA's
 * transport frames the JSON, the test converts it with ETA's converter as ETA's example applications do, and the
 * messages are checked as RWF (JSON numbers keep the value, not RWF's hint): login, an item's refresh and update,
 * its close.
 */
@InterruptAfter(30)
@ExtendWith(EtaTransportExtension.class)
class EtaWebSocketJsonTest
{
    private static final int SERVICE_ID = WebSocketServer.SERVICE_ID;
    private static final String SERVICE_NAME = WebSocketServer.SERVICE_NAME;
    private static final int STREAM = 2;

    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-ws-eta-json-test");

    @ParameterizedTest
    @ValueSource(strings = {"tr_json2", "rssl.json.v2"})
    void etasWebSocketClientOnJsonLogsInGetsAnItemsRefreshAndUpdateAndClosesIt(final String protocol)
    {
        final EtaJsonWire wire = new EtaJsonWire(EtaDictionaries.bundled(), SERVICE_ID, SERVICE_NAME);
        final EtaChannel channel = EtaChannel.connectAsync("127.0.0.1", ws.port(),
            EtaChannel.DEFAULT_PING_TIMEOUT_SECONDS, Codec.JSON_PROTOCOL_TYPE, "mdhub-eta-json-consumer", (options) ->
            {
                options.connectionType(ConnectionTypes.WEBSOCKET);
                options.wSocketOpts().protocols(protocol);
            });
        ws.closeLater(channel);
        channel.awaitActive();
        channel.wire(wire.channel(channel));
        final EtaConsumer consumer = EtaConsumer.on(channel);

        final LoginRefresh login = consumer.login("alice");
        assertEquals(StreamStates.OPEN, login.state().streamState(), wire::framesRead);
        assertEquals(DataStates.OK, login.state().dataState(), wire::framesRead);

        consumer.requestItem(STREAM, SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals("TRI.N", refresh.keyName());
        assertEquals(SERVICE_ID, refresh.keyServiceId());
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertEquals(123.40, refresh.real(FieldIds.BID).toDouble(), 1e-9, refresh::toString);
        assertEquals(123.50, refresh.real(FieldIds.ASK).toDouble(), 1e-9, refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12360);
        final EtaMessage update = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(123.60, update.real(FieldIds.BID).toDouble(), 1e-9, update::toString);

        consumer.closeItem(STREAM);
        consumer.login("alice"); // a login reissue answered proves the close was read before it
        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12370);
        assertNull(consumer.pollMessage(STREAM, Duration.ofMillis(500)), "closed stream stays quiet");
        for (final String frame : wire.framesRead().split("\n"))
        {
            assertTrue(frame.startsWith("["), () -> "ETA reads arrays of messages: " + frame);
        }
        assertEquals(1, ws.server().context().counters().connectionsActive().get(), "one consumer session");
    }
}
