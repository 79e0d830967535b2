package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MapEntryActions;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.cache.EtaMaps;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The RWF flyweights under random bytes and mutated ETA encodings: {@link RwfMsgFlyweight} (with its msgKey),
 * {@link RwfFieldListFlyweight}, {@link RwfMapFlyweight} and {@link FieldViewFilter} answer false with a reason and
 * never throw; after a true answer every accessor stays inside the message. Each input sits in a buffer of exactly
 * its length, so Agrona's bounds checks turn any read outside it into an exception, and so into a failure.
 */
@FuzzGuarded
class RwfFuzzTest
{
    private static final List<byte[]> MESSAGES = messages();
    // encoders for the generators (one thread; each holds a large buffer, so made once)
    private static final EtaFieldLists FIELDS = new EtaFieldLists();
    private static final EtaFieldLists SUMMARY = new EtaFieldLists();
    private static final EtaMaps MAPS = new EtaMaps();

    private final RwfMsgFlyweight message = new RwfMsgFlyweight();
    private final RwfFieldListFlyweight fieldList = new RwfFieldListFlyweight();
    private final RwfMapFlyweight map = new RwfMapFlyweight();
    private final FieldViewFilter filter = new FieldViewFilter();
    private final FieldView view = FieldView.of(1, 22, 25, 3427, -100);

    private static List<byte[]> messages()
    {
        final List<byte[]> corpus = new ArrayList<>(Arrays.asList(RwfDumpVectors.all()));
        for (final EtaMsgVariants.Variant variant : EtaMsgVariants.all())
        {
            corpus.add(encode(variant.msg()));
        }
        return corpus;
    }

    @Property
    void messageFromRandomBytes(@ForAll @Size(max = 300) final byte[] bytes)
    {
        readMessage(bytes);
    }

    @Property
    void mutatedMessage(@ForAll("mutatedMessages") final byte[] bytes)
    {
        readMessage(bytes);
    }

