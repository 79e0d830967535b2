package io.mdhub.common.rwf;

/**
 * Wire layout of an RWF msgKey (facts sheet §3.3). The key is preceded by its u15rb length in the message header
 * (ETA always writes the 2-byte form, decoders accept both).
 * <pre>
 *  +-------------------+------------------+--------------------------------------------------+
 *  | key length u15rb  | key flags u15rb  | members in this order, each iff its flag is set  |
 *  +-------------------+------------------+--------------------------------------------------+
 *     HAS_SERVICE_ID  0x01  serviceId      u16ob
 *     HAS_NAME        0x02  name           uint8 length + bytes
 *     HAS_NAME_TYPE   0x04  nameType       uint8
 *     HAS_FILTER      0x08  filter         uint32
 *     HAS_IDENTIFIER  0x10  identifier     int32
 *     HAS_ATTRIB      0x20  attrib         containerType u8 (+ 128 = DataTypes), u15rb length + bytes
 * </pre>
 */
public final class RwfMsgKeyDescriptor
{
    /** serviceId present. */
    public static final int HAS_SERVICE_ID = 0x01;

    /** name present. */
    public static final int HAS_NAME = 0x02;

    /** nameType present. */
    public static final int HAS_NAME_TYPE = 0x04;

    /** filter present. */
    public static final int HAS_FILTER = 0x08;

    /** identifier present. */
    public static final int HAS_IDENTIFIER = 0x10;

    /** attrib present. */
    public static final int HAS_ATTRIB = 0x20;

    /** Size of the filter. */
    public static final int FILTER_SIZE = 4;

    /** Size of the identifier. */
    public static final int IDENTIFIER_SIZE = 4;

    private RwfMsgKeyDescriptor()
    {
    }
}
