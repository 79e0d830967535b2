package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.encode;
import static io.mdhub.common.rwf.RwfTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Bad input must be refused with a reason, never with an exception, and never by reading outside the message. Every
 * buffer here is exactly as long as the message, and Agrona's bounds checks turn any stray read into an exception.
 */
@InterruptAfter(30)
class RwfMsgFlyweightMalformedTest
{
    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();

    private static List<byte[]> corpus()
    {
        final List<byte[]> corpus = new ArrayList<>(Arrays.asList(RwfDumpVectors.all()));
        for (final EtaMsgVariants.Variant variant : EtaMsgVariants.all())
        {
            corpus.add(encode(variant.msg()));
        }
        return corpus;
    }

    @Test
    void everyTruncationInsideTheHeaderIsRefused()
    {
        for (final byte[] message : corpus())
        {
            final int headerEnd = 2 + (((message[0] & 0xFF) << 8) | (message[1] & 0xFF));
            for (int length = 0; length < message.length; length++)
            {
                final byte[] truncated = Arrays.copyOf(message, length);
                final boolean ok = flyweight.wrap(new UnsafeBuffer(truncated), 0, length);
                if (length < headerEnd)
                {
                    assertFalse(ok, "truncated to " + length);
                    assertTrue(RwfError.NONE != flyweight.error());
                }
                else
                {
                    assertTrue(ok, () -> "payload truncation is the transport's business: " + flyweight.errorReason());
                }
            }
        }
    }

    @Test
    void shorterHeaderLengthThanTheMembersIsRefused()
    {
        for (final byte[] message : corpus())
        {
            if (message == RwfDumpVectors.LEVEL1_UPDATE_LONGER_HEADER)
            {
                continue; // its last header byte is unknown padding, so one byte less is still a valid header
            }
            final byte[] copy = message.clone();
            final int headerLength = ((copy[0] & 0xFF) << 8) | (copy[1] & 0xFF);
            copy[0] = (byte)((headerLength - 1) >>> 8);
            copy[1] = (byte)(headerLength - 1);
            assertFalse(flyweight.wrap(new UnsafeBuffer(copy), 0, copy.length));
        }
    }

    @Test
    void reportsSpecificReasons()
    {
        assertRefused(RwfError.TRUNCATED_HEADER, hex("00 08 04 06 00 00 00 05 00"));
        assertRefused(RwfError.HEADER_LENGTH_OVERRUN, hex("00 0a 04 06 00 00 00 05 00 04 01"));
        assertRefused(RwfError.HEADER_LENGTH_TOO_SHORT, hex("00 07 04 06 00 00 00 05 00 04 01"));
        assertRefused(RwfError.UNKNOWN_MSG_CLASS, hex("00 09 09 06 00 00 00 05 00 04 01"));
        assertRefused(RwfError.UNKNOWN_MSG_CLASS, hex("00 09 00 06 00 00 00 05 00 04 01"));
        assertRefused(RwfError.UNKNOWN_MSG_CLASS, hex("00 09 ff 06 00 00 00 05 00 04 01"));
        assertRefused(RwfError.MEMBER_OVERRUN, hex("00 08 04 06 00 00 00 05 00 04"));
        assertRefused(RwfError.MISSING_MSG_KEY, hex("00 08 01 06 00 00 00 05 04 00"));
        // key length 9 but only 8 key bytes inside the header
        assertRefused(RwfError.MEMBER_OVERRUN,
            hex("00 15 01 06 00 00 00 05 46 00 01 01 22 80 09 07 01 05 54 52 49 2e 4e"));
        // name length 6 runs past the key
        assertRefused(RwfError.KEY_MEMBER_OVERRUN,
            hex("00 16 01 06 00 00 00 05 46 00 01 01 22 80 09 07 01 06 54 52 49 2e 4e 01"));
        // serviceId with the undefined 0xFF u16ob prefix
        assertRefused(RwfError.INVALID_VARIABLE_LENGTH, hex("00 0e 01 06 00 00 00 05 04 00 80 04 01 ff 00 01"));
        // attrib length runs past the key
        assertRefused(RwfError.KEY_MEMBER_OVERRUN, hex("00 10 04 06 00 00 00 05 08 00 00 80 05 20 05 09 08 00"));
        // state text runs past the header
        assertRefused(RwfError.MEMBER_OVERRUN, hex("00 0e 03 06 00 00 00 07 20 00 21 00 17 53 74 72"));
        assertRefused(RwfError.OUTSIDE_BUFFER, hex("00 09 04 06 00 00 00 05 00 04 01"), 3, 11);
        assertRefused(RwfError.OUTSIDE_BUFFER, hex("00 09 04 06 00 00 00 05 00 04 01"), -1, 5);
    }

    private void assertRefused(final RwfError expected, final byte[] message)
    {
        assertRefused(expected, message, 0, message.length);
    }

    private void assertRefused(final RwfError expected, final byte[] message, final int offset, final int length)
    {
        assertFalse(flyweight.wrap(new UnsafeBuffer(message), offset, length));
        assertEquals(expected, flyweight.error(), flyweight.errorReason());
    }

    @Test
    void randomCorruptionNeverThrowsNorReadsOutOfBounds()
    {
        final Random random = new Random(42);
        final List<byte[]> corpus = corpus();
        final RwfMsgKeyFlyweight key = flyweight.key();
        int accepted = 0;
        for (int i = 0; i < 200_000; i++)
        {
            final byte[] message = corpus.get(random.nextInt(corpus.size())).clone();
            final int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++)
            {
                message[random.nextInt(message.length)] = (byte)random.nextInt(256);
            }
            final int length = random.nextInt(4) == 0 ? random.nextInt(message.length + 1) : message.length;
            final UnsafeBuffer buffer = new UnsafeBuffer(Arrays.copyOf(message, length));
            if (flyweight.wrap(buffer, 0, length))
            {
                accepted++;
                // every accessor must stay inside the message
                flyweight.streamId(flyweight.streamId() + 1);
                final long sum = flyweight.msgClass() + flyweight.domainType() + flyweight.flags()
                    + flyweight.containerType() + flyweight.payloadLength() + flyweight.streamState()
                    + flyweight.dataState() + flyweight.stateCode() + flyweight.seqNum() + flyweight.ackId()
                    + flyweight.postId() + flyweight.postUserAddress() + flyweight.postUserId();
                assertTrue(flyweight.payloadOffset() + flyweight.payloadLength() == length, "sum " + sum);
                if (flyweight.hasMsgKey())
                {
                    key.getName(new byte[256], 0);
                    key.nameEquals(new byte[key.nameLength()]);
                    assertTrue(key.attribOffset() + key.attribLength() <= length);
                }
            }
            else
            {
                assertTrue(RwfError.NONE != flyweight.error());
            }
        }
        assertTrue(accepted > 1000, "some corruptions leave a valid header: " + accepted);
    }
}
