package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.FieldList;

import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.test.InterruptAfter;

/**
 * The item image against ETA: refreshes and updates encoded by ETA are applied, and ETA decodes the re-encoded
 * image to exactly the expected fields, in arrival order.
 */
@InterruptAfter(30)
class ItemImageTest
{
    private final EtaFieldLists eta = new EtaFieldLists();
    private final RwfFieldListFlyweight flyweight = new RwfFieldListFlyweight();
    private final ItemImage image = new ItemImage();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(64);

    private RwfFieldListFlyweight wrap(final byte[] fieldList)
    {
        assertTrue(flyweight.wrap(new UnsafeBuffer(fieldList), 0, fieldList.length), () -> flyweight.error().name());
        return flyweight;
    }

    private byte[] encodeImage()
    {
        final int length = image.encodeFieldList(out, 0);
        assertEquals(image.encodedLength(), length, "encodedLength predicts the bytes written");
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        return bytes;
    }

    private static void assertFields(final Map<Integer, byte[]> expected, final Map<Integer, byte[]> actual)
    {
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()), "fids in arrival order");
        for (final Map.Entry<Integer, byte[]> entry : expected.entrySet())
        {
            assertArrayEquals(entry.getValue(), actual.get(entry.getKey()), "fid " + entry.getKey());
        }
    }

    @Test
    void touchingReadsTheImageAndChangesNothing()
    {
        assertEquals(0, image.touch(), "an empty image has nothing to read");
        final byte[] refresh = eta.begin(0, 0).uint(1, 64).ascii(3, "LAB ITEM").real(22, 12344, 12).end();
        image.applyRefresh(wrap(refresh));
        final byte[] before = encodeImage();

        image.touch();

        assertArrayEquals(before, encodeImage());
        assertEquals(3, image.fieldCount());
    }

    @Test
    void refreshThenUpdatesReplaceAndAppendFields()
    {
        final byte[] refresh = eta.begin(1, 0).uint(1, 64).ascii(3, "LAB ITEM").real(22, 12344, 12)
            .real(25, 12346, 12).blank(11).end();
        image.applyRefresh(wrap(refresh));
        assertEquals(5, image.fieldCount());
        assertFields(EtaFieldLists.decode(refresh), EtaFieldLists.decode(encodeImage()));
        final FieldList header = EtaFieldLists.decodeHeader(encodeImage());
        assertTrue(header.checkHasInfo());
        assertEquals(1, header.dictionaryId());

        // BID grows, ASK shrinks to blank, NETCHNG_1 gets a value, TRDPRC_1 is new, DSPLY_NAME gets longer text
        final byte[] update = eta.begin(0, 0).real(22, 1_234_567_890_123L, 10).blank(25).real(11, -5, 14)
            .real(6, 12345, 12).ascii(3, "A MUCH LONGER DISPLAY NAME THAN BEFORE").end();
        image.applyUpdate(wrap(update));

        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(refresh));
        expected.putAll(EtaFieldLists.decode(update));
        assertEquals(6, image.fieldCount());
        assertFields(expected, EtaFieldLists.decode(encodeImage()));
        assertEquals(0, image.valueLength(25));
        assertFalse(image.contains(30));
        assertEquals(-1, image.valueLength(30));
    }

    @Test
    void imageAfterManyRandomUpdatesEqualsTheModelAndEtaReadsIt()
    {
        final Random random = new Random(7);
        final byte[] refresh = eta.begin(1, 0).uint(1, 64).real(22, 100, 14).real(25, 101, 14).end();
        image.applyRefresh(wrap(refresh));
        final Map<Integer, byte[]> model = new LinkedHashMap<>(EtaFieldLists.decode(refresh));

        for (int n = 0; n < 2_000; n++)
        {
            eta.begin(0, 0);
            final int fields = 1 + random.nextInt(6);
            for (int f = 0; f < fields; f++)
            {
                final int fid = 1 + random.nextInt(60);
                switch (random.nextInt(4))
                {
                    case 0:
                        eta.real(fid, random.nextLong() >> random.nextInt(64), 10 + random.nextInt(5));
                        break;
                    case 1:
                        eta.ascii(fid, "v".repeat(random.nextInt(random.nextInt(10) == 0 ? 400 : 20)));
                        break;
                    case 2:
                        eta.blank(fid);
                        break;
                    default:
                        eta.uint(fid, random.nextInt(1 << 20));
                        break;
                }
            }
            final byte[] update = eta.end();
            image.applyUpdate(wrap(update));
            model.putAll(EtaFieldLists.decode(update));
        }
        assertEquals(model.size(), image.fieldCount());
        assertFields(model, EtaFieldLists.decode(encodeImage()));
    }

    @Test
    void refreshClearsThePreviousImageAndLaterPartsAppend()
    {
        image.applyRefresh(wrap(eta.begin(1, 0).real(22, 1, 14).real(25, 2, 14).end()));
        final byte[] part1 = eta.begin(0, 0).real(6, 3, 14).end();
        image.applyRefresh(wrap(part1));
        final byte[] part2 = eta.begin(0, 0).real(22, 4, 14).end();
        image.applyUpdate(wrap(part2));

        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(part1));
        expected.putAll(EtaFieldLists.decode(part2));
        final byte[] encoded = encodeImage();
        assertFields(expected, EtaFieldLists.decode(encoded));
        assertFalse(EtaFieldLists.decodeHeader(encoded).checkHasInfo(), "info follows the latest refresh");

        image.clear();
        assertEquals(0, image.fieldCount());
        assertEquals(0, EtaFieldLists.decode(encodeImage()).size());
    }

    @Test
    void fieldsAreFoundInAnyOrderBeforeAndAfterTheImageOutgrowsTheScan()
    {
        final int scanned = ItemImage.SCAN_LIMIT;
        eta.begin(1, 0);
        for (int fid = 1; fid <= scanned; fid++)
        {
            eta.uint(fid, fid);
        }
        final byte[] refresh = eta.end();
        image.applyRefresh(wrap(refresh));
        final Map<Integer, byte[]> model = new LinkedHashMap<>(EtaFieldLists.decode(refresh));
        applyReversedAndCheck(scanned, 1_000, model);
        applyReversedAndCheck(scanned, 1L << 40, model);
        assertEquals(-1, image.valueLength(scanned + 1), "an absent fid, scanned for");
        assertFalse(image.isIndexed(), "up to SCAN_LIMIT fields a fid is scanned for");

        final byte[] newField = eta.begin(0, 0).uint(scanned + 1, 7).end();
        image.applyUpdate(wrap(newField));
        model.putAll(EtaFieldLists.decode(newField));
        applyReversedAndCheck(scanned + 1, 1L << 50, model);
        assertEquals(-1, image.valueLength(scanned + 2), "an absent fid, looked up in the index");
        assertTrue(image.isIndexed(), "past the scan");

        image.applyRefresh(wrap(eta.begin(1, 0).uint(40, 1).uint(3, 2).end()));
        assertEquals(2, image.fieldCount());
        assertTrue(image.contains(40) && image.contains(3), "the refreshed fields");
        assertFalse(image.contains(1), "a field of the image before the refresh");
        image.applyUpdate(wrap(eta.begin(0, 0).uint(3, 5).uint(1, 6).end()));
        assertEquals(List.of(40, 3, 1), List.of(image.fieldIdAt(0), image.fieldIdAt(1), image.fieldIdAt(2)));
        assertFalse(image.isIndexed(), "a refresh to a small image goes back to the scan");

        image.applyRefresh(wrap(refresh)); // outgrows the scan again: the kept index is filled anew
        image.applyUpdate(wrap(newField));
        assertTrue(image.isIndexed());
        model.clear();
        model.putAll(EtaFieldLists.decode(refresh));
        model.putAll(EtaFieldLists.decode(newField));
        applyReversedAndCheck(scanned + 1, 1L << 30, model);
        assertFalse(image.contains(40), "a field of an earlier image, not left in the index");
    }

    /**
     * Update fids {@code highest} down to 1 to {@code base + fid} (a base that makes the values longer than their
     * slots moves them), then check every value and the whole image against ETA.
     */
    private void applyReversedAndCheck(final int highest, final long base, final Map<Integer, byte[]> model)
    {
        eta.begin(0, 0);
        for (int fid = highest; fid >= 1; fid--)
        {
            eta.uint(fid, base + fid);
        }
        final byte[] update = eta.end();
        image.applyUpdate(wrap(update));
        model.putAll(EtaFieldLists.decode(update));
        final ExpandableArrayBuffer value = new ExpandableArrayBuffer(16);
        for (final Map.Entry<Integer, byte[]> entry : model.entrySet())
        {
            final int length = image.getValue(entry.getKey(), value, 0);
            final byte[] bytes = new byte[length];
            value.getBytes(0, bytes);
            assertArrayEquals(entry.getValue(), bytes, "fid " + entry.getKey());
        }
        assertFields(model, EtaFieldLists.decode(encodeImage()));
    }

    @Test
    void largeDictionaryIdIsWrittenBackAsEtaWroteIt()
    {
        final byte[] refresh = eta.begin(300, 7).real(22, 1, 14).end();
        image.applyRefresh(wrap(refresh));
        final FieldList header = EtaFieldLists.decodeHeader(encodeImage());
        assertEquals(300, header.dictionaryId());
        assertEquals(7, header.fieldListNum());
    }

    @Test
    void steadyStateUpdatesAllocateNothing()
    {
        final List<UnsafeBuffer> updates = new ArrayList<>();
        final Random random = new Random(3);
        for (int i = 0; i < 64; i++)
        {
            final byte[] bytes = eta.begin(0, 0).real(22, random.nextInt(), 12).real(25, random.nextLong(), 12)
                .ascii(3, "n".repeat(random.nextInt(40))).uint(32, random.nextInt()).end();
            updates.add(new UnsafeBuffer(bytes));
        }
        image.applyRefresh(wrap(eta.begin(1, 0).uint(1, 64).real(22, 1, 14).real(25, 2, 14).end()));
        final ExpandableArrayBuffer target = new ExpandableArrayBuffer(4096);

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long tid = Thread.currentThread().getId();
        long sum = run(updates, target, 100_000);
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5 && best != 0; round++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            sum += run(updates, target, 100_000);
            final long after = threads.getThreadAllocatedBytes(tid);
            best = Math.min(best, after - before);
        }
        assertTrue(sum != 0);
        assertEquals(0, best, "bytes allocated applying updates and encoding the image");
    }

    private long run(final List<UnsafeBuffer> updates, final ExpandableArrayBuffer target, final int iterations)
    {
        long sum = 0;
        for (int i = 0; i < iterations; i++)
        {
            final UnsafeBuffer update = updates.get(i & 63);
            flyweight.wrap(update, 0, update.capacity());
            image.applyUpdate(flyweight);
            if (0 == (i & 15))
            {
                sum += image.encodeFieldList(target, 0);
            }
        }
        return sum;
    }
}
