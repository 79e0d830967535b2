package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.test.InterruptAfter;

/**
 * The FieldList flyweight against FieldLists encoded by ETA: same entries, same values, and bad input refused
 * without throwing or reading outside the region.
 */
@InterruptAfter(30)
class RwfFieldListFlyweightTest
{
    private final RwfFieldListFlyweight flyweight = new RwfFieldListFlyweight();
    private final EtaFieldLists eta = new EtaFieldLists();

    private byte[] level1Refresh()
    {
        return eta.begin(1, 0)
            .uint(1, 64).ascii(3, "LAB ITEM").real(6, 12345, 12).blank(11).real(22, 12344, 12).real(25, 12346, 12)
            .real(-100, -1, 14).uint(32, 1_000_000).ascii(1000, "x".repeat(300)).real(30, 0, 12)
            .end();
    }

    private static List<int[]> entries(final RwfFieldListFlyweight list)
    {
        final List<int[]> out = new ArrayList<>();
        while (list.next())
        {
            out.add(new int[] {list.fieldId(), list.valueOffset(), list.valueLength()});
        }
        return out;
    }

    @Test
    void readsEveryEntryAsEtaDecodesIt()
    {
        final byte[] bytes = level1Refresh();
        final Map<Integer, byte[]> expected = EtaFieldLists.decode(bytes);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length + 20]);
        buffer.putBytes(7, bytes);

        assertTrue(flyweight.wrap(buffer, 7, bytes.length), () -> flyweight.error().description());
        assertTrue(flyweight.hasInfo());
        assertEquals(1, flyweight.dictionaryId());
        assertEquals(0, flyweight.fieldListNum());
        assertEquals(expected.size(), flyweight.count());

        final List<int[]> entries = entries(flyweight);
        assertEquals(new ArrayList<>(expected.keySet()), entries.stream().map((e) -> e[0]).toList());
        int i = 0;
        for (final byte[] value : expected.values())
        {
            final int[] entry = entries.get(i++);
            final byte[] actual = new byte[entry[2]];
            buffer.getBytes(entry[1], actual);
            assertArrayEquals(value, actual, "fid " + entry[0]);
        }
        assertEquals(0, entries.get(3)[2], "blank NETCHNG_1 is a zero-length entry");
        assertEquals(300, entries.get(8)[2], "long value uses the 3-byte length form");

        assertFalse(flyweight.next());
        flyweight.rewind();
        assertEquals(entries.size(), entries(flyweight).size(), "rewind iterates again");
    }

    @Test
    void readsAListWithoutInfoAndAnEmptyList()
    {
        final byte[] plain = eta.begin(0, 0).real(22, 100, 14).real(25, 101, 14).end();
        assertTrue(flyweight.wrap(new UnsafeBuffer(plain), 0, plain.length));
        assertFalse(flyweight.hasInfo());
        assertEquals(2, flyweight.count());

        final byte[] empty = eta.begin(0, 0).end();
        assertTrue(flyweight.wrap(new UnsafeBuffer(empty), 0, empty.length));
        assertEquals(0, flyweight.count());
        assertFalse(flyweight.next());

        final byte[] noStandardData = new byte[1];
        assertTrue(flyweight.wrap(new UnsafeBuffer(noStandardData), 0, 1));
        assertEquals(0, flyweight.count());
    }

    @Test
    void readsALargeDictionaryIdAndHonoursALongerInfoBlock()
    {
        final byte[] bytes = eta.begin(300, 80).real(22, 1, 14).end();
        assertTrue(flyweight.wrap(new UnsafeBuffer(bytes), 0, bytes.length));
        assertEquals(300, flyweight.dictionaryId());
        assertEquals(80, flyweight.fieldListNum());

        // info length 4 (one unknown trailing byte), dictId 1, num 2, then 1 entry fid 22 = 0e 01
        final byte[] longerInfo = RwfTestSupport.hex("09 04 01 00 02 ee 00 01 00 16 02 0e 01");
        assertTrue(flyweight.wrap(new UnsafeBuffer(longerInfo), 0, longerInfo.length));
        assertEquals(2, flyweight.fieldListNum());
        assertTrue(flyweight.next());
        assertEquals(22, flyweight.fieldId());
        assertEquals(2, flyweight.valueLength());
    }

    @Test
    void reportsSetDataAsUnsupported()
    {
        final byte[] setData = RwfTestSupport.hex("0e 01 00 02 0e 01 00 00");
        assertFalse(flyweight.wrap(new UnsafeBuffer(setData), 0, setData.length));
        assertEquals(RwfFieldListFlyweight.Error.SET_DATA_UNSUPPORTED, flyweight.error());
        assertFalse(flyweight.next());
    }

    @Test
    void refusesEveryTruncationOfAValidList()
    {
        final byte[] bytes = level1Refresh();
        for (int length = 0; length < bytes.length; length++)
        {
            final byte[] prefix = java.util.Arrays.copyOf(bytes, length);
            final int l = length;
            assertFalse(flyweight.wrap(new UnsafeBuffer(prefix), 0, length), () -> "accepted a " + l + "-byte prefix");
            assertFalse(flyweight.next());
        }
    }

    @Test
    void refusesBadLengthsAndRegionsOutsideTheBuffer()
    {
        final byte[] ffLength = RwfTestSupport.hex("08 00 01 00 16 ff 00 01");
        assertFalse(flyweight.wrap(new UnsafeBuffer(ffLength), 0, ffLength.length));
        assertEquals(RwfFieldListFlyweight.Error.INVALID_LENGTH, flyweight.error());

        final byte[] overrun = RwfTestSupport.hex("08 00 01 00 16 05 0e 01");
        assertFalse(flyweight.wrap(new UnsafeBuffer(overrun), 0, overrun.length));
        assertEquals(RwfFieldListFlyweight.Error.ENTRY_OVERRUN, flyweight.error());

        final byte[] badInfo = RwfTestSupport.hex("09 02 01 00 00 00");
        assertFalse(flyweight.wrap(new UnsafeBuffer(badInfo), 0, badInfo.length));
        assertEquals(RwfFieldListFlyweight.Error.BAD_INFO, flyweight.error());

        assertFalse(flyweight.wrap(new UnsafeBuffer(new byte[4]), 2, 3));
        assertEquals(RwfFieldListFlyweight.Error.OUTSIDE_BUFFER, flyweight.error());
    }

    @Test
    void randomCorruptionNeverThrowsAndNeverYieldsEntriesOutsideTheRegion()
    {
        final byte[] original = level1Refresh();
        final Random random = new Random(42);
        for (int round = 0; round < 50_000; round++)
        {
            final byte[] bytes = original.clone();
            final int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++)
            {
                bytes[random.nextInt(bytes.length)] = (byte)random.nextInt(256);
            }
            final int length = random.nextBoolean() ? bytes.length : random.nextInt(bytes.length + 1);
            // a guard region after the list: entries must never reach into it
            final UnsafeBuffer buffer = new UnsafeBuffer(java.util.Arrays.copyOf(bytes, bytes.length + 8));
            if (flyweight.wrap(buffer, 0, length))
            {
                while (flyweight.next())
                {
                    assertTrue(flyweight.valueOffset() + flyweight.valueLength() <= length);
                }
            }
        }
    }
}
