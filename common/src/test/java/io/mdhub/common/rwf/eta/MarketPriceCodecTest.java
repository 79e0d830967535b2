package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.InterruptAfter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * MarketPrice encode helpers against ETA's decoder and the dump bytes, and the FieldList decoder against ETA-encoded
 * and captured field lists.
 */
@InterruptAfter(10)
class MarketPriceCodecTest
{
    /** consumer-session: the 57-byte level-1 update. */
    private static final byte[] DUMP_UPDATE = RwfTestSupport.hex(
        "00 09 04 06 00 00 00 05 00 04 01 08 00 07 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e 03"
        + "0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    /** consumer-session: the MarketPrice refresh of TRI.N with 16 fields. */
    private static final byte[] DUMP_REFRESH = RwfTestSupport.hex(
        "00 31 02 06 00 00 00 05 81 e8 04 09 00 16 49 74 65 6d 20 52 65 66 72 65 73 68 20 43 6f"
        + "6d 70 6c 65 74 65 64 02 00 00 22 80 09 07 01 05 54 52 49 2e 4e 01 09 03 01 00 00 00 10 00 02 01"
        + "64 00 03 08 4c 41 42 20 49 54 45 4d 00 04 01 02 00 06 03 0c 30 39 00 0b 00 00 0f 02 03 48 00 10"
        + "04 15 0b 07 e9 00 12 03 0e 1e 05 00 20 04 0e 0f 42 40 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e"
        + "03 0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    private final DataDictionary dictionary = DictionaryLoader.loadBundled();
    private final MarketPriceEncoder encoder = new MarketPriceEncoder();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final EtaMsgReader reader = new EtaMsgReader();
    private final FieldListDecoder fieldListDecoder = new FieldListDecoder();

    private static void writeDumpUpdateFields(final FieldListWriter fields)
    {
        fields.real(FieldIds.BID, 12340, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, 12350, RealHints.EXPONENT_2)
            .real(FieldIds.BIDSIZE, 500, RealHints.EXPONENT0)
            .real(FieldIds.ASKSIZE, 700, RealHints.EXPONENT0)
            .real(FieldIds.TRDPRC_1, 12345, RealHints.EXPONENT_2)
            .real(FieldIds.TRDVOL_1, 100, RealHints.EXPONENT0)
            .time(FieldIds.QUOTIM, 14, 30, 6, 123);
    }

    @Test
    void updateIsByteForByteWhatEtaSent()
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        writeDumpUpdateFields(encoder.beginUpdate(writer.begin(out, 10, 200), 5, UpdateEventTypes.QUOTE));
        assertEquals(CodecReturnCodes.SUCCESS, encoder.complete());
        final byte[] encoded = new byte[writer.encodedLength()];
        out.getBytes(10, encoded);
        assertArrayEquals(DUMP_UPDATE, encoded);
    }

    @Test
    void refreshDecodesWithEtaAndFieldsRoundTrip()
    {
        final ByteBuffer out = ByteBuffer.allocateDirect(512);
        final UnsafeBuffer name = new UnsafeBuffer("xxTRI.N".getBytes(StandardCharsets.US_ASCII));
        final FieldListWriter fields = encoder.beginRefresh(writer.begin(out, 0, 512), 9, 300, name, 2, 5,
            StreamStates.OPEN, DataStates.OK, true, 1);
        fields.uint(FieldIds.PROD_PERM, 100)
            .string(FieldIds.DSPLY_NAME, new UnsafeBuffer("LAB ITEM".getBytes(StandardCharsets.US_ASCII)), 0, 8)
            .enumValue(FieldIds.RDN_EXCHID, 2)
            .blank(FieldIds.NETCHNG_1)
            .enumValue(FieldIds.CURRENCY, 840)
            .date(FieldIds.TRADE_DATE, 21, 11, 2025)
            .real(FieldIds.ACVOL_1, 1_000_000, RealHints.EXPONENT0)
            .uint(FieldIds.MDH_UPDSEQ, 42)
            .integer(FieldIds.MDH_ORGTIM, -123_456_789_012L);
        writeDumpUpdateFields(fields);
        assertEquals(CodecReturnCodes.SUCCESS, encoder.complete());
        assertEquals(0, out.position(), "caller's position untouched");

        final byte[] encoded = new byte[writer.encodedLength()];
        out.get(0, encoded);
        final Msg msg = RwfTestSupport.decode(encoded);
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        assertEquals(9, msg.streamId());
        assertEquals(RefreshMsgFlags.SOLICITED | RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE
            | RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS, msg.flags());
        assertEquals(300, msg.msgKey().serviceId());
        assertEquals("TRI.N", msg.msgKey().name().toString());
        assertEquals(StreamStates.OPEN, ((RefreshMsg)msg).state().streamState());

        final RecordingHandler handler = new RecordingHandler();
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(new UnsafeBuffer(encoded), 0, encoded.length));
        assertEquals(16, fieldListDecoder.decode(reader.iterator(), dictionary, handler));
        assertEquals(List.of("1:uint:100", "3:string:19:LAB ITEM", "4:enum:2", "11:blank:8", "15:enum:840",
            "16:date:21/11/2025", "32:real:1000000/14", "-4001:uint:42", "-4002:int:-123456789012",
            "22:real:12340/12", "25:real:12350/12", "30:real:500/14",
            "31:real:700/14", "6:real:12345/12", "178:real:100/14", "1025:time:14:30:6.123.0.0"), handler.events);
    }

