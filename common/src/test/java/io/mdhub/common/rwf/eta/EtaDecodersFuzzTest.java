package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.ElementNames;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The ETA-based request decoders under random bytes and mutated valid messages, each called as the servers call it
 * (read the header with {@link EtaMsgReader}, then decode the payload): {@link LoginRequestDecoder},
 * {@link DirectoryRequestDecoder}, {@link DictionaryRequestDecoder}, {@link DirectoryRefreshDecoder},
 * {@link ViewRequestDecoder}, {@link BatchRequestLists} and {@link FieldListDecoder}. They answer with an ETA return
 * code (or false/-1/null) and never throw.
 */
@FuzzGuarded
class EtaDecodersFuzzTest
{
    private static final DataDictionary DICTIONARY = DictionaryLoader.loadBundled();
    /** RWF's batch flag of a CloseMsg (0x04), which ETA Java does not name. */
    private static final int CLOSE_HAS_BATCH = 0x04;
    private static final String NIP_DIRECTORY_REFRESH =
        "00 16 02 04 ff ff ff ff 81 48 09 09 00 00 02 00 00 80 05 08 00 00 00 03 00 04 07 00 01"
        + "02 01 01 fe 01 40 00 05 02 02 01 fe 01 0b 08 00 0b 04 4e 61 6d 65 11 06 4e 49 5f 50 55 42 06 56"
        + "65 6e 64 6f 72 11 03 4c 61 62 08 49 73 53 6f 75 72 63 65 04 01 01 0c 43 61 70 61 62 69 6c 69 74"
        + "69 65 73 0f fe 00 0a 04 00 00 03 01 05 01 06 01 07 14 44 69 63 74 69 6f 6e 61 72 69 65 73 50 72"
        + "6f 76 69 64 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57 46 45 6e 75 6d 10 44 69"
        + "63 74 69 6f 6e 61 72 69 65 73 55 73 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57"
        + "46 45 6e 75 6d 03 51 6f 53 0f fe 00 06 0c 00 00 01 01 22 10 53 75 70 70 6f 72 74 73 51 6f 53 52"
        + "61 6e 67 65 04 01 00 08 49 74 65 6d 4c 69 73 74 11 0e 5f 45 54 41 5f 49 54 45 4d 5f 4c 49 53 54"
        + "1a 53 75 70 70 6f 72 74 73 4f 75 74 4f 66 42 61 6e 64 53 6e 61 70 73 68 6f 74 73 04 01 00 17 41"
        + "63 63 65 70 74 69 6e 67 43 6f 6e 73 75 6d 65 72 53 74 61 74 75 73 04 01 00 02 02 fe 00 28 08 00"
        + "02 0c 53 65 72 76 69 63 65 53 74 61 74 65 04 01 01 11 41 63 63 65 70 74 69 6e 67 52 65 71 75 65"
        + "73 74 73 04 01 01";
    private static final List<byte[]> MESSAGES = messages();

    private final EtaMsgReader reader = new EtaMsgReader();
    private final LoginRequestDecoder login = new LoginRequestDecoder();
    private final DirectoryRequestDecoder directory = new DirectoryRequestDecoder();
    private final DictionaryRequestDecoder dictionaryRequest = new DictionaryRequestDecoder();
    private final DirectoryRefreshDecoder directoryRefresh = new DirectoryRefreshDecoder();
    private final ViewRequestDecoder view = new ViewRequestDecoder();
    private final BatchRequestLists batch = new BatchRequestLists();
    private final FieldListDecoder fieldList = new FieldListDecoder();
    private final CountingHandler handler = new CountingHandler();

    @Property
    void randomBytes(@ForAll @Size(max = 300) final byte[] bytes)
    {
        decodeAll(bytes);
    }

    @Property
    void mutatedMessages(@ForAll("mutated") final byte[] bytes)
    {
        decodeAll(bytes);
    }

