package io.mdhub.orderprobe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The stop-gap order generator writes well-framed FIX 4.4 NewOrderSingles of the requested length.
 */
@InterruptAfter(10)
class StopGapNewOrderSinglesTest
{
    private static final DateTimeFormatter FIX_TIME =
        DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    @Test
    void ordersHaveTheLengthBodyLengthAndChecksumFixRequires()
    {
        final StopGapNewOrderSingles generator = new StopGapNewOrderSingles(305);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[generator.maxLength() + 10]);
        final long[] ids = {1, 9, 10, 12_345, 999_999_999L, Long.MAX_VALUE};
        final long[] times = {0, 951_782_400_000L, 1_700_000_000_123L, 4_102_444_799_999L};
        for (final long id : ids)
        {
            for (final long time : times)
            {
                final int length = generator.generate(id, time, buffer, 3);
                final String fix = buffer.getStringWithoutLengthAscii(3, length);
                check(fix, id, time);
                if (id < 1_000_000_000L)
                {
                    assertEquals(305, length, fix);
                }
            }
        }
    }

    @Test
    void otherLengthsArePaddedToo()
    {
        for (final int target : new int[] {200, 250, 512, 1000})
        {
            final StopGapNewOrderSingles generator = new StopGapNewOrderSingles(target);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[generator.maxLength()]);
            final int length = generator.generate(77, 1_700_000_000_000L, buffer, 0);
            assertEquals(target, length);
            check(buffer.getStringWithoutLengthAscii(0, length), 77, 1_700_000_000_000L);
        }
    }

    private static void check(final String fix, final long id, final long time)
    {
        assertTrue(fix.startsWith("8=FIX.4.4\u00019="), fix);
        final int bodyStart = fix.indexOf('\u0001', 10) + 1;
        final int checksumStart = fix.lastIndexOf("\u000110=") + 1;
        assertEquals(Integer.parseInt(fix.substring(12, bodyStart - 1)), checksumStart - bodyStart, "BodyLength");
        int sum = 0;
        for (final byte b : fix.substring(0, checksumStart).getBytes(StandardCharsets.US_ASCII))
        {
            sum += b;
        }
        assertEquals(String.format("10=%03d\u0001", sum & 0xFF), fix.substring(checksumStart), "CheckSum");

        final Map<String, String> fields = new LinkedHashMap<>();
        for (final String field : fix.split("\u0001"))
        {
            final int eq = field.indexOf('=');
            assertTrue(null == fields.put(field.substring(0, eq), field.substring(eq + 1)), "repeated tag: " + field);
        }
        assertEquals("D", fields.get("35"));
        assertEquals(Long.toString(id), fields.get("11"));
        assertEquals(Long.toString(id), fields.get("34"));
        assertEquals(FIX_TIME.format(Instant.ofEpochMilli(time)), fields.get("52"));
        assertEquals(fields.get("52"), fields.get("60"));
        assertEquals("MDH.L", fields.get("55"));
        assertEquals("100", fields.get("38"));
        assertEquals("2", fields.get("40"));
        assertEquals("100.25", fields.get("44"));
    }
}