    @Test
    void decodesTheCapturedRefreshFields()
    {
        final RecordingHandler handler = new RecordingHandler();
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(new UnsafeBuffer(DUMP_REFRESH), 0, DUMP_REFRESH.length));
        assertEquals(DataTypes.FIELD_LIST, reader.msg().containerType());
        assertEquals(16, fieldListDecoder.decode(reader.iterator(), dictionary, handler));
        assertEquals(List.of("2:uint:100", "3:string:19:LAB ITEM", "4:enum:2", "6:real:12345/12", "11:blank:8",
            "15:enum:840", "16:date:21/11/2025", "18:time:14:30:5.0.0.0", "32:real:1000000/14", "22:real:12340/12",
            "25:real:12350/12", "30:real:500/14", "31:real:700/14", "6:real:12345/12", "178:real:100/14",
            "1025:time:14:30:6.123.0.0"), handler.events);
    }

    @Test
    void statusAndCloseDecodeWithEta()
    {
        final ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(256);
        try
        {
            assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeStatus(writer.begin(buf, 0, 256), -2,
                StreamStates.CLOSED, DataStates.SUSPECT, StateCodes.NOT_FOUND, "item dropped"));
            buf.writerIndex(writer.encodedLength());
            final byte[] encoded = new byte[buf.readableBytes()];
            buf.getBytes(0, encoded);
            assertArrayEquals(
                RwfTestSupport.hex("00 17 03 06 ff ff ff fe 20 00 22 01 0c 69 74 65 6d 20 64 72 6f 70 70 65 64"),
                encoded);
            final StatusMsg status = (StatusMsg)RwfTestSupport.decode(encoded);
            assertEquals(StateCodes.NOT_FOUND, status.state().code());

            assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeClose(writer.begin(buf, 0, 256), 5));
            final byte[] close = new byte[writer.encodedLength()];
            buf.getBytes(0, close);
            assertArrayEquals(RwfTestSupport.hex("00 08 05 06 00 00 00 05 00 00"), close);
        }
        finally
        {
            buf.release();
        }
    }

    @Test
    void writesIntoAgronaViewsWithAnOffsetIntoTheirMemory()
    {
        final byte[] array = new byte[64];
        final UnsafeBuffer slice = new UnsafeBuffer(array, 7, 40);
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeClose(writer.begin(slice, 3, 30), 5));
        assertEquals(10, writer.encodedLength());
        assertEquals(0x08, array[7 + 3 + 1]);
        assertEquals(0x05, array[7 + 3 + 2]);

        final ByteBuffer direct = ByteBuffer.allocateDirect(64);
        final UnsafeBuffer directSlice = new UnsafeBuffer(direct, 16, 32);
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeClose(writer.begin(directSlice, 2, 30), 6));
        assertEquals(0x06, direct.get(16 + 2 + 7));
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(directSlice, 2, 10));
        assertEquals(6, reader.msg().streamId());
    }

    @Test
    void reportsBufferTooSmall()
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[20]);
        writeDumpUpdateFields(encoder.beginUpdate(writer.begin(out, 0, 20), 5, UpdateEventTypes.QUOTE));
        assertTrue(encoder.complete() < CodecReturnCodes.SUCCESS);
    }

    static final class RecordingHandler implements FieldListHandler
    {
        final List<String> events = new ArrayList<>();

        public void onReal(final int fid, final long mantissa, final int hint)
        {
            events.add(fid + ":real:" + mantissa + "/" + hint);
        }

        public void onUInt(final int fid, final long value)
        {
            events.add(fid + ":uint:" + value);
        }

        public void onInt(final int fid, final long value)
        {
            events.add(fid + ":int:" + value);
        }

        public void onEnum(final int fid, final int value)
        {
            events.add(fid + ":enum:" + value);
        }

        public void onDate(final int fid, final int day, final int month, final int year)
        {
            events.add(fid + ":date:" + day + "/" + month + "/" + year);
        }

        public void onTime(
            final int fid, final int hour, final int minute, final int second, final int milli, final int micro,
            final int nano)
        {
            events.add(fid + ":time:" + hour + ":" + minute + ":" + second + "." + milli + "." + micro + "." + nano);
        }

        public void onString(final int fid, final int dataType, final Buffer value)
        {
            events.add(fid + ":string:" + dataType + ":" + value.toString());
        }

        public void onBlank(final int fid, final int dataType)
        {
            events.add(fid + ":blank:" + dataType);
        }

        public void onOther(final int fid, final int dataType, final Buffer encoded)
        {
            events.add(fid + ":other:" + dataType);
        }
    }
}