    /**
     * Found by {@link #mutatedMessages}: a NIP provider's directory refresh with one byte changed (offset 36, 0x05 to
     * 0x00, inside the service's filter list) made ETA's Service decode throw a ClassCastException out of
     * {@link DirectoryRefreshDecoder#decode}, past the distributor's check of its return code.
     */
    @Example
    void directoryRefreshThatEtaThrowsAtIsRefusedWithACode()
    {
        final byte[] bytes = RwfTestSupport.hex(
        "00 16 02 04 ff ff ff ff 81 48 09 09 00 00 02 00 00 80 05 08 00 00 00 03 00 04 07 00 01 02 01 01"
        + " fe 01 40 00 00 02 02 01 fe 01 0b 08 00 0b 04 4e 61 6d 65 11 06 4e 49 5f 50 55 42 06 56 65 6e 64"
        + " 6f 72 11 03 4c 61 62 08 49 73 53 6f 75 72 63 65 04 01 01 0c 43 61 70 61 62 69 6c 69 74 69 65 73"
        + " 0f fe 00 0a 04 00 00 03 01 05 01 06 01 07 14 44 69 63 74 69 6f 6e 61 72 69 65 73 50 72 6f 76 69"
        + " 64 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57 46 45 6e 75 6d 10 44 69 63 74 69"
        + " 6f 6e 61 72 69 65 73 55 73 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57 46 45 6e"
        + " 75 6d 03 51 6f 53 0f fe 00 06 0c 00 00 01 01 22 10 53 75 70 70 6f 72 74 73 51 6f 53 52 61 6e 67"
        + " 65 04 01 00 08 49 74 65 6d 4c 69 73 74 11 0e 5f 45 54 41 5f 49 54 45 4d 5f 4c 49 53 54 1a 53 75"
        + " 70 70 6f 72 74 73 4f 75 74 4f 66 42 61 6e 64 53 6e 61 70 73 68 6f 74 73 04 01 00 17 41 63 63 65"
        + " 70 74 69 6e 67 43 6f 6e 73 75 6d 65 72 53 74 61 74 75 73 04 01 00 02 02 fe 00 28 08 00 02 0c 53"
        + " 65 72 76 69 63 65 53 74 61 74 65 04 01 01 11 41 63 63 65 70 74 69 6e 67 52 65 71 75 65 73 74 73"
        + " 04 01 01");
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        read(buffer, bytes.length);
        assertEquals(CodecReturnCodes.FAILURE, directoryRefresh.decode(reader));
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(Arbitraries.of(MESSAGES));
    }

    private void decodeAll(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (CodecReturnCodes.SUCCESS != reader.read(buffer, 0, bytes.length))
        {
            return;
        }
        if (CodecReturnCodes.SUCCESS == login.decode(reader))
        {
            login.isProvider();
            login.singleOpen();
            login.allowSuspectData();
        }
        read(buffer, bytes.length);
        if (CodecReturnCodes.SUCCESS == directory.decode(reader))
        {
            directory.filter();
            directory.streaming();
            directory.serviceId();
            directory.serviceName();
        }
        read(buffer, bytes.length);
        if (CodecReturnCodes.SUCCESS == dictionaryRequest.decode(reader))
        {
            dictionaryRequest.isFieldDictionary();
            dictionaryRequest.isEnumTypeDictionary();
            dictionaryRequest.streaming();
        }
        read(buffer, bytes.length);
        if (CodecReturnCodes.SUCCESS == directoryRefresh.decode(reader))
        {
            directoryRefresh.services().size();
        }
        read(buffer, bytes.length);
        if (view.decode(reader.iterator()))
        {
            assertTrue(view.view().size() <= ViewRequestDecoder.MAX_FIELDS);
        }
        read(buffer, bytes.length);
        final int names = batch.decodeItemList(reader.iterator());
        for (int i = 0; i < names; i++)
        {
            final int offset = batch.nameOffset(i);
            final int length = batch.nameLength(i);
            assertTrue(length <= BatchRequestLists.MAX_NAME_LENGTH && offset + length <= batch.names().capacity());
        }
        read(buffer, bytes.length);
        final IntArrayList streamIds = batch.decodeStreamIdList(reader.iterator());
        assertTrue(null == streamIds || streamIds.size() <= bytes.length);
        read(buffer, bytes.length);
        if (DataTypes.FIELD_LIST == reader.msg().containerType())
        {
            handler.entries = 0;
            final int count = fieldList.decode(reader.iterator(), DICTIONARY, handler);
            assertTrue(count < 0 || count == handler.entries);
        }
    }

