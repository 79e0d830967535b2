package io.mdhub.common.order.fix;

import java.util.Arrays;
import java.util.Random;

/**
 * Random damage to FIX messages: byte flips, SOH/'='/digit injection, deletions, insertions, truncations, field
 * deletion, duplication and swaps, appended garbage, and combinations.
 */
final class FixMutator
{
    private static final byte SOH = 1;
    private static final byte[] INTERESTING = {SOH, '=', '0', '1', '9', '.', '-', 'D', ' ', (byte)0x80, (byte)0xFF};

    private final Random random;

    FixMutator(final Random random)
    {
        this.random = random;
    }

    byte[] mutate(final byte[] message)
    {
        byte[] bytes = message;
        final int rounds = random.nextInt(4) == 0 ? 2 + random.nextInt(4) : 1;
        for (int i = 0; i < rounds; i++)
        {
            bytes = mutateOnce(bytes);
        }
        return bytes;
    }

    private byte[] mutateOnce(final byte[] message)
    {
        if (0 == message.length)
        {
            return new byte[] {(byte)random.nextInt(256)};
        }
        final byte[] bytes = message.clone();
        final int at = random.nextInt(bytes.length);
        switch (random.nextInt(10))
        {
            case 0:
                bytes[at] = (byte)random.nextInt(256);
                return bytes;
            case 1:
                bytes[at] = INTERESTING[random.nextInt(INTERESTING.length)];
                return bytes;
            case 2:
                bytes[at] = (byte)('0' + random.nextInt(10));
                return bytes;
            case 3:
                return remove(bytes, at, 1 + random.nextInt(Math.min(4, bytes.length - at)));
            case 4:
                return insert(bytes, at, new byte[] {INTERESTING[random.nextInt(INTERESTING.length)]});
            case 5:
                return Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 6:
            {
                final int[] field = field(bytes, at);
                return remove(bytes, field[0], field[1] - field[0]);
            }
            case 7:
            {
                final int[] field = field(bytes, at);
                final int[] other = field(bytes, random.nextInt(bytes.length));
                return insert(bytes, other[0], Arrays.copyOfRange(bytes, field[0], field[1]));
            }
            case 8:
            {
                final int[] field = field(bytes, at);
                final byte[] moved = Arrays.copyOfRange(bytes, field[0], field[1]);
                final byte[] without = remove(bytes, field[0], field[1] - field[0]);
                final int[] other = field(without, random.nextInt(Math.max(1, without.length)));
                return insert(without, Math.min(other[0], without.length), moved);
            }
            default:
            {
                final byte[] extra = new byte[1 + random.nextInt(8)];
                random.nextBytes(extra);
                return insert(bytes, random.nextBoolean() ? bytes.length : at, extra);
            }
        }
    }

    /**
     * @return [start, end) of the field (with its SOH) that holds index at.
     */
    private static int[] field(final byte[] bytes, final int at)
    {
        if (0 == bytes.length)
        {
            return new int[] {0, 0};
        }
        int start = Math.min(at, bytes.length - 1);
        while (start > 0 && SOH != bytes[start - 1])
        {
            start--;
        }
        int end = Math.min(at, bytes.length - 1);
        while (end < bytes.length && SOH != bytes[end])
        {
            end++;
        }
        return new int[] {start, Math.min(end + 1, bytes.length)};
    }

    private static byte[] remove(final byte[] bytes, final int at, final int length)
    {
        final byte[] result = new byte[bytes.length - length];
        System.arraycopy(bytes, 0, result, 0, at);
        System.arraycopy(bytes, at + length, result, at, bytes.length - at - length);
        return result;
    }

    private static byte[] insert(final byte[] bytes, final int at, final byte[] inserted)
    {
        final byte[] result = new byte[bytes.length + inserted.length];
        System.arraycopy(bytes, 0, result, 0, at);
        System.arraycopy(inserted, 0, result, at, inserted.length);
        System.arraycopy(bytes, at, result, at + inserted.length, bytes.length - at);
        return result;
    }

    /**
     * Give a damaged message a correct BodyLength and CheckSum again, so that only its fields are wrong: the body
     * is everything after the first two fields up to the last "10=" field (or the end).
     *
     * @param bytes a message that started as "8=...|9=...|".
     * @return the resealed message, or null if the first two fields are gone.
     */
    static byte[] reseal(final byte[] bytes)
    {
        final String text = FixMessages.string(bytes, 0, bytes.length);
        final int first = text.indexOf(SOH);
        final int second = first < 0 ? -1 : text.indexOf(SOH, first + 1);
        if (second < 0)
        {
            return null;
        }
        int bodyEnd = text.lastIndexOf(FixMessages.SOH + "10=");
        bodyEnd = bodyEnd < second ? text.length() : bodyEnd + 1;
        String body = text.substring(second + 1, bodyEnd);
        if (!body.isEmpty() && body.charAt(body.length() - 1) != FixMessages.SOH)
        {
            body += FixMessages.SOH;
        }
        final String beginString = text.substring(0, first + 1);
        final String head = beginString + "9=" + body.length() + FixMessages.SOH + body;
        return FixMessages.bytes(FixMessages.withChecksum(head));
    }
}
