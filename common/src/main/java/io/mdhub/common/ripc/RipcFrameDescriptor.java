package io.mdhub.common.ripc;

/**
 * Layout of RIPC frames after the handshake (protocol facts §2). All integers are big-endian.
 * <p>
 * Every frame starts with a 3-byte header; the length counts the whole frame, header included:
 * <pre>
 *   0                   1                   2
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3
 *  +-------------------------------+---------------+
 *  |        frame length (u16)     |    flags      |
 *  +-------------------------------+---------------+
 * </pre>
 * Frame kinds, classified in this order (as ETA's reader does):
 * <pre>
 *  ping        : [len=3][flags]                                  (ETA sends 00 03 02)
 *  packed      : [len][0x12]( [subLen u16][subLen bytes RWF] )*   (a zero subLen ends the frame)
 *  first frag  : [len][0x03][0x08][total RWF length u32][fragId u16][data]   (10-byte header)
 *  next frag   : [len][0x03][0x04][fragId u16][data]                         (6-byte header)
 *  normal      : [len][0x02][one RWF message of len-3 bytes]
 * </pre>
 * The RWF message has no length of its own: it is the frame length minus the header (or the packed subLen).
 */
public final class RipcFrameDescriptor
{
    /**
     * Offset of the uint16 frame length (counts the whole frame).
     */
    public static final int LENGTH_OFFSET = 0;

    /**
     * Offset of the flags byte.
     */
    public static final int FLAGS_OFFSET = 2;

    /**
     * Offset of the extended flags byte, present when {@link #HAS_OPTIONAL_FLAGS} is set.
     */
    public static final int EXTENDED_FLAGS_OFFSET = 3;

    /**
     * Length of the plain frame header: length + flags.
     */
    public static final int HEADER_LENGTH = 3;

    /**
     * A frame of exactly this length is a ping.
     */
    public static final int PING_FRAME_LENGTH = HEADER_LENGTH;

    /**
     * The largest value the uint16 length field can carry.
     */
    public static final int MAX_FRAME_LENGTH = 0xFFFF;

    /**
     * Flag: a 4th header byte (extended flags) follows; used by fragments, ConnectAck and ConnectNak.
     */
    public static final int HAS_OPTIONAL_FLAGS = 0x01;

    /**
     * Flag: ordinary data; ETA sets it on every data frame and on pings.
     */
    public static final int DATA = 0x02;

    /**
     * Flag: payload compressed. MDHub never negotiates compression, so receiving it is a protocol error.
     */
    public static final int COMPRESSION = 0x04;

    /**
     * Flag: first half of a compressed message split in two. Never negotiated, so a protocol error.
     */
    public static final int COMP_FRAGMENT = 0x08;

    /**
     * Flag: the payload is a sequence of {@code [u16 subLen][RWF]} sub-messages.
     */
    public static final int PACKING = 0x10;

    /**
     * Every flag bit a data-phase frame may carry.
     */
    public static final int KNOWN_FLAGS = HAS_OPTIONAL_FLAGS | DATA | COMPRESSION | COMP_FRAGMENT | PACKING;

    /**
     * Flags byte of a normal data frame.
     */
    public static final int NORMAL_FRAME_FLAGS = DATA;

    /**
     * Flags byte of a packed frame (0x12).
     */
    public static final int PACKED_FRAME_FLAGS = PACKING | DATA;

    /**
     * Flags byte of both fragment kinds (0x03).
     */
    public static final int FRAGMENT_FRAME_FLAGS = DATA | HAS_OPTIONAL_FLAGS;

    /**
     * Extended flag: continuation fragment.
     */
    public static final int EXT_FRAGMENT = 0x04;

    /**
     * Extended flag: first fragment, carries the total length.
     */
    public static final int EXT_FRAGMENT_HEADER = 0x08;

    /**
     * Length of the uint16 sub-message length that precedes each message inside a packed frame.
     */
    public static final int PACKED_LENGTH_FIELD_LENGTH = 2;

    /**
     * Offset of the uint32 total RWF length in a first fragment.
     */
    public static final int FIRST_FRAGMENT_TOTAL_LENGTH_OFFSET = 4;

    /**
     * Offset of the fragment id in a first fragment.
     */
    public static final int FIRST_FRAGMENT_ID_OFFSET = 8;

    /**
     * Header length of a first fragment with a 2-byte fragment id (RIPC13/14).
     */
    public static final int FIRST_FRAGMENT_HEADER_LENGTH = 10;

    /**
     * Offset of the fragment id in a continuation fragment.
     */
    public static final int NEXT_FRAGMENT_ID_OFFSET = 4;

    /**
     * Header length of a continuation fragment with a 2-byte fragment id (RIPC13/14).
     */
    public static final int NEXT_FRAGMENT_HEADER_LENGTH = 6;

    /**
     * The longest header any data-phase frame carries: the allowance on top of maxUserMsgSize for inbound frames.
     */
    public static final int MAX_HEADER_LENGTH = FIRST_FRAGMENT_HEADER_LENGTH;

    /**
     * The ping frame {@code 00 03 02} as ETA sends it.
     */
    private static final byte[] PING_FRAME = {0, PING_FRAME_LENGTH, DATA};

    private RipcFrameDescriptor()
    {
    }

    /**
     * @return a copy of the 3 bytes of a ping frame.
     */
    public static byte[] pingFrame()
    {
        return PING_FRAME.clone();
    }
}
