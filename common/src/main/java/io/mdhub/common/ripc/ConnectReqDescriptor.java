package io.mdhub.common.ripc;

/**
 * Layout of the RIPC13/14 ConnectReq, the first message a client sends (protocol facts §1.2). Big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+---------------+---------------+
 *  |     message length (u16)      | opcode (0x00) |               |
 *  +-------------------------------+---------------+               |
 *  |            connectionVersion (u32: 0x17 RIPC14, 0x16 RIPC13)  |
 *  |               +---------------+---------------+---------------+
 *  |               | request flags | headerLength  | compBitmapSize N
 *  +---------------+---------------+---------------+---------------+
 *  |  compression bitmap (N bytes) ...             | pingTimeout s |
 *  +---------------+---------------+---------------+---------------+
 *  | session flags | protocol type | major version | minor version |
 *  +---------------+---------------+---------------+---------------+
 *  | hostLen (u8)  | host name (ASCII) ...  | ipLen (u8) | IP (ASCII dotted quad) ...
 *  +---------------+----------------------------------------------------------------
 *  | (at headerLength) containerLen = L+1 (u8) | L (u8) | component version text (L bytes)
 *  +-------------------------------------------------------------------------------
 * </pre>
 * request flags: 0x08 = key exchange requested (RIPC14). Consistency rule: {@code headerLength + containerLen + 1
 * == message length} (ETA's server tolerates a trailing CR LF).
 */
public final class ConnectReqDescriptor
{
    /**
     * Offset of the uint16 message length.
     */
    public static final int LENGTH_OFFSET = 0;

    /**
     * Offset of the opcode byte, which must be 0.
     */
    public static final int OPCODE_OFFSET = 2;

    /**
     * Offset of the uint32 connectionVersion.
     */
    public static final int CONNECTION_VERSION_OFFSET = 3;

    /**
     * Offset of the request flags.
     */
    public static final int REQUEST_FLAGS_OFFSET = 7;

    /**
     * Offset of headerLength: where the component-version container starts.
     */
    public static final int HEADER_LENGTH_OFFSET = 8;

    /**
     * Offset of the compression bitmap size N.
     */
    public static final int COMPRESSION_BITMAP_SIZE_OFFSET = 9;

    /**
     * Offset of the compression bitmap; the ping timeout follows at {@code 10 + N}.
     */
    public static final int COMPRESSION_BITMAP_OFFSET = 10;

    /**
     * Request flag: the client asks for key exchange (RIPC14).
     */
    public static final int KEY_EXCHANGE_FLAG = 0x08;

    /**
     * Protocol type of RWF, the only one MDHub serves.
     */
    public static final int PROTOCOL_TYPE_RWF = 0;

    /**
     * Length of the fixed fields up to and including the minor version, with an empty compression bitmap.
     */
    public static final int MIN_LENGTH = 15;

    /**
     * Sanity bound on a ConnectReq: host, IP and component are each at most 255 bytes. Anything longer is garbage.
     */
    public static final int MAX_LENGTH = 1024;

    /**
     * The headerLength field is one byte, so everything before the component container must fit in 255 bytes.
     */
    public static final int MAX_HEADER_LENGTH = 0xFF;

    /**
     * Longest IP text a client announces: an IPv6 address in Java's full form (8 x 4 hex digits and 7 colons),
     * without a scope; IPv4 dotted quads are shorter.
     */
    public static final int MAX_IP_ADDRESS_LENGTH = 39;

    /**
     * Fields between the compression bitmap and the host name: ping timeout, session flags, protocol type, major
     * and minor version.
     */
    public static final int FIXED_FIELDS_AFTER_BITMAP_LENGTH = 5;

    private ConnectReqDescriptor()
    {
    }

    /**
     * @param compressionBitmapLength bytes of compression bitmap.
     * @param hostNameLength          bytes of host name.
     * @param ipAddressLength         bytes of IP text.
     * @return the headerLength of a ConnectReq with these fields (must not exceed {@link #MAX_HEADER_LENGTH}).
     */
    public static int headerLength(
        final int compressionBitmapLength, final int hostNameLength, final int ipAddressLength)
    {
        return COMPRESSION_BITMAP_OFFSET + compressionBitmapLength + FIXED_FIELDS_AFTER_BITMAP_LENGTH +
            1 + hostNameLength + 1 + ipAddressLength;
    }
}
