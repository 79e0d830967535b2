package io.mdhub.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;

@Timeout(10)
class EtaMarketPriceTest
{
    private final EtaMarketPrice encoder = new EtaMarketPrice();
    private final EtaMarketPrice decoder = new EtaMarketPrice();
    private final DecodeIterator iterator = CodecFactory.createDecodeIterator();

    @Test
    void anUpdateCarriesTheSequenceAndOriginToTheConsumerAndIsOfTheLevelOneClass()
    {
        final Buffer timed = encode((it) -> encoder.encodeUpdate(it, -7, 123_456_789L, 987_654_321_000L));
        final Buffer untimed = encode((it) -> encoder.encodeUpdate(it, -7, 123_456_790L, 0));

        final Msg msg = decode(timed);
        assertEquals(MsgClasses.UPDATE, msg.msgClass());
        assertEquals(-7, msg.streamId());
        assertTrue(decoder.decodeUpdateFields(iterator));
        assertEquals(123_456_789L, decoder.sequence());
        assertEquals(987_654_321_000L, decoder.originNs());

        decode(untimed);
        assertTrue(decoder.decodeUpdateFields(iterator));
        assertEquals(123_456_790L, decoder.sequence());
        assertEquals(0, decoder.originNs());
        // the 74-byte class of the published level-1 tests, with or without the origin time
        assertTrue(untimed.length() >= 60 && timed.length() <= 90, untimed.length() + " / " + timed.length());
    }

    @Test
    void aRefreshIsNotTakenForAnUpdate()
    {
        final Buffer refresh = encode((it) -> encoder.encodeRefresh(it, -2, 1, "ITEM0"));

        final Msg msg = decode(refresh);

        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        assertFalse(decoder.decodeUpdateFields(iterator), "a refresh carries no sequence number");
    }

    private Msg decode(final Buffer buffer)
    {
        final Msg msg = CodecFactory.createMsg();
        iterator.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(iterator));
        return msg;
    }

    private static Buffer encode(final EtaEndpoint.Encoder message)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(EtaMarketPrice.MAX_BYTES);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(bytes);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, message.encode(it));
        final Buffer encoded = CodecFactory.createBuffer();
        encoded.data(bytes, 0, bytes.position());
        return encoded;
    }
}
