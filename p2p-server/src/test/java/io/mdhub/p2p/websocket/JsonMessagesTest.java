package io.mdhub.p2p.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.source.ServiceNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * A client's text frames through the worker's JSON converter: every message of a frame, however long the frame and
 * in whatever order long and short frames come, becomes its RWF message; what is not JSON or not a message is an
 * error for that message only.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JsonMessagesTest
{
    private static final int SERVICE_ID = 7;
    private static final int UNKNOWN_FID = 31_999;
    private final JsonMessages messages =
        new JsonMessages(DictionaryLoader.loadBundled(), ServiceNames.single(SERVICE_ID, "SVC"), 30);

    @Test
    void aThousandRequestsInOneFrameAfterAShortFrameAreEachARequestOfTheirOwn()
    {
        assertEquals(List.of(requestOn(1, "LOGIN")), kinds("{\"ID\":1,\"Domain\":\"Login\",\"Key\":{\"Name\":\"u\"}}"));
        final StringBuilder frame = new StringBuilder("[");
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1000; i++)
        {
            frame.append(0 == i ? "" : ",").append("{\"ID\":").append(1000 + i)
                .append(",\"Key\":{\"Name\":\"ITEM").append(i).append(".N\",\"Service\":\"SVC\"}}");
            expected.add(requestOn(1000 + i, "MARKET_PRICE"));
        }
        frame.append(']');
        assertTrue(frame.length() > 40_000, "longer than any buffer of the first frame");
        assertEquals(expected, kinds(frame.toString()));
        // and a short one again after the long one
        assertEquals(List.of(requestOn(5, "MARKET_PRICE")), kinds("[{\"ID\":5,\"Key\":{\"Name\":\"A\"}}]"));
    }

    @Test
    void arraysWithinTheFrameAndPingsAreRead()
    {
        assertEquals(List.of(requestOn(2, "MARKET_PRICE"), "ping", requestOn(3, "MARKET_PRICE"), "pong"),
            kinds(" [ [{\"ID\":2,\"Key\":{\"Name\":\"A\"}}, {\"Type\":\"Ping\"}], " +
                "{\"ID\":3,\"Key\":{\"Name\":\"B\"}}, {\"Type\":\"Pong\"} ]"));
    }

    @Test
    void aBadMessageIsAnErrorForItselfAndTheRestOfTheFrameIsRead()
    {
        assertEquals(List.of("error", requestOn(4, "MARKET_PRICE"), "error"),
            kinds("[{\"ID\":9,\"Type\":\"Nonsense\"},{\"ID\":4,\"Key\":{\"Name\":\"A\"}},42]"));
        assertEquals(List.of("error"), kinds("hello"));
        assertEquals(List.of("error"), kinds("{\"ID\":"));
    }

    @Test
    void aFrameThatIsNotJsonIsRefusedWhole()
    {
        assertFalse(messages.parse(frame("[{\"ID\":1},"), 0, "[{\"ID\":1},".length()));
        assertTrue(messages.errorText().startsWith("JSON not read"), messages.errorText());
    }

    @Test
    void anUpdateWithAFieldTheDictionaryLacksConvertsWithTheFieldsItKnows() throws Exception
    {
        final EtaMsgWriter writer = new EtaMsgWriter();
        final MarketPriceEncoder encoder = new MarketPriceEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        encoder.beginUpdate(writer.begin(buffer, 0, buffer.capacity()), 5, UpdateEventTypes.QUOTE)
            .real(FieldIds.BID, 12340, 12)
            .real(UNKNOWN_FID, 1, 12)
            .real(FieldIds.ASK, 12350, 12);
        assertEquals(CodecReturnCodes.SUCCESS, encoder.complete());

        final SharedJson json = messages.shared(buffer, 0, writer.encodedLength());
        assertTrue(null != json, messages::errorText);
        final ByteBuf out = json.writeMessage(Unpooled.buffer(), 5);
        final JsonNode update = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals(123.40, update.path("Fields").path("BID").asDouble(), 1e-9, update::toString);
        assertEquals(123.50, update.path("Fields").path("ASK").asDouble(), 1e-9, update::toString);
        assertEquals(2, update.path("Fields").size(), update::toString);
        assertEquals(1, messages.fieldsLeftOut(), "counted");
        assertTrue(messages.errorText().contains(Integer.toString(UNKNOWN_FID)), messages::errorText);
    }

    private List<String> kinds(final String text)
    {
        final ByteBuf frame = frame(text);
        final List<String> kinds = new ArrayList<>();
        if (!messages.parse(frame, 0, frame.readableBytes()))
        {
            kinds.add("error");
            return kinds;
        }
        int kind;
        final RwfMsgFlyweight header = new RwfMsgFlyweight();
        while (JsonMessages.END != (kind = messages.next()))
        {
            switch (kind)
            {
                case JsonMessages.RWF_MESSAGE ->
                {
                    final ByteBuf rwf = messages.encodeRwf(UnpooledByteBufAllocator.DEFAULT, 64 * 1024);
                    assertTrue(null != rwf, messages::errorText);
                    final byte[] bytes = new byte[rwf.readableBytes()];
                    rwf.readBytes(bytes);
                    assertTrue(header.wrap(new UnsafeBuffer(bytes), 0, bytes.length));
                    assertEquals(MsgClasses.REQUEST, header.msgClass());
                    final int domain = header.domainType();
                    kinds.add(requestOn(header.streamId(), DomainTypes.MARKET_PRICE == domain ? "MARKET_PRICE" :
                        DomainTypes.LOGIN == domain ? "LOGIN" : Integer.toString(domain)));
                }
                case JsonMessages.PING -> kinds.add("ping");
                case JsonMessages.PONG -> kinds.add("pong");
                default -> kinds.add("error");
            }
        }
        return kinds;
    }

    private static String requestOn(final int streamId, final String domain)
    {
        return "request " + streamId + " " + domain;
    }

    private static ByteBuf frame(final String text)
    {
        return Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8));
    }
}
