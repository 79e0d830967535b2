package io.mdhub.common.ripc;

/**
 * Layout of the RIPC14 ClientKey, the third leg of the handshake (protocol facts §1.4). An ETA client always sends
 * it after a RIPC14 ConnectAck and goes ACTIVE without waiting; the server must consume it before RIPC framing,
 * because its 0x08 would otherwise read as the COMP_FRAGMENT flag.
 * <pre>
 *  key exchange declined (type != 1):      key exchange accepted (type 1, TR_SL1_64):
 *  +-----------+------+------+             +-----------+------+------+------------------------+
 *  | 00 04     | 0x08 | 0x00 |             | 00 0c     | 0x08 | 0x08 | client public key (u64)|
 *  | len (u16) | flag | klen |             | len (u16) | flag | klen |                        |
 *  +-----------+------+------+             +-----------+------+------+------------------------+
 * </pre>
 */
public final class ClientKeyDescriptor
{
    /**
     * Offset of the key-exchange flag byte.
     */
    public static final int FLAG_OFFSET = 2;

    /**
     * Offset of the key length byte.
     */
    public static final int KEY_LENGTH_OFFSET = 3;

    /**
     * Offset of the key.
     */
    public static final int KEY_OFFSET = 4;

    /**
     * The flag byte value.
     */
    public static final int FLAG = 0x08;

    /**
     * Length of a declined ClientKey.
     */
    public static final int DECLINED_LENGTH = 4;

    /**
     * Length of a TR_SL1_64 public key.
     */
    public static final int TR_SL1_64_KEY_LENGTH = 8;

    /**
     * Length of an accepted (TR_SL1_64) ClientKey.
     */
    public static final int TR_SL1_64_LENGTH = KEY_OFFSET + TR_SL1_64_KEY_LENGTH;

    private ClientKeyDescriptor()
    {
    }
}
