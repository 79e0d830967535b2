package io.mdhub.common.rwf;

import org.agrona.DirectBuffer;

/**
 * Decoders for RWF's variable-width unsigned integers. Callers check the width against their limit before they read
 * the value, so nothing here reads past the bytes the width covers.
 * <pre>
 *  u15rb: 0xxxxxxx                        value &lt; 0x80, 1 byte
 *         1xxxxxxx xxxxxxxx               15-bit value, 2 bytes (ETA writes this form for back-patched lengths)
 *  u16ob: xxxxxxxx                        value &lt; 0xFE, 1 byte
 *         11111110 xxxxxxxx xxxxxxxx      0xFE then uint16, 3 bytes (0xFF is never emitted and is rejected here)
 *  u30rb: 00xxxxxx                        6 bits, 1 byte
 *         10xxxxxx +1 byte                14 bits, 2 bytes
 *         01xxxxxx +2 bytes               22 bits, 3 bytes
 *         11xxxxxx +3 bytes               30 bits, 4 bytes
 * </pre>
 * All multi-byte values are big-endian.
 */
public final class RwfPrimitives
{
    /** Bit of the first u15rb byte that announces the 2-byte form. */
    public static final int U15RB_LONG_FORM_BIT = 0x80;

    /** Largest value a u15rb can carry. */
    public static final int U15RB_MAX = 0x7FFF;

    /** First byte of the 3-byte u16ob form. */
    public static final int U16OB_LONG_FORM_PREFIX = 0xFE;

    /** Largest value a u30rb can carry. */
    public static final int U30RB_MAX = 0x3FFF_FFFF;

    /** Width returned for a first byte that is not a valid encoding. */
    public static final int INVALID_WIDTH = -1;

    private RwfPrimitives()
    {
    }

    /**
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the number of bytes the u15rb at index occupies: 1 or 2.
     */
    public static int u15rbWidth(final DirectBuffer buffer, final int index)
    {
        return 0 == (buffer.getByte(index) & U15RB_LONG_FORM_BIT) ? 1 : 2;
    }

    /**
     * Read a u15rb; the caller has checked that {@link #u15rbWidth(DirectBuffer, int)} bytes are available.
     *
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the value, 0..0x7FFF.
     */
    public static int u15rb(final DirectBuffer buffer, final int index)
    {
        final int b0 = buffer.getByte(index) & 0xFF;
        if (0 == (b0 & U15RB_LONG_FORM_BIT))
        {
            return b0;
        }
        return ((b0 & 0x7F) << 8) | (buffer.getByte(index + 1) & 0xFF);
    }

    /**
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the number of bytes the u16ob at index occupies: 1 or 3, or {@link #INVALID_WIDTH} for a 0xFF prefix.
     */
    public static int u16obWidth(final DirectBuffer buffer, final int index)
    {
        final int b0 = buffer.getByte(index) & 0xFF;
        if (b0 < U16OB_LONG_FORM_PREFIX)
        {
            return 1;
        }
        return U16OB_LONG_FORM_PREFIX == b0 ? 3 : INVALID_WIDTH;
    }

    /**
     * Read a u16ob; the caller has checked that {@link #u16obWidth(DirectBuffer, int)} bytes are available.
     *
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the value, 0..0xFFFF.
     */
    public static int u16ob(final DirectBuffer buffer, final int index)
    {
        final int b0 = buffer.getByte(index) & 0xFF;
        if (b0 < U16OB_LONG_FORM_PREFIX)
        {
            return b0;
        }
        return ((buffer.getByte(index + 1) & 0xFF) << 8) | (buffer.getByte(index + 2) & 0xFF);
    }

    /**
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the number of bytes the u30rb at index occupies: 1 to 4.
     */
    public static int u30rbWidth(final DirectBuffer buffer, final int index)
    {
        switch ((buffer.getByte(index) & 0xC0) >>> 6)
        {
            case 0:
                return 1;
            case 2:
                return 2;
            case 1:
                return 3;
            default:
                return 4;
        }
    }

    /**
     * Read a u30rb; the caller has checked that {@link #u30rbWidth(DirectBuffer, int)} bytes are available.
     *
     * @param buffer holding the value.
     * @param index  of the first byte.
     * @return the value, 0..0x3FFFFFFF.
     */
    public static int u30rb(final DirectBuffer buffer, final int index)
    {
        final int width = u30rbWidth(buffer, index);
        int value = buffer.getByte(index) & 0x3F;
        for (int i = 1; i < width; i++)
        {
            value = (value << 8) | (buffer.getByte(index + i) & 0xFF);
        }
        return value;
    }
}