    @Property
    void fieldListFromRandomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        readFieldList(bytes);
    }

    @Property
    void mutatedFieldList(@ForAll("mutatedFieldLists") final byte[] bytes)
    {
        readFieldList(bytes);
    }

    @Property
    void mapFromRandomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        readMap(bytes);
    }

    @Property
    void mutatedMap(@ForAll("mutatedMaps") final byte[] bytes)
    {
        readMap(bytes);
    }

    @Provide
    Arbitrary<byte[]> mutatedMessages()
    {
        return ByteMutations.mutated(Arbitraries.of(MESSAGES));
    }

    @Provide
    Arbitrary<byte[]> mutatedFieldLists()
    {
        return ByteMutations.mutated(fieldLists());
    }

    @Provide
    Arbitrary<byte[]> mutatedMaps()
    {
        final Arbitrary<Object[]> entry = Combinators.combine(
            Arbitraries.of(MapEntryActions.ADD, MapEntryActions.UPDATE, MapEntryActions.DELETE),
            Arbitraries.strings().alpha().ofMaxLength(12),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(4).injectNull(0.7),
            fieldLists()).as((action, key, perm, payload) -> encodeEntry(action, key, perm, payload));
        return ByteMutations.mutated(Combinators.combine(
            entry.list().ofMaxSize(4),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false)).as(RwfFuzzTest::encodeMap));
    }

    /**
     * Field lists as ETA encodes them: optional info, 0..6 entries of UInt, Real, ASCII and Int.
     */
    private static Arbitrary<byte[]> fieldLists()
    {
        final Arbitrary<Object[]> entry = Combinators.combine(
            Arbitraries.integers().between(-32768, 32767),
            Arbitraries.integers().between(0, 3),
            Arbitraries.longs(),
            Arbitraries.strings().ascii().ofMaxLength(20)).as((fid, kind, number, text) ->
                new Object[] {fid, kind, number, text});
        return Combinators.combine(Arbitraries.integers().between(0, 300), entry.list().ofMaxSize(6))
            .as(RwfFuzzTest::encodeFieldList);
    }

    private static byte[] encodeFieldList(final int dictionaryId, final List<Object[]> entries)
    {
        final EtaFieldLists fields = FIELDS.begin(dictionaryId, dictionaryId / 3);
        for (final Object[] entry : entries)
        {
            final int fid = (Integer)entry[0];
            final long number = (Long)entry[2];
            switch ((Integer)entry[1])
            {
                case 0:
                    fields.uint(fid, number & Long.MAX_VALUE);
                    break;
                case 1:
                    fields.real(fid, number, 12);
                    break;
                case 2:
                    fields.ascii(fid, (String)entry[3]);
                    break;
                default:
                    fields.intValue(fid, number);
                    break;
            }
        }
        return fields.end();
    }

    private static Object[] encodeEntry(final int action, final String key, final byte[] perm, final byte[] payload)
    {
        return new Object[] {action, key, perm, MapEntryActions.DELETE == action ? null : payload};
    }

    private static byte[] encodeMap(final List<Object[]> entries, final boolean summary, final boolean keyFieldId)
    {
        final boolean perm = entries.stream().anyMatch(entry -> null != entry[2]);
        final EtaMaps maps = MAPS.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, keyFieldId ? 3427 : -1,
            summary ? SUMMARY.begin(0, 0).uint(1, 7).end() : null, perm);
        for (final Object[] entry : entries)
        {
            maps.entry((Integer)entry[0], (String)entry[1], perm ? (byte[])entry[2] : null, (byte[])entry[3]);
        }
        return maps.end();
    }

    private void readMessage(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (!message.wrap(buffer, 0, bytes.length))
        {
            assertNotEquals(RwfError.NONE, message.error());
            assertTrue(message.errorReason().length() > 0);
            return;
        }
        assertEquals(RwfError.NONE, message.error());
        final int end = bytes.length;
        assertInside(message.payloadOffset(), message.payloadLength(), end);
        message.streamId(message.streamId() + 1);
        message.msgClass();
        message.domainType();
        message.flags();
        message.containerType();
        message.streamState();
        message.dataState();
        message.stateCode();
        if (message.stateTextLength() > 0)
        {
            assertInside(message.stateTextOffset(), message.stateTextLength(), end);
        }
        if (message.hasGroupId())
        {
            assertInside(message.groupIdOffset(), message.groupIdLength(), end);
            assertTrue(message.groupIdEquals(buffer, message.groupIdOffset(), message.groupIdLength()));
        }
        message.updateType();
        message.seqNum();
        message.partNum();
        message.postUserAddress();
        message.postUserId();
        message.ackId();
        message.nakCode();
        message.postId();
        if (message.hasMsgKey())
        {
            readKey(message.key(), end);
        }
        readPayload(buffer, end);
    }

    private static void readKey(final RwfMsgKeyFlyweight key, final int end)
    {
        assertInside(key.offset(), key.length(), end);
        key.flags();
        key.serviceId();
        key.nameType();
        key.filter();
        key.identifier();
        if (key.hasName())
        {
            assertInside(key.nameOffset(), key.nameLength(), end);
            final byte[] name = new byte[key.nameLength()];
            assertEquals(name.length, key.getName(name, 0));
            assertTrue(key.nameEquals(name));
            assertEquals(name.length, key.nameAsString().length());
        }
        if (key.hasAttrib())
        {
            assertInside(key.attribOffset(), key.attribLength(), end);
        }
    }

    private void readPayload(final UnsafeBuffer buffer, final int end)
    {
        if (DataTypes.FIELD_LIST == message.containerType())
        {
            final UnsafeBuffer out = new UnsafeBuffer(new byte[message.length()]);
            final int length = filter.filter(message, view, out, 0);
            assertTrue(FieldViewFilter.NOT_FILTERABLE == length || (length >= 0 && length <= message.length()));
            if (length >= 0)
            {
                assertTrue(message.wrap(out, 0, length), "a filtered message is a message");
            }
        }
        else if (DataTypes.MAP == message.containerType() &&
            map.wrap(buffer, message.payloadOffset(), message.payloadLength()))
        {
            iterateMap(end);
        }
    }

    private void readFieldList(final byte[] bytes)
    {
        if (!fieldList.wrap(new UnsafeBuffer(bytes), 0, bytes.length))
        {
            assertNotEquals(RwfFieldListFlyweight.Error.NONE, fieldList.error());
            assertFalse(fieldList.next());
            return;
        }
        fieldList.dictionaryId();
        fieldList.fieldListNum();
        int entries = 0;
        while (fieldList.next())
        {
            entries++;
            assertTrue(entries <= fieldList.count());
            fieldList.fieldId();
            assertInside(fieldList.entryOffset(), fieldList.valueOffset() - fieldList.entryOffset(), bytes.length);
            assertInside(fieldList.valueOffset(), fieldList.valueLength(), bytes.length);
        }
        assertEquals(fieldList.count(), entries);
    }

    private void readMap(final byte[] bytes)
    {
        if (!map.wrap(new UnsafeBuffer(bytes), 0, bytes.length))
        {
            assertNotEquals(RwfMapFlyweight.Error.NONE, map.error());
            assertFalse(map.next());
            return;
        }
        iterateMap(bytes.length);
    }

    private void iterateMap(final int end)
    {
        map.keyPrimitiveType();
        map.containerType();
        map.totalCountHint();
        if (map.hasKeyFieldId())
        {
            map.keyFieldId();
        }
        if (map.hasSetDefs())
        {
            assertInside(map.setDefsOffset(), map.setDefsLength(), end);
        }
        if (map.hasSummaryData())
        {
            assertInside(map.summaryOffset(), map.summaryLength(), end);
        }
        int entries = 0;
        while (map.next())
        {
            entries++;
            assertTrue(entries <= map.count());
            map.action();
            map.entryFlags();
            if (map.hasPermData())
            {
                assertInside(map.permOffset(), map.permLength(), end);
            }
            assertInside(map.keyOffset(), map.keyLength(), end);
            assertInside(map.payloadOffset(), map.payloadLength(), end);
        }
        assertEquals(map.count(), entries);
    }

    private static void assertInside(final int offset, final int length, final int end)
    {
        assertTrue(offset >= 0 && length >= 0 && offset + length <= end,
            () -> "[" + offset + ", +" + length + ") outside [0, " + end + ")");
    }
}