    private void read(final UnsafeBuffer buffer, final int length)
    {
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(buffer, 0, length), "the header read the same again");
    }

    private static List<byte[]> messages()
    {
        final List<byte[]> messages = new ArrayList<>();
        messages.add(RwfTestSupport.hex("00 59 01 01 00 00 00 01 04 00 80 4f 26 07 6c 61 62 75 73 65 72 01 05 80 42"
            + "08 00 03 0d 41 70 70 6c 69 63 61 74 69 6f 6e 49 64 11 03 32 35 36 0f 41 70 70 6c 69 63 61 74 69 6f"
            + "6e 4e 61 6d 65 11 03 65 74 61 08 50 6f 73 69 74 69 6f 6e 11 0c 31 32 37 2e 30 2e 30 2e 31 2f 76 6d"));
        messages.add(RwfTestSupport.hex("00 0f 01 04 00 00 00 02 04 00 80 05 08 00 00 00 07"));
        messages.add(RwfTestSupport.hex("00 17 01 05 00 00 00 03 00 00 80 0d 0b 01 06 52 57 46 46 6c 64 00 00 00 07"));
        messages.add(RwfTestSupport.hex(NIP_DIRECTORY_REFRESH));
        messages.add(marketPriceRefresh());
        messages.add(viewRequest(FieldView.of(22, 25, 30, 31)));
        messages.add(batchRequest("TRI.N", "IBM.N", ""));
        messages.add(batchClose(5, 6, 7));
        return messages;
    }

    private static byte[] marketPriceRefresh()
    {
        final ByteBuffer out = ByteBuffer.allocate(512);
        final EtaMsgWriter writer = new EtaMsgWriter();
        final MarketPriceEncoder encoder = new MarketPriceEncoder();
        final UnsafeBuffer name = new UnsafeBuffer("TRI.N".getBytes(StandardCharsets.US_ASCII));
        encoder.beginRefresh(writer.begin(out, 0, 512), 9, 300, name, 0, 5, StreamStates.OPEN, DataStates.OK, true, 1)
            .uint(FieldIds.PROD_PERM, 100)
            .string(FieldIds.DSPLY_NAME, new UnsafeBuffer("LAB ITEM".getBytes(StandardCharsets.US_ASCII)), 0, 8)
            .enumValue(FieldIds.CURRENCY, 840)
            .blank(FieldIds.NETCHNG_1)
            .date(FieldIds.TRADE_DATE, 21, 11, 2025)
            .real(FieldIds.ACVOL_1, 1_000_000, RealHints.EXPONENT0)
            .integer(FieldIds.MDH_ORGTIM, -123_456_789_012L);
        check(encoder.complete());
        final byte[] bytes = new byte[writer.encodedLength()];
        out.get(0, bytes);
        return bytes;
    }

    private static RequestMsg request(final int flags)
    {
        final RequestMsg msg = (RequestMsg)CodecFactory.createMsg();
        msg.msgClass(MsgClasses.REQUEST);
        msg.domainType(DomainTypes.MARKET_PRICE);
        msg.streamId(5);
        msg.containerType(DataTypes.ELEMENT_LIST);
        msg.flags(flags | RequestMsgFlags.STREAMING);
        msg.msgKey().applyHasServiceId();
        msg.msgKey().serviceId(1);
        return msg;
    }

    private static byte[] viewRequest(final FieldView fields)
    {
        final RequestMsg msg = request(RequestMsgFlags.HAS_VIEW);
        msg.msgKey().applyHasName();
        msg.msgKey().name().data("TRI.N");
        final Encoding encoding = new Encoding(msg);
        check(msg.encodeInit(encoding.iterator, 0));
        check(new ViewRequestEncoder().encode(encoding.iterator, fields));
        check(encoding.endMsg());
        return encoding.bytes();
    }

    private static byte[] batchRequest(final String... names)
    {
        final Encoding encoding = new Encoding(request(RequestMsgFlags.HAS_BATCH));
        check(encoding.msg.encodeInit(encoding.iterator, 0));
        final ElementEntry entry = encoding.beginList(ElementNames.BATCH_ITEM_LIST, DataTypes.ASCII_STRING);
        final Buffer name = CodecFactory.createBuffer();
        for (final String text : names)
        {
            name.data(text);
            check(CodecFactory.createArrayEntry().encode(encoding.iterator, name));
        }
        encoding.endList(entry);
        check(encoding.endMsg());
        return encoding.bytes();
    }

    private static byte[] batchClose(final int... streamIds)
    {
        final CloseMsg msg = (CloseMsg)CodecFactory.createMsg();
        msg.msgClass(MsgClasses.CLOSE);
        msg.domainType(DomainTypes.MARKET_PRICE);
        msg.streamId(1);
        msg.containerType(DataTypes.ELEMENT_LIST);
        msg.flags(CLOSE_HAS_BATCH);
        final Encoding encoding = new Encoding(msg);
        check(msg.encodeInit(encoding.iterator, 0));
        final ElementEntry entry = encoding.beginList(ElementNames.BATCH_STREAMID_LIST, DataTypes.INT);
        final Int value = CodecFactory.createInt();
        for (final int streamId : streamIds)
        {
            value.value(streamId);
            check(CodecFactory.createArrayEntry().encode(encoding.iterator, value));
        }
        encoding.endList(entry);
        check(encoding.endMsg());
        return encoding.bytes();
    }

    private static void check(final int result)
    {
        assertTrue(result >= CodecReturnCodes.SUCCESS, () -> CodecReturnCodes.toString(result));
    }

    /**
     * One message being encoded with ETA, its payload an ElementList with one Array entry.
     */
    private static final class Encoding
    {
        final ByteBuffer bytes = ByteBuffer.allocate(1024);
        final EncodeIterator iterator = CodecFactory.createEncodeIterator();
        final ElementList list = CodecFactory.createElementList();
        final Array array = CodecFactory.createArray();
        final Msg msg;

        Encoding(final Msg msg)
        {
            this.msg = msg;
            final Buffer buffer = CodecFactory.createBuffer();
            buffer.data(bytes);
            iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        }

        ElementEntry beginList(final Buffer name, final int primitiveType)
        {
            list.applyHasStandardData();
            check(list.encodeInit(iterator, null, 0));
            final ElementEntry entry = CodecFactory.createElementEntry();
            entry.name(name);
            entry.dataType(DataTypes.ARRAY);
            check(entry.encodeInit(iterator, 0));
            array.primitiveType(primitiveType);
            check(array.encodeInit(iterator));
            return entry;
        }

        void endList(final ElementEntry entry)
        {
            check(array.encodeComplete(iterator, true));
            check(entry.encodeComplete(iterator, true));
            check(list.encodeComplete(iterator, true));
        }

        int endMsg()
        {
            return msg.encodeComplete(iterator, true);
        }

        byte[] bytes()
        {
            final byte[] out = new byte[bytes.position()];
            bytes.get(0, out);
            return out;
        }
    }

    /**
     * Counts the entries the FieldList decoder hands over.
     */
    private static final class CountingHandler implements FieldListHandler
    {
        int entries;

        @Override
        public void onReal(final int fid, final long mantissa, final int hint)
        {
            entries++;
        }

        @Override
        public void onUInt(final int fid, final long value)
        {
            entries++;
        }

        @Override
        public void onInt(final int fid, final long value)
        {
            entries++;
        }

        @Override
        public void onEnum(final int fid, final int value)
        {
            entries++;
        }

        @Override
        public void onDate(final int fid, final int day, final int month, final int year)
        {
            entries++;
        }

        @Override
        public void onTime(
            final int fid, final int hour, final int minute, final int second, final int millisecond,
            final int microsecond, final int nanosecond)
        {
            entries++;
        }

        @Override
        public void onString(final int fid, final int dataType, final Buffer value)
        {
            entries++;
        }

        @Override
        public void onBlank(final int fid, final int dataType)
        {
            entries++;
        }

        @Override
        public void onOther(final int fid, final int dataType, final Buffer encoded)
        {
            entries++;
        }
    }
}
