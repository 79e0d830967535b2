package io.mdhub.common.test.fuzz;

import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Mutated valid messages for fuzzing: a valid encoding damaged by one to five edits (bit flips, bytes set to
 * boundary values, 16- and 32-bit length-like words set to boundary values in either byte order, insertions,
 * deletions, duplicated ranges, truncation). Unlike random bytes, these get past a decoder's first checks and reach
 * its deep code. Every edit is drawn by jqwik, so a failing input shrinks to the fewest, smallest edits.
 */
public final class ByteMutations
{
    private static final int[] BYTES = {0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF};
    private static final int[] WORDS = {0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
    private static final long[] LONGS = {0, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL, 0x1_0000L, 0xFFFF_FFFEL};

    private ByteMutations()
    {
    }

    /**
     * The kinds of edit.
     */
    public enum Kind
    {
        FLIP_BIT, SET_BYTE, SET_BOUNDARY_BYTE, SET_WORD, SET_LONG, INSERT, DELETE, DUPLICATE, TRUNCATE
    }

    /**
     * @param valid valid encodings.
     * @return each damaged by 1..5 edits.
     */
    public static Arbitrary<byte[]> mutated(final Arbitrary<byte[]> valid)
    {
        final Arbitrary<Edit> edit = Combinators.combine(
            Arbitraries.of(Kind.class),
            Arbitraries.integers().between(0, Integer.MAX_VALUE),
            Arbitraries.integers().between(0, 255),
            Arbitraries.integers().between(1, 16),
            Arbitraries.of(true, false)).as(Edit::new);
        // no edge cases: jqwik's would be the same few seeds and edits over and over, crowding out random ones
        return Combinators.combine(valid, edit.list().ofMinSize(1).ofMaxSize(5)).as(ByteMutations::apply)
            .withoutEdgeCases();
    }

    /**
     * @param bytes a message.
     * @param edits to apply in order.
     * @return a damaged copy.
     */
    public static byte[] apply(final byte[] bytes, final List<Edit> edits)
    {
        byte[] result = bytes;
        for (final Edit edit : edits)
        {
            result = edit.apply(result);
        }
        return result;
    }

    /**
     * One edit: its kind, where (taken modulo the length), a value, a length and a byte order.
     */
    public static final class Edit
    {
        private final Kind kind;
        private final int position;
        private final int value;
        private final int length;
        private final boolean bigEndian;

        Edit(final Kind kind, final int position, final int value, final int length, final boolean bigEndian)
        {
            this.kind = kind;
            this.position = position;
            this.value = value;
            this.length = length;
            this.bigEndian = bigEndian;
        }

        byte[] apply(final byte[] in)
        {
            if (0 == in.length)
            {
                return new byte[] {(byte)value};
            }
            final int at = position % in.length;
            final byte[] out;
            switch (kind)
            {
                case FLIP_BIT:
                    out = in.clone();
                    out[at] ^= (byte)(1 << (value & 7));
                    return out;
                case SET_BYTE:
                    out = in.clone();
                    out[at] = (byte)value;
                    return out;
                case SET_BOUNDARY_BYTE:
                    out = in.clone();
                    out[at] = (byte)BYTES[value % BYTES.length];
                    return out;
                case SET_WORD:
                    return put(in, at, WORDS[value % WORDS.length], 2);
                case SET_LONG:
                    return put(in, at, LONGS[value % LONGS.length], 4);
                case INSERT:
                {
                    out = new byte[in.length + length];
                    System.arraycopy(in, 0, out, 0, at);
                    Arrays.fill(out, at, at + length, (byte)(value * 31 + 7));
                    System.arraycopy(in, at, out, at + length, in.length - at);
                    return out;
                }
                case DELETE:
                {
                    final int n = Math.min(length, in.length - at);
                    out = new byte[in.length - n];
                    System.arraycopy(in, 0, out, 0, at);
                    System.arraycopy(in, at + n, out, at, in.length - at - n);
                    return out;
                }
                case DUPLICATE:
                {
                    final int n = Math.min(length, in.length - at);
                    out = new byte[in.length + n];
                    System.arraycopy(in, 0, out, 0, at + n);
                    System.arraycopy(in, at, out, at + n, in.length - at);
                    return out;
                }
                default:
                    return Arrays.copyOf(in, at);
            }
        }

        private byte[] put(final byte[] in, final int at, final long word, final int size)
        {
            final byte[] out = in.clone();
            for (int i = 0; i < size && at + i < out.length; i++)
            {
                final int shift = 8 * (bigEndian ? size - 1 - i : i);
                out[at + i] = (byte)(word >>> shift);
            }
            return out;
        }

        @Override
        public String toString()
        {
            return kind + "@" + position + "(value=" + value + ", length=" + length + (bigEndian ? ", BE)" : ", LE)");
        }
    }
}
