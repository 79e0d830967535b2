package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class RwfHeaderCursorTest
{
    /**
     * A header of the given bytes, placed after two bytes that do not belong to it, with the cursor at its start.
     */
    private static final class Header extends RwfHeaderCursor
    {
        private static final int START = 2;

        Header(final int... bytes)
        {
            final byte[] all = new byte[START + bytes.length + 4]; // bytes past the header end must not be read
            for (int i = 0; i < bytes.length; i++)
            {
                all[START + i] = (byte)bytes[i];
            }
            buffer = new UnsafeBuffer(all);
            cursor = START;
            headerEnd = START + bytes.length;
        }

        int read()
        {
            return cursor - START;
        }
    }

    @Test
    void fixedMembersStopAtTheHeaderEnd()
    {
        final Header header = new Header(1, 2, 3);
        assertTrue(header.skipFixed(2));
        assertEquals(2, header.read());
        assertFalse(header.skipFixed(2));
        assertEquals(RwfError.MEMBER_OVERRUN, header.error);
        assertEquals(2, header.read(), "a failed step leaves the cursor where it was");
        assertTrue(header.skipFixed(1));
        assertFalse(header.need(1));
    }

    @Test
    void u15rbIsOneOrTwoBytes()
    {
        final Header header = new Header(0x05, 0x80, 0x01, 0x81);
        assertTrue(header.skipU15rb());
        assertEquals(1, header.read());
        assertTrue(header.skipU15rb());
        assertEquals(3, header.read());
        assertFalse(header.skipU15rb(), "the long form's second byte is past the header");
        assertEquals(RwfError.MEMBER_OVERRUN, header.error);
    }

    @Test
    void u16obIsOneOrThreeBytesAndAnFfPrefixIsInvalid()
    {
        final Header header = new Header(0x10, 0xFE, 0x01, 0x00, 0xFF);
        assertTrue(header.skipU16ob());
        assertTrue(header.skipU16ob());
        assertEquals(4, header.read());
        assertFalse(header.skipU16ob());
        assertEquals(RwfError.INVALID_VARIABLE_LENGTH, header.error);
        assertFalse(new Header(0xFE, 0x01).skipU16ob(), "the long form runs past the header");
    }

    @Test
    void buffersSkipTheirLengthAndTheirContent()
    {
        final Header buf8 = new Header(2, 'a', 'b', 3, 'c');
        assertTrue(buf8.skipBuf8());
        assertEquals(3, buf8.read());
        assertFalse(buf8.skipBuf8(), "three bytes announced, one there");
        assertEquals(RwfError.MEMBER_OVERRUN, buf8.error);

        final Header buf15 = new Header(0x80, 0x02, 'a', 'b', 0x01);
        assertTrue(buf15.skipBuf15());
        assertEquals(4, buf15.read());
        assertFalse(buf15.skipBuf15());

        final Header prefixed = new Header(0xFE, 0x00, 0x02, 'a', 'b', 0x03, 'c');
        assertTrue(prefixed.skipU16obPrefixed());
        assertEquals(5, prefixed.read());
        assertFalse(prefixed.skipU16obPrefixed());
        assertEquals(RwfError.MEMBER_OVERRUN, prefixed.error);
        assertFalse(new Header(0xFF, 0x00).skipU16obPrefixed());
    }

    @Test
    void qosIsOneByteAndTwoMoreEachForDelayedTimelinessAndConflatedRate()
    {
        final int realTimeTickByTick = (1 << 5) | (1 << 1);
        final int delayedTickByTick = (3 << 5) | (1 << 1);
        final int delayedConflated = (3 << 5) | (3 << 1);
        final Header header = new Header(realTimeTickByTick, delayedTickByTick, 0, 0, delayedConflated, 0, 0, 0, 0);
        assertTrue(header.skipQos());
        assertEquals(1, header.read());
        assertTrue(header.skipQos());
        assertEquals(4, header.read());
        assertTrue(header.skipQos());
        assertEquals(9, header.read());
        assertFalse(new Header(delayedConflated, 0, 0, 0).skipQos(), "five bytes announced, four there");
    }

    @Test
    void optionalMembersFollowTheFlags()
    {
        final Header header = new Header();
        header.flags = 0x04;
        assertTrue(header.optional(0x04));
        assertFalse(header.optional(0x02));
        assertFalse(header.skipU15rb(), "nothing to read in an empty header");
    }
}
