package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MapFlags;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * A cached image of a Map item (MarketByPrice) fed with ETA-encoded messages — a refresh of FieldList entries, then
 * updates that ADD, UPDATE and DELETE entries — written back out by {@link ImageRefreshEncoder} with ETA's Map encoder
 * and decoded by ETA: the refresh holds exactly the entries a model of the actions expects, every one an ADD, with the
 * key type, key field id, summary data and permission data of the provider's messages. A Map the image cannot follow,
 * and payloads other than FieldList and Map, are refused with a text saying why; a malformed Map changes nothing.
 */
@InterruptAfter(30)
class MapImageTest
{
    private static final int SERVICE_ID = 9;
    private static final String NAME = "VOD.L";
    private static final int ORDER_PRC = 3427;
    private static final int ORDER_SIDE = 3428;
    private static final int ORDER_SIZE = 3430;
    private static final int NO_ORD = 3432;
    private static final int QUOTIM_MS = 3855;

    private final EtaFieldLists fields = new EtaFieldLists();
    private final EtaMaps maps = new EtaMaps();
    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();
    private final ImageScratch scratch = new ImageScratch();
    private final CachedImage image = new CachedImage(DomainTypes.MARKET_BY_PRICE);
    private final ImageRefreshEncoder encoder = new ImageRefreshEncoder();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(1024);
    /** What the image should hold: key to field id to value bytes (hex). */
    private final Map<String, Map<Integer, String>> model = new TreeMap<>();

    // ------------------------------------------------------------------ messages

    private RwfMsgFlyweight wrap(final byte[] bytes)
    {
        assertTrue(msg.wrap(new UnsafeBuffer(bytes), 0, bytes.length), () -> msg.errorReason());
        return msg;
    }

