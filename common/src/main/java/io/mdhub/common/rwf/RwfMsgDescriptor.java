package io.mdhub.common.rwf;

import java.nio.ByteOrder;

import org.agrona.MutableDirectBuffer;

/**
 * Wire layout of the prefix every RWF message shares (facts sheet §3.1). RWF carries no message length: the transport
 * (RIPC frame or packed sub-length) gives it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |      header length (uint16)   |   msgClass    |  domainType   |
 *  +-------------------------------+---------------+---------------+
 *  |                     streamId (int32, signed)                  |
 *  +---------------+---------------+---------------+---------------+
 *  | flags u15rb (1 or 2 bytes)    | containerType | class members |
 *  +---------------+---------------+---------------+--   ...     --+
 *  | class-specific members in fixed order, each optional one     |
 *  | present iff its flag is set (see {@link RwfMsgFlags})        |
 *  +---------------------------------------------------------------+ &lt;- 2 + header length
 *  | payload (containerType + 128 = ETA DataTypes)                |
 *  +---------------------------------------------------------------+ &lt;- message length
 * </pre>
 * All fixed-width integers are big-endian.
 */
public final class RwfMsgDescriptor
{
    /** Byte order of every fixed-width RWF integer. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;

    /** Offset of the uint16 header length: the number of header bytes after this field. */
    public static final int HEADER_LENGTH_OFFSET = 0;

    /** Size of the header length field; the payload starts at this plus the header length. */
    public static final int HEADER_LENGTH_FIELD_SIZE = 2;

    /** Offset of the msgClass byte. */
    public static final int MSG_CLASS_OFFSET = 2;

    /** Offset of the domainType byte. */
    public static final int DOMAIN_TYPE_OFFSET = 3;

    /** Offset of the int32 streamId, the one field fan-out rewrites in place. */
    public static final int STREAM_ID_OFFSET = 4;

    /** Size of the streamId. */
    public static final int STREAM_ID_SIZE = 4;

    /** Offset of the u15rb flags. */
    public static final int FLAGS_OFFSET = 8;

    /** Smallest possible message: prefix, 1-byte flags and containerType. */
    public static final int MIN_MESSAGE_LENGTH = FLAGS_OFFSET + 2;

    /** Smallest header length that can hold the prefix with 1-byte flags and the containerType. */
    public static final int MIN_HEADER_LENGTH = MIN_MESSAGE_LENGTH - HEADER_LENGTH_FIELD_SIZE;

    /** Added to the containerType on the wire to get the ETA {@code DataTypes} value. */
    public static final int CONTAINER_TYPE_BASE = 128;

    /** msgClass of a RequestMsg. */
    public static final int REQUEST = 1;

    /** msgClass of a RefreshMsg. */
    public static final int REFRESH = 2;

    /** msgClass of a StatusMsg. */
    public static final int STATUS = 3;

    /** msgClass of an UpdateMsg. */
    public static final int UPDATE = 4;

    /** msgClass of a CloseMsg. */
    public static final int CLOSE = 5;

    /** msgClass of an AckMsg. */
    public static final int ACK = 6;

    /** msgClass of a GenericMsg. */
    public static final int GENERIC = 7;

    /** msgClass of a PostMsg. */
    public static final int POST = 8;

    private RwfMsgDescriptor()
    {
    }

    /**
     * Overwrite the streamId of the message that starts at msgOffset. Safe for every class: the streamId has a fixed
     * width, so nothing else moves.
     *
     * @param buffer    holding the message.
     * @param msgOffset of the first byte of the RWF message (its header length field).
     * @param streamId  to write.
     */
    public static void streamId(final MutableDirectBuffer buffer, final int msgOffset, final int streamId)
    {
        buffer.putInt(msgOffset + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
    }

    /**
     * @param msgClass a msgClass byte.
     * @return true for the eight classes RWF defines.
     */
    public static boolean isKnownMsgClass(final int msgClass)
    {
        return msgClass >= REQUEST && msgClass <= POST;
    }

    /**
     * @param msgClass a msgClass byte.
     * @return its name for logs, or "UNKNOWN".
     */
    public static String msgClassName(final int msgClass)
    {
        switch (msgClass)
        {
            case REQUEST:
                return "REQUEST";
            case REFRESH:
                return "REFRESH";
            case STATUS:
                return "STATUS";
            case UPDATE:
                return "UPDATE";
            case CLOSE:
                return "CLOSE";
            case ACK:
                return "ACK";
            case GENERIC:
                return "GENERIC";
            case POST:
                return "POST";
            default:
                return "UNKNOWN";
        }
    }
}
