package io.mdhub.common.ripc;

/**
 * Layout of a ConnectNak (protocol facts §1.5). An ETA client that gets one gives up (CHAN_INIT_REFUSED), with no
 * version fallback, so a server NAKs only what it can never serve.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |     message length (u16)      | flags (0x01)  | opcode (0x02) |
 *  +---------------+---------------+-------------------------------+
 *  | hdrLen (0x08) | unused (0x00) |      text length (u16)        |
 *  +---------------+---------------+-------------------------------+
 *  |  text (ASCII, including a trailing NUL) ...
 *  +---------------------------------------------------------------
 * </pre>
 */
public final class ConnectNakDescriptor
{
    /**
     * Offset of the uint16 text length.
     */
    public static final int TEXT_LENGTH_OFFSET = 6;

    /**
     * Offset of the text.
     */
    public static final int TEXT_OFFSET = 8;

    /**
     * Value of the header-length byte: the text offset.
     */
    public static final int HEADER_LENGTH = TEXT_OFFSET;

    private ConnectNakDescriptor()
    {
    }
}
