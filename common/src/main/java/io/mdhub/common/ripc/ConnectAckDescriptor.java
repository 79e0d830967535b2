package io.mdhub.common.ripc;

/**
 * Layout of the ConnectAck a server answers with (protocol facts §1.3). Big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |     message length (u16)      | flags (0x01)  | opcode (0x01) |
 *  +---------------+---------------+---------------+---------------+
 *  | hdrLen (0x0a) | unused (0x00) |   ripcVersion (u32: 9 RIPC14, 8 RIPC13) ...
 *  +---------------+---------------+-------------------------------+
 *  |  ... ripcVersion              |    maxUserMsgSize (u16)       |
 *  +---------------+---------------+---------------+---------------+
 *  | session flags | pingTimeout s | major (0x0e)  | minor (0x01)  |
 *  +---------------+---------------+---------------+---------------+
 *  |   compression type (u16)      | comp. level   | RIPC14 only: key-exchange flag (0x08)
 *  +-------------------------------+---------------+-----------------------------------+
 *  | RIPC14 only: encryption type (u8) | key block length k (u8) | k bytes (type 1: P, G, server key as 3 x u64)
 *  +-----------------------------------------------------------------------------------+
 *  | containerLen = L+1 (u8) | L (u8) | server component text (L bytes)
 *  +-----------------------------------------------------------------------------------+
 * </pre>
 * flags 0x80 would force compression: never set. The ETA client masks the ack length with 0xFF while waiting for
 * it, so an ack must stay shorter than 256 bytes ({@link #MAX_LENGTH}).
 */
public final class ConnectAckDescriptor
{
    /**
     * Offset of the flags byte (HAS_OPTIONAL_FLAGS).
     */
    public static final int FLAGS_OFFSET = 2;

    /**
     * Offset of the opcode: {@link #OPCODE_ACK} or {@link #OPCODE_NAK}.
     */
    public static final int OPCODE_OFFSET = 3;

    /**
     * Offset of the header-length byte (the client skips it).
     */
    public static final int HEADER_LENGTH_OFFSET = 4;

    /**
     * Offset of the uint32 ripcVersion.
     */
    public static final int RIPC_VERSION_OFFSET = 6;

    /**
     * Offset of the uint16 maxUserMsgSize.
     */
    public static final int MAX_USER_MSG_SIZE_OFFSET = 10;

    /**
     * Offset of the session flags.
     */
    public static final int SESSION_FLAGS_OFFSET = 12;

    /**
     * Offset of the negotiated ping timeout in seconds.
     */
    public static final int PING_TIMEOUT_OFFSET = 13;

    /**
     * Offset of the RWF major version.
     */
    public static final int MAJOR_VERSION_OFFSET = 14;

    /**
     * Offset of the RWF minor version.
     */
    public static final int MINOR_VERSION_OFFSET = 15;

    /**
     * Offset of the uint16 compression type.
     */
    public static final int COMPRESSION_TYPE_OFFSET = 16;

    /**
     * Offset of the compression level.
     */
    public static final int COMPRESSION_LEVEL_OFFSET = 18;

    /**
     * Offset of the RIPC14 key-exchange block; in RIPC13 the component container starts here.
     */
    public static final int KEY_EXCHANGE_OFFSET = 19;

    /**
     * Length of the fixed part up to the key-exchange block.
     */
    public static final int FIXED_LENGTH = KEY_EXCHANGE_OFFSET;

    /**
     * Length of the key-exchange header: flag, type, length.
     */
    public static final int KEY_EXCHANGE_HEADER_LENGTH = 3;

    /**
     * Value of the header-length byte ETA sends.
     */
    public static final int HEADER_LENGTH = 0x0a;

    /**
     * Opcode of a ConnectAck.
     */
    public static final int OPCODE_ACK = 0x01;

    /**
     * Opcode of a ConnectNak.
     */
    public static final int OPCODE_NAK = 0x02;

    /**
     * Flags byte of an ack: HAS_OPTIONAL_FLAGS.
     */
    public static final int FLAGS = RipcFrameDescriptor.HAS_OPTIONAL_FLAGS;

    /**
     * Flag bit by which a server forces compression; MDHub never sets it and its client refuses it.
     */
    public static final int FORCE_COMPRESSION_FLAG = 0x80;

    /**
     * Session flags: the server expects pings from the client (0x01) and sends pings (0x02).
     */
    public static final int SESSION_FLAGS_BOTH_PINGS = 0x03;

    /**
     * Key-exchange flag byte that opens the block.
     */
    public static final int KEY_EXCHANGE_FLAG = 0x08;

    /**
     * Encryption type meaning "no key exchange".
     */
    public static final int KEY_EXCHANGE_NONE = 0;

    /**
     * Encryption type TR_SL1_64: P, G and the server public key as three uint64.
     */
    public static final int KEY_EXCHANGE_TR_SL1_64 = 1;

    /**
     * Length of the TR_SL1_64 key block.
     */
    public static final int TR_SL1_64_BLOCK_LENGTH = 24;

    /**
     * The ack must be shorter than this: the ETA client masks its length with 0xFF.
     */
    public static final int MAX_LENGTH = 256;

    /**
     * Smallest maxUserMsgSize a server may announce or a client accepts: below it fragments cannot carry data.
     */
    public static final int MIN_MAX_USER_MSG_SIZE = 64;

    /**
     * Largest maxUserMsgSize: the frame, header included, must fit the uint16 frame length.
     */
    public static final int MAX_MAX_USER_MSG_SIZE =
        RipcFrameDescriptor.MAX_FRAME_LENGTH - RipcFrameDescriptor.MAX_HEADER_LENGTH;

    /**
     * Session flag: the server expects pings from the client.
     */
    public static final int SESSION_FLAG_CLIENT_PINGS = 0x01;

    /**
     * Session flag: the server sends pings to the client.
     */
    public static final int SESSION_FLAG_SERVER_PINGS = 0x02;

    /**
     * RWF major version MDHub acks (ETA's Codec.majorVersion()).
     */
    public static final int RWF_MAJOR_VERSION = 14;

    /**
     * RWF minor version MDHub acks (ETA's Codec.minorVersion()).
     */
    public static final int RWF_MINOR_VERSION = 1;

    private ConnectAckDescriptor()
    {
    }
}
