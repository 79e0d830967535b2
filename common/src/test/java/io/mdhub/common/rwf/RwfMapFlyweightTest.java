package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MapEntryActions;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.cache.EtaMaps;
import io.mdhub.common.test.InterruptAfter;

/**
 * The Map flyweight against ETA's own encoder and decoder: header members (key type, entry container, key field id,
 * summary data, total count hint) and, per entry, action, permission data, key and payload exactly as ETA reads them;
 * every truncation of a Map and a bad action are refused without an exception.
 */
@InterruptAfter(30)
class RwfMapFlyweightTest
{
    private final EtaFieldLists fields = new EtaFieldLists();
    private final EtaMaps maps = new EtaMaps();
    private final RwfMapFlyweight map = new RwfMapFlyweight();

    private static byte[] bytes(final UnsafeBuffer buffer, final int offset, final int length)
    {
        final byte[] out = new byte[length];
        buffer.getBytes(offset, out);
        return out;
    }

    private void assertSameAsEta(final byte[] encoded)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoded.length + 10]);
        buffer.putBytes(5, encoded);
        assertTrue(map.wrap(buffer, 5, encoded.length), () -> map.error().description());
        final EtaMaps.Decoded eta = EtaMaps.decode(encoded);
        assertEquals(eta.flags, map.flags());
        assertEquals(eta.keyPrimitiveType, map.keyPrimitiveType());
        assertEquals(eta.containerType, map.containerType());
        assertEquals(eta.keyFieldId >= 0, map.hasKeyFieldId());
        if (map.hasKeyFieldId())
        {
            assertEquals(eta.keyFieldId, map.keyFieldId());
        }
        assertEquals(null != eta.summary, map.hasSummaryData());
        if (null != eta.summary)
        {
            assertArrayEquals(eta.summary, bytes(buffer, map.summaryOffset(), map.summaryLength()));
        }
        assertEquals(eta.entries.size(), map.count());
        for (int pass = 0; pass < 2; pass++)
        {
            map.rewind();
            for (final EtaMaps.Entry entry : eta.entries)
            {
                assertTrue(map.next());
                assertEquals(entry.action, map.action());
                if (DataTypes.BUFFER == map.keyPrimitiveType())
                {
                    assertEquals(entry.key, new String(bytes(buffer, map.keyOffset(), map.keyLength()),
                        StandardCharsets.US_ASCII));
                }
                assertEquals(null != entry.perm, map.hasPermData());
                if (null != entry.perm)
                {
                    assertArrayEquals(entry.perm, bytes(buffer, map.permOffset(), map.permLength()));
                }
                assertArrayEquals(entry.payload, bytes(buffer, map.payloadOffset(), map.payloadLength()));
            }
            assertFalse(map.next());
        }
    }

    @Test
    void readsWhatEtaEncodes()
    {
        final byte[] level = fields.begin(0, 0).real(3427, 10050, 12).uint(3432, 4).end();
        final byte[] summary = fields.begin(0, 0).enumValue(15, 840).end();
        final byte[] large = new byte[300];
        Arrays.fill(large, (byte)7);
        final byte[] longList = fields.begin(0, 0).ascii(3, new String(large, StandardCharsets.US_ASCII)).end();

        assertSameAsEta(maps.begin().add("100.5B", level).update("99B", level).delete("98B").end());
        assertSameAsEta(maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, 3427, summary, true)
            .entry(MapEntryActions.ADD, "K1", new byte[] {1, 2, 3}, level)
            .entry(MapEntryActions.UPDATE, "K2", null, longList)
            .entry(MapEntryActions.DELETE, "K3", new byte[] {4}, null)
            .end());
        assertSameAsEta(maps.begin(DataTypes.UINT, DataTypes.FIELD_LIST, -1, null, false)
            .add("1", level).add("300", level).add("70000", level).end());
        assertSameAsEta(maps.begin(DataTypes.BUFFER, DataTypes.NO_DATA, -1, null, false)
            .add("A", null).delete("B").end());
        assertSameAsEta(maps.begin().end());
    }

    @Test
    void readsTheTotalCountHint()
    {
        final byte[] plain = maps.begin().add("A", fields.begin(0, 0).uint(1, 1).end()).end();
        final byte[] hinted = new byte[plain.length + 1];
        System.arraycopy(plain, 0, hinted, 0, 3);
        hinted[0] |= RwfMapFlyweight.HAS_TOTAL_COUNT_HINT;
        hinted[3] = 0x05;
        System.arraycopy(plain, 3, hinted, 4, plain.length - 3);
        assertSameAsEta(hinted);
        assertEquals(5, map.totalCountHint());
    }

    @Test
    void emptyRegionIsAMapWithoutEntries()
    {
        assertTrue(map.wrap(new UnsafeBuffer(new byte[4]), 2, 0));
        assertTrue(map.isEmpty());
        assertEquals(0, map.count());
        assertFalse(map.next());
    }

    @Test
    void everyTruncationIsRefusedWithoutException()
    {
        final byte[] level = fields.begin(0, 0).real(3427, 10050, 12).uint(3432, 4).end();
        final byte[] encoded = maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, 3427, level, true)
            .entry(MapEntryActions.ADD, "K1", new byte[] {1, 2, 3}, level).delete("K2").end();
        for (int length = 1; length < encoded.length; length++)
        {
            final int cut = length;
            assertFalse(map.wrap(new UnsafeBuffer(Arrays.copyOf(encoded, cut)), 0, cut), () -> "cut at " + cut);
            assertFalse(map.next());
            assertTrue(RwfMapFlyweight.Error.NONE != map.error());
        }
        assertFalse(map.wrap(new UnsafeBuffer(encoded), 1, encoded.length), "outside the buffer");
        assertEquals(RwfMapFlyweight.Error.OUTSIDE_BUFFER, map.error());
    }

    @Test
    void unknownActionIsRefused()
    {
        final byte[] encoded = maps.begin().add("A", fields.begin(0, 0).uint(1, 1).end()).end();
        encoded[5] = 0x04; // the first entry's action byte
        assertFalse(map.wrap(new UnsafeBuffer(encoded), 0, encoded.length));
        assertEquals(RwfMapFlyweight.Error.INVALID_ACTION, map.error());
    }
}
