package io.mdhub.p2p.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import io.mdhub.p2p.source.ServiceNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A JSON WebSocket client's text frames, random bytes and mutations of the WebSocket API's own message shapes (login,
 * requests with and without a service, batch and view, close with an id array, post, ping, pong, arrays of them),
 * through the connection's {@link JsonWebSocketAdapter} and the worker's converter as the server reads them. Nothing
 * escapes into the pipeline, the connection stays open, and every message the adapter passes up is RWF whose header
 * the fan-out's flyweight reads.
 */
@FuzzGuarded
class JsonWebSocketFuzzTest
{
    private static final List<String> FRAMES = List.of(
        "{\"ID\":1,\"Domain\":\"Login\",\"Key\":{\"Name\":\"alice\",\"Elements\":{\"ApplicationId\":\"256\"," +
            "\"Position\":\"127.0.0.1\"}}}",
        "{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\"},\"Streaming\":true}",
        "[{\"ID\":3,\"Key\":{\"Name\":\"IBM.N\",\"Service\":\"DIRECT_FEED\"}},{\"Type\":\"Ping\"}]",
        "{\"ID\":4,\"Key\":{\"Name\":[\"TRI.N\",\"IBM.N\",\"T.N\"]},\"View\":[\"BID\",\"ASK\",22]}",
        "{\"ID\":[2,3],\"Type\":\"Close\"}",
        "{\"ID\":1,\"Type\":\"Post\",\"Ack\":true,\"PostID\":7," +
            "\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}," +
            "\"Message\":{\"ID\":0,\"Type\":\"Update\",\"Fields\":{\"BID\":45.5,\"ASK\":46.0}}}",
        "[{\"Type\":\"Pong\"},[{\"ID\":5,\"Domain\":\"Source\",\"Key\":{\"Filter\":63}}]]",
        "{\"ID\":6,\"Domain\":\"Dictionary\",\"Key\":{\"Name\":\"RWFFld\",\"Filter\":7,\"Service\":1}}");

    private static final JsonMessages MESSAGES =
        new JsonMessages(DictionaryLoader.loadBundled(), ServiceNames.single(1, "DIRECT_FEED"), 30);
    private static final InMemoryCounters COUNTERS = new InMemoryCounters(16);
    private static final WebSocketCounters WEBSOCKET_COUNTERS =
        new WebSocketCounters(COUNTERS.manager(), "fuzz");

    private final RwfMsgFlyweight header = new RwfMsgFlyweight();

    /**
     * The dictionary, the converter and the classes of its paths are loaded before the first try, whose allocations
     * are bounded. Every seed frame holds a message besides pings and pongs and passes RWF up. Found so: a short
     * message whose RWF is longer than its JSON (a close of several streams, a view of field ids) did not encode, the
     * converter sizing its RWF buffer by the JSON it parsed; each message now has room beyond its JSON.
     */
    @BeforeContainer
    static void loadTheConverter()
    {
        final JsonWebSocketFuzzTest warmUp = new JsonWebSocketFuzzTest();
        for (final String frame : FRAMES)
        {
            final int up = warmUp.deliver(frame.getBytes(StandardCharsets.UTF_8));
            assertTrue(up >= 1, () -> "RWF messages up: " + up + " from " + frame);
        }
        assertEquals(0, warmUp.deliver("{not json".getBytes(StandardCharsets.UTF_8)), "not JSON: an Error only");
    }

    /**
     * Found by {@link #mutatedFrames}: an empty frame's one message is empty, and asking whether it was an array read
     * past it (IndexOutOfBoundsException out of the adapter, into the pipeline).
     */
    @Example
    void anEmptyFrameIsAnError()
    {
        deliver(new byte[0]);
    }

    @Property
    void randomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        deliver(bytes);
    }

    @Property
    void mutatedFrames(@ForAll("mutated") final byte[] bytes)
    {
        deliver(bytes);
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(
            Arbitraries.of(FRAMES).map((frame) -> frame.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * @return how many RWF messages the adapter passed up.
     */
    private int deliver(final byte[] bytes)
    {
        final EmbeddedChannel channel = new EmbeddedChannel(
            new JsonWebSocketAdapter(MESSAGES, WebSocketListener.MAX_MESSAGE_BYTES, WEBSOCKET_COUNTERS));
        try
        {
            channel.writeInbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(bytes)));
            channel.checkException();
            assertTrue(channel.isOpen(), "a bad frame costs an Error message, not the connection");
            int count = 0;
            Object up;
            while (null != (up = channel.readInbound()))
            {
                count++;
                final ByteBuf rwf = (ByteBuf)up;
                try
                {
                    final byte[] message = new byte[rwf.readableBytes()];
                    rwf.getBytes(rwf.readerIndex(), message);
                    assertTrue(header.wrap(new UnsafeBuffer(message), 0, message.length),
                        "the converter's RWF reads as a message");
                }
                finally
                {
                    rwf.release();
                }
            }
            return count;
        }
        finally
        {
            channel.finishAndReleaseAll();
        }
    }
}
