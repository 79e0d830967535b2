package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * Bad input reaches no further than the peer that sent it: a message that names a stream is answered with a Closed
 * status on that stream, one that cannot be attributed closes that connection, a provider-role login is refused, a
 * request before the login is refused, a peer that does not speak RIPC is dropped; meanwhile another consumer keeps
 * receiving its updates without a gap, and the counters say what happened.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class InteractiveSourceBadInputTest
{
    private static final int SERVICE_ID = 1;
    private static final int GOOD_STREAM = 10;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private InteractiveSource source;
    private EtaConsumer good;
    private long goodSeq;

    @BeforeEach
    void setUp()
    {
        source = InteractiveSource.launch(new InteractiveSource.Context().port(0).componentName("sink-bad").rate(500));
        good = consumer("good");
        good.requestItem(GOOD_STREAM, SERVICE_ID, "GOOD.N");
        assertEquals(MsgClasses.REFRESH, good.awaitMessage(GOOD_STREAM).msgClass());
        expectGoodUpdates(5);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        source.close();
    }

    private EtaConsumer consumer(final String user)
    {
        final EtaConsumer consumer = EtaConsumer.connect(source.port());
        closeables.add(consumer);
        if (null != user)
        {
            assertEquals(StreamStates.OPEN, consumer.login(user).state().streamState());
        }
        return consumer;
    }

    private void expectGoodUpdates(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final EtaMessage update = good.awaitMessage(GOOD_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(goodSeq + 1, update.uint(FieldIds.MDH_UPDSEQ), "no gap on the good connection");
            goodSeq++;
        }
    }

    @Test
    void badMessagesAreRefusedOnTheirStreamAndUnreadableOnesCloseThePeer()
    {
        final EtaConsumer bad = consumer("bad");
        // an unknown message class on stream 60: a Closed status on that stream
        final byte[] unknownClass = EtaChannel.encode((it) ->
        {
            final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
            close.msgClass(MsgClasses.CLOSE);
            close.domainType(DomainTypes.MARKET_PRICE);
            close.streamId(60);
            close.containerType(DataTypes.NO_DATA);
            return close.encode(it);
        });
        unknownClass[2] = 99;
        bad.writeRaw(unknownClass);
        assertRefused(bad.awaitMessage(60), StateCodes.USAGE_ERROR);

        // a request without a name on stream 61
        bad.channel().write((it) ->
        {
            final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
            request.msgClass(MsgClasses.REQUEST);
            request.domainType(DomainTypes.MARKET_PRICE);
            request.streamId(61);
            request.containerType(DataTypes.NO_DATA);
            request.flags(RequestMsgFlags.STREAMING);
            request.msgKey().applyHasServiceId();
            request.msgKey().serviceId(SERVICE_ID);
            return request.encode(it);
        });
        final EtaMessage noName = bad.awaitMessage(61);
        assertRefused(noName, StateCodes.USAGE_ERROR);
        assertTrue(noName.text().contains("name"), noName::toString);

        // the connection still works: a request on it is answered
        bad.requestItem(62, SERVICE_ID, "STILL.OK");
        assertEquals(MsgClasses.REFRESH, bad.awaitMessage(62).msgClass());
        expectGoodUpdates(5);

        // three bytes are no RWF message and name no stream: the peer is disconnected
        bad.writeRaw(new byte[]{1, 2, 3});
        bad.awaitClosed();
        MdTests.await(() -> "the bad peer to be gone: " + source.stats(), () -> 1 == source.stats().connections());

        expectGoodUpdates(20);
        final InteractiveSourceStats stats = source.stats();
        assertEquals(2, stats.malformed(), stats::toString);
        assertEquals(2, stats.rejected(), stats::toString);
        assertEquals(1, stats.badPeerDisconnects(), stats::toString);
        assertEquals(1, stats.openItems(), "the bad peer's item went with it: " + stats);
    }

    @Test
    void refusesRequestsBeforeTheLoginAndProviderLogins()
    {
        final EtaConsumer anonymous = consumer(null);
        anonymous.requestItem(5, SERVICE_ID, "EARLY.N");
        final EtaMessage early = anonymous.awaitMessage(5);
        assertRefused(early, StateCodes.USAGE_ERROR);
        assertTrue(early.text().contains("Login"), early::toString);

        final EtaConsumer provider = consumer(null);
        provider.sendLogin("publisher", true);
        final EtaMessage refused = provider.awaitMessage(EtaConsumer.LOGIN_STREAM);
        assertEquals(MsgClasses.STATUS, refused.msgClass(), refused::toString);
        assertEquals(StreamStates.CLOSED, refused.streamState());
        assertTrue(refused.text().contains("Provider logins are not accepted"), refused::toString);
        provider.awaitClosed();

        expectGoodUpdates(10);
        assertEquals(1, source.stats().loginsRefused());
        assertEquals(1, source.stats().logins());
    }

    @Test
    void aPeerThatDoesNotSpeakRipcIsDropped() throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", source.port()))
        {
            socket.setSoTimeout(100);
            final OutputStream out = socket.getOutputStream();
            // a 6-byte frame whose body is no ConnectReq
            out.write(new byte[]{0, 6, 1, (byte)0xAA, (byte)0xBB, (byte)0xCC});
            out.flush();
            final InputStream in = socket.getInputStream();
            final byte[] scratch = new byte[256];
            boolean isClosed = false;
            while (!isClosed)
            {
                try
                {
                    isClosed = in.read(scratch) < 0;
                }
                catch (final SocketTimeoutException ex)
                {
                    good.service();
                    MdTests.checkInterrupted("the server to drop a peer that does not speak RIPC");
                }
                catch (final java.io.IOException ex)
                {
                    isClosed = true; // reset by the server
                }
            }
        }
        expectGoodUpdates(10);
        assertEquals(1, source.stats().connections());
    }

    private static void assertRefused(final EtaMessage status, final int code)
    {
        assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
        assertEquals(StreamStates.CLOSED, status.streamState(), status::toString);
        assertEquals(code, status.code(), status::toString);
    }
}