    private static byte[] refresh(final int flags, final int containerType, final byte[] body)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_BY_PRICE);
        refresh.streamId(-7);
        refresh.containerType(containerType);
        refresh.flags(flags | RefreshMsgFlags.HAS_MSG_KEY);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(1);
        refresh.msgKey().name(RwfTestSupport.etaBuffer(NAME));
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        refresh.encodedDataBody(RwfTestSupport.etaBuffer(body));
        return RwfTestSupport.encode(refresh);
    }

    private static byte[] fullRefresh(final byte[] map)
    {
        return refresh(RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, DataTypes.MAP, map);
    }

    private static byte[] update(final int containerType, final byte[] body)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_BY_PRICE);
        update.streamId(-7);
        update.containerType(containerType);
        update.encodedDataBody(RwfTestSupport.etaBuffer(body));
        return RwfTestSupport.encode(update);
    }

    private byte[] level(final long price, final String side, final long size, final long orders)
    {
        return fields.begin(0, 0)
            .real(ORDER_PRC, price, 12)
            .enumValue(ORDER_SIDE, "B".equals(side) ? 1 : 2)
            .real(ORDER_SIZE, size, 14)
            .uint(NO_ORD, orders)
            .end();
    }

    private void applyRefresh(final byte[] message)
    {
        assertTrue(image.applyRefresh(wrap(message), scratch), scratch::errorDescription);
    }

    private void applyUpdate(final byte[] map)
    {
        assertTrue(image.applyUpdate(wrap(update(DataTypes.MAP, map)), scratch), scratch::errorDescription);
    }

    // ------------------------------------------------------------------ the model

    private void modelAdd(final String key, final byte[] fieldList)
    {
        model.put(key, EtaMaps.fields(fieldList));
    }

    private void modelUpdate(final String key, final byte[] fieldList)
    {
        model.computeIfAbsent(key, (k) -> new TreeMap<>()).putAll(EtaMaps.fields(fieldList));
    }

    // ------------------------------------------------------------------ writing the image out

    private byte[] encode(final int streamId, final boolean solicited)
    {
        final ByteBuffer name = ByteBuffer.wrap(NAME.getBytes(StandardCharsets.US_ASCII));
        out.checkLimit(image.encodedPayloadLength() + 256);
        final int length = encoder.encode(image, streamId, SERVICE_ID, name, NAME.length(), solicited, out, 0,
            out.capacity());
        assertTrue(length > 0, () -> "encode result " + CodecReturnCodes.toString(length));
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        return bytes;
    }

    private EtaMaps.Decoded encodeAndDecode()
    {
        final byte[] bytes = encode(42, true);
        final RefreshMsg refresh = (RefreshMsg)RwfTestSupport.decode(bytes);
        assertEquals(DomainTypes.MARKET_BY_PRICE, refresh.domainType());
        assertEquals(DataTypes.MAP, refresh.containerType());
        assertEquals(42, refresh.streamId());
        assertTrue(refresh.checkRefreshComplete());
        assertTrue(refresh.checkClearCache());
        assertEquals(SERVICE_ID, refresh.msgKey().serviceId());
        assertEquals(NAME, refresh.msgKey().name().toString());
        final EtaMaps.Decoded decoded = EtaMaps.decodePayload(bytes);
        for (final EtaMaps.Entry entry : decoded.entries)
        {
            assertEquals(MapEntryActions.ADD, entry.action, () -> "every entry of a refresh is an ADD: " + decoded);
        }
        return decoded;
    }

    private void assertImageEqualsModel()
    {
        final EtaMaps.Decoded decoded = encodeAndDecode();
        assertEquals(model, decoded.fieldsByKey(), decoded::toString);
        assertEquals(model.size(), decoded.entries.size(), "one entry per key");
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void refreshAndAddUpdateDeleteComeBackAsTheCurrentEntries()
    {
        final byte[] summary = fields.begin(0, 0).enumValue(FieldIds.CURRENCY, 840).uint(QUOTIM_MS, 1000).end();
        final byte[] b100 = level(10000, "B", 500, 3);
        final byte[] b99 = level(9900, "B", 200, 1);
        final byte[] a101 = level(10100, "A", 700, 4);
        applyRefresh(fullRefresh(maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, ORDER_PRC, summary, false)
            .add("100B", b100).add("99B", b99).add("101A", a101).end()));
        modelAdd("100B", b100);
        modelAdd("99B", b99);
        modelAdd("101A", a101);
        assertTrue(image.isServable());
        assertTrue(image.isMap());
        assertNull(image.noImageText());
        assertImageEqualsModel();

        // ADD a level, UPDATE one (a changed field and one it did not have), DELETE one, ADD over an existing one
        final byte[] a102 = level(10200, "A", 100, 1);
        final byte[] b100Change = fields.begin(0, 0).real(ORDER_SIZE, 800, 14).uint(NO_ORD, 5)
            .time(FieldIds.TRDTIM_1, 9, 30, 1, 250).end();
        final byte[] a101Whole = fields.begin(0, 0).real(ORDER_PRC, 10100, 12).real(ORDER_SIZE, 50, 14).end();
        applyUpdate(maps.begin()
            .add("102A", a102)
            .update("100B", b100Change)
            .delete("99B")
            .add("101A", a101Whole)
            .end());
        modelAdd("102A", a102);
        modelUpdate("100B", b100Change);
        model.remove("99B");
        modelAdd("101A", a101Whole);
        assertImageEqualsModel();

        // UPDATE of a key the image lacks adds it; DELETE of an unknown key is nothing; new summary data replaces
        final byte[] b98 = fields.begin(0, 0).real(ORDER_PRC, 9800, 12).real(ORDER_SIZE, 1, 14).end();
        final byte[] newSummary = fields.begin(0, 0).uint(QUOTIM_MS, 2000).end();
        applyUpdate(maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, newSummary, false)
            .update("98B", b98)
            .delete("NOPE")
            .update("100B", fields.begin(0, 0).real(ORDER_SIZE, 801, 14).real(ORDER_SIZE, 802, 14).end())
            .end());
        modelUpdate("98B", b98);
        modelUpdate("100B", fields.begin(0, 0).real(ORDER_SIZE, 802, 14).end()); // the last value wins
        assertImageEqualsModel();

        final EtaMaps.Decoded decoded = encodeAndDecode();
        assertEquals(DataTypes.BUFFER, decoded.keyPrimitiveType);
        assertEquals(DataTypes.FIELD_LIST, decoded.containerType);
        assertEquals(ORDER_PRC, decoded.keyFieldId, "the refresh's key field id is kept");
        assertArrayEquals(newSummary, decoded.summary, "the summary of the last message that had one");
        assertEquals(0, decoded.flags & MapFlags.HAS_PER_ENTRY_PERM_DATA);

        // a merged entry keeps its fields in the order they first came, then the new ones
        final EtaMaps.Entry merged = decoded.entries.stream().filter((e) -> "100B".equals(e.key)).findFirst()
            .orElseThrow();
        assertEquals(Arrays.asList(ORDER_PRC, ORDER_SIDE, ORDER_SIZE, NO_ORD, FieldIds.TRDTIM_1),
            Arrays.asList(EtaFieldLists.decode(merged.payload).keySet().toArray()));
    }

    @Test
    void multiPartRefreshClearsOnFirstPartAndIsServableWhenComplete()
    {
        final byte[] b1 = level(100, "B", 1, 1);
        final byte[] b2 = level(99, "B", 2, 1);
        final byte[] a1 = level(101, "A", 3, 1);
        applyRefresh(fullRefresh(maps.begin().add("OLD", b1).end()));

        applyRefresh(refresh(RefreshMsgFlags.CLEAR_CACHE, DataTypes.MAP, maps.begin().add("B1", b1).add("B2", b2)
            .end()));
        assertFalse(image.isServable(), "first part only");
        applyRefresh(refresh(RefreshMsgFlags.REFRESH_COMPLETE, DataTypes.MAP, maps.begin().add("A1", a1).end()));
        assertTrue(image.isServable());
        modelAdd("B1", b1);
        modelAdd("B2", b2);
        modelAdd("A1", a1);
        assertImageEqualsModel();
    }

    @Test
    void manyEntriesAddedUpdatedAndDeletedAtRandomMatchTheModel()
    {
        final Random random = new Random(20250314L);
        applyRefresh(fullRefresh(new EtaMaps().begin(DataTypes.UINT, DataTypes.FIELD_LIST, -1, null, false).end()));
        for (int round = 0; round < 60; round++)
        {
            final EtaMaps update = maps.begin(DataTypes.UINT, DataTypes.FIELD_LIST, -1, null, false);
            final Map<String, Integer> actions = new HashMap<>();
            for (int i = 0; i < 80; i++)
            {
                final String key = Long.toString(random.nextInt(3000) * 7919L);
                if (actions.containsKey(key))
                {
                    continue; // one action per key and message keeps the model simple
                }
                final int action = 1 + random.nextInt(3);
                actions.put(key, action);
                final StringBuilder text = new StringBuilder();
                for (int n = random.nextInt(40); n > 0; n--)
                {
                    text.append((char)('a' + random.nextInt(26)));
                }
                final byte[] body = fields.begin(0, 0)
                    .real(ORDER_SIZE, random.nextInt(1_000_000), 14)
                    .ascii(3 + random.nextInt(3), text.toString())
                    .end();
                if (MapEntryActions.DELETE == action)
                {
                    update.delete(key);
                    model.remove(key);
                }
                else if (MapEntryActions.ADD == action)
                {
                    update.entry(action, key, null, body);
                    modelAdd(key, body);
                }
                else
                {
                    update.entry(action, key, null, body);
                    modelUpdate(key, body);
                }
            }
            applyUpdate(update.end());
            if (0 == round % 10)
            {
                assertImageEqualsModel();
            }
        }
        assertImageEqualsModel();
        assertEquals(model.size(), image.mapImage().entryCount());
    }

    @Test
    void entryPermissionDataIsKeptAndWrittenBack()
    {
        final byte[] perm = {0x03, 0x01, 0x2C};
        final byte[] b1 = level(100, "B", 1, 1);
        applyRefresh(fullRefresh(maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, true)
            .entry(MapEntryActions.ADD, "B1", perm, b1).add("B2", b1).end()));
        applyUpdate(maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, true)
            .update("B1", fields.begin(0, 0).real(ORDER_SIZE, 9, 14).end()).end());

        final EtaMaps.Decoded decoded = encodeAndDecode();
        assertTrue(0 != (decoded.flags & MapFlags.HAS_PER_ENTRY_PERM_DATA));
        for (final EtaMaps.Entry entry : decoded.entries)
        {
            if ("B1".equals(entry.key))
            {
                assertArrayEquals(perm, entry.perm, "an UPDATE without permission data keeps the entry's");
                assertEquals("0e09", EtaMaps.fields(entry.payload).get(ORDER_SIZE));
            }
            else
            {
                assertNull(entry.perm);
            }
        }
    }

    @Test
    void malformedMapOrEntryFieldListChangesNothing()
    {
        final byte[] b1 = level(100, "B", 1, 1);
        applyRefresh(fullRefresh(maps.begin().add("B1", b1).end()));
        modelAdd("B1", b1);

        final byte[] good = maps.begin().add("B2", b1).delete("B1").end();
        final byte[] truncated = Arrays.copyOf(good, good.length - 3);
        assertFalse(image.applyUpdate(wrap(update(DataTypes.MAP, truncated)), scratch));
        assertEquals(DataTypes.MAP, scratch.failedContainerType());

        final byte[] entryList = fields.begin(0, 0).real(ORDER_SIZE, 2, 14).real(ORDER_PRC, 3, 12).end();
        final byte[] badEntry = maps.begin().delete("B1")
            .update("B2", Arrays.copyOf(entryList, entryList.length - 2)).end();
        assertFalse(image.applyUpdate(wrap(update(DataTypes.MAP, badEntry)), scratch),
            "an UPDATE entry whose FieldList does not decode is refused before anything changes");
        assertEquals(DataTypes.MAP, scratch.failedContainerType());

        assertTrue(image.isServable());
        assertImageEqualsModel();
    }

    @Test
    void mapsTheImageCannotFollowAreRefusedWithTheReason()
    {
        final byte[] b1 = level(100, "B", 1, 1);
        applyRefresh(fullRefresh(maps.begin().add("B1", b1).end()));
        assertTrue(image.isServable());

        applyUpdate(maps.begin(DataTypes.UINT, DataTypes.FIELD_LIST, -1, null, false).add("7", b1).end());
        assertFalse(image.isServable(), "another key type without CLEAR_CACHE");
        assertEquals(CachedImage.MAP_LAYOUT_CHANGED_TEXT, image.noImageText());
        assertEquals(CodecReturnCodes.FAILURE, encodeResult());

        applyRefresh(fullRefresh(maps.begin().add("B1", b1).end()));
        assertTrue(image.isServable(), "a CLEAR_CACHE refresh brings the image back");
        modelAdd("B1", b1);
        assertImageEqualsModel();

        final byte[] withSetDefs = maps.begin().add("B1", b1).end();
        withSetDefs[0] |= MapFlags.HAS_SET_DEFS; // set definitions of length 0 before the count
        final byte[] patched = new byte[withSetDefs.length + 1];
        System.arraycopy(withSetDefs, 0, patched, 0, 3);
        System.arraycopy(withSetDefs, 3, patched, 4, withSetDefs.length - 3);
        applyRefresh(fullRefresh(patched));
        assertFalse(image.isServable());
        assertEquals(CachedImage.MAP_SET_DEFS_TEXT, image.noImageText());
    }

    @Test
    void payloadsOtherThanFieldListAndMapAreNotImagedAndSayWhy()
    {
        applyRefresh(refresh(RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, DataTypes.ELEMENT_LIST,
            elementList()));
        assertFalse(image.isImaged());
        assertFalse(image.isServable(), "an ElementList is not imaged");
        assertEquals(CachedImage.OTHER_CONTAINER_TEXT, image.noImageText());
        assertEquals(CodecReturnCodes.FAILURE, encodeResult());

        final byte[] b1 = level(100, "B", 1, 1);
        applyUpdate(maps.begin().add("B1", b1).end());
        assertFalse(image.isServable(), "an update in another container does not make an image");
        assertEquals(CachedImage.CONTAINER_CHANGED_TEXT, image.noImageText());
    }

    @Test
    void steadyStateMapUpdatesAllocateNothing()
    {
        final byte[] b1 = level(100, "B", 1, 1);
        applyRefresh(fullRefresh(maps.begin().add("B1", b1).add("B2", b1).end()));
        final byte[] churn = maps.begin()
            .add("B3", level(98, "B", 4, 2))
            .update("B1", fields.begin(0, 0).real(ORDER_SIZE, 77, 14).uint(NO_ORD, 9).end())
            .delete("B2")
            .end();
        final byte[] back = maps.begin().add("B2", b1).delete("B3").end();
        final UnsafeBuffer churnMessage = new UnsafeBuffer(update(DataTypes.MAP, churn));
        final UnsafeBuffer backMessage = new UnsafeBuffer(update(DataTypes.MAP, back));
        final long bytes = Allocations.leastAllocatedBytes(() ->
        {
            long applied = 0;
            for (int i = 0; i < 1000; i++)
            {
                msg.wrap(churnMessage, 0, churnMessage.capacity());
                applied += image.applyUpdate(msg, scratch) ? 1 : 0;
                msg.wrap(backMessage, 0, backMessage.capacity());
                applied += image.applyUpdate(msg, scratch) ? 1 : 0;
            }
            return applied;
        }, 5);
        assertEquals(0, bytes, "ADD, UPDATE (merge) and DELETE on a warm image allocate nothing");
    }

    private int encodeResult()
    {
        final ByteBuffer name = ByteBuffer.wrap(NAME.getBytes(StandardCharsets.US_ASCII));
        return encoder.encode(image, 1, SERVICE_ID, name, NAME.length(), true, out, 0, out.capacity());
    }

    private static byte[] elementList()
    {
        final ByteBuffer data = ByteBuffer.allocate(256);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        final com.refinitiv.eta.codec.Buffer target = CodecFactory.createBuffer();
        target.data(data);
        it.setBufferAndRWFVersion(target, com.refinitiv.eta.codec.Codec.majorVersion(),
            com.refinitiv.eta.codec.Codec.minorVersion());
        final ElementList list = CodecFactory.createElementList();
        list.applyHasStandardData();
        assertEquals(CodecReturnCodes.SUCCESS, list.encodeInit(it, null, 0));
        final ElementEntry entry = CodecFactory.createElementEntry();
        entry.name(RwfTestSupport.etaBuffer("Count"));
        entry.dataType(DataTypes.UINT);
        final UInt value = CodecFactory.createUInt();
        value.value(3);
        assertEquals(CodecReturnCodes.SUCCESS, entry.encode(it, value));
        assertEquals(CodecReturnCodes.SUCCESS, list.encodeComplete(it, true));
        return Arrays.copyOf(data.array(), data.position());
    }
}
