package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.hex;

/**
 * RWF messages captured between real ETA 3.9.1.0 applications (/work/shared/protocol/dumps), RIPC header removed.
 */
final class RwfDumpVectors
{
    /** consumer-session S->C #6: level-1 update, stream 5, 7 fields (57 bytes). */
    static final byte[] LEVEL1_UPDATE = hex(
        "00 09 04 06 00 00 00 05 00 04 01 08 00 07 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e 03"
        + "0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    /** consumer-session C->S #6: streaming MarketPrice request for TRI.N on service 1, stream 5. */
    static final byte[] REQUEST_TRI_N = hex("00 16 01 06 00 00 00 05 46 00 01 01 22 80 09 07 01 05 54 52 49 2e 4e 01");

    /** The same request with the 1-byte key length form (dec-probes: ETA decodes it). */
    static final byte[] REQUEST_TRI_N_SHORT_KEY_LENGTH =
        hex("00 15 01 06 00 00 00 05 46 00 01 01 22 09 07 01 05 54 52 49 2e 4e 01");

    /** consumer-session C->S #2: login request of "labuser" with an ElementList attrib. */
    static final byte[] LOGIN_REQUEST = hex(
        "00 59 01 01 00 00 00 01 04 00 80 4f 26 07 6c 61 62 75 73 65 72 01 05 80 42 08 00 03 0d"
        + "41 70 70 6c 69 63 61 74 69 6f 6e 49 64 11 03 32 35 36 0f 41 70 70 6c 69 63 61 74 69 6f 6e 4e 61"
        + "6d 65 11 03 65 74 61 08 50 6f 73 69 74 69 6f 6e 11 0c 31 32 37 2e 30 2e 30 2e 31 2f 76 6d");

    /** consumer-session C->S #3: directory request, stream 2, filter 7. */
    static final byte[] DIRECTORY_REQUEST = hex("00 0f 01 04 00 00 00 02 04 00 80 05 08 00 00 00 07");

    /** consumer-session C->S #4: dictionary request RWFFld, stream 3, service 1, verbosity 7. */
    static final byte[] DICTIONARY_REQUEST =
        hex("00 17 01 05 00 00 00 03 00 00 80 0d 0b 01 06 52 57 46 46 6c 64 00 00 00 07");

    /** consumer-session S->C #2: directory refresh, stream 2, Map payload (394 bytes). */
    static final byte[] DIRECTORY_REFRESH = hex(
        "00 38 02 04 00 00 00 02 81 68 09 09 00 22 53 6f 75 72 63 65 20 44 69 72 65 63 74 6f 72"
        + "79 20 52 65 66 72 65 73 68 20 43 6f 6d 70 6c 65 74 65 64 02 00 00 80 05 08 00 00 00 07 00 04 07"
        + "00 01 02 01 01 fe 01 45 00 05 02 02 01 fe 01 10 08 00 0b 04 4e 61 6d 65 11 0b 44 49 52 45 43 54"
        + "5f 46 45 45 44 06 56 65 6e 64 6f 72 11 03 4c 61 62 08 49 73 53 6f 75 72 63 65 04 01 01 0c 43 61"
        + "70 61 62 69 6c 69 74 69 65 73 0f fe 00 0a 04 00 00 03 01 05 01 06 01 07 14 44 69 63 74 69 6f 6e"
        + "61 72 69 65 73 50 72 6f 76 69 64 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57 46"
        + "45 6e 75 6d 10 44 69 63 74 69 6f 6e 61 72 69 65 73 55 73 65 64 0f fe 00 13 11 00 00 02 06 52 57"
        + "46 46 6c 64 07 52 57 46 45 6e 75 6d 03 51 6f 53 0f fe 00 06 0c 00 00 01 01 22 10 53 75 70 70 6f"
        + "72 74 73 51 6f 53 52 61 6e 67 65 04 01 00 08 49 74 65 6d 4c 69 73 74 11 0e 5f 45 54 41 5f 49 54"
        + "45 4d 5f 4c 49 53 54 1a 53 75 70 70 6f 72 74 73 4f 75 74 4f 66 42 61 6e 64 53 6e 61 70 73 68 6f"
        + "74 73 04 01 00 17 41 63 63 65 70 74 69 6e 67 43 6f 6e 73 75 6d 65 72 53 74 61 74 75 73 04 01 00"
        + "02 02 fe 00 28 08 00 02 0c 53 65 72 76 69 63 65 53 74 61 74 65 04 01 01 11 41 63 63 65 70 74 69"
        + "6e 67 52 65 71 75 65 73 74 73 04 01 01");

    /** consumer-session S->C #5: MarketPrice refresh of TRI.N, stream 5, 16 fields. */
    static final byte[] REFRESH_TRI_N = hex(
        "00 31 02 06 00 00 00 05 81 e8 04 09 00 16 49 74 65 6d 20 52 65 66 72 65 73 68 20 43 6f"
        + "6d 70 6c 65 74 65 64 02 00 00 22 80 09 07 01 05 54 52 49 2e 4e 01 09 03 01 00 00 00 10 00 02 01"
        + "64 00 03 08 4c 41 42 20 49 54 45 4d 00 04 01 02 00 06 03 0c 30 39 00 0b 00 00 0f 02 03 48 00 10"
        + "04 15 0b 07 e9 00 12 03 0e 1e 05 00 20 04 0e 0f 42 40 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e"
        + "03 0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    /** consumer-session C->S #8: batch request (HAS_BATCH) for A.N and BB.N, stream 7. */
    static final byte[] BATCH_REQUEST = hex(
        "00 0e 01 06 00 00 00 07 88 44 05 22 80 02 01 01 08 00 01 09 3a 49 74 65 6d 4c 69 73 74"
        + "0f fe 00 0d 11 00 00 02 03 41 2e 4e 04 42 42 2e 4e");

    /** consumer-session S->C #12: StatusMsg closing the batch stream 7. */
    static final byte[] BATCH_STATUS = hex(
        "00 22 03 06 00 00 00 07 20 00 21 00 17 53 74 72 65 61 6d 20 63 6c 6f 73 65 64 20 66 6f"
        + "72 20 62 61 74 63 68");

    /** niprovider-session C->S #4: NIP refresh of TRI.N on stream -2 (no SOLICITED). */
    static final byte[] NIP_REFRESH = hex(
        "00 1b 02 06 ff ff ff fe 81 c8 04 09 00 00 02 00 00 22 80 09 07 01 05 54 52 49 2e 4e 01"
        + "09 03 01 00 00 00 10 00 02 01 64 00 03 08 4c 41 42 20 49 54 45 4d 00 04 01 02 00 06 03 0c 30 39"
        + "00 0b 00 00 0f 02 03 48 00 10 04 15 0b 07 e9 00 12 03 0e 1e 05 00 20 04 0e 0f 42 40 00 16 03 0c"
        + "30 34 00 19 03 0c 30 3e 00 1e 03 0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04"
        + "01 05 0e 1e 06 00 7b");

    /** niprovider-session C->S #6: NIP StatusMsg Closed on stream -2. */
    static final byte[] NIP_STATUS_CLOSED =
        hex("00 17 03 06 ff ff ff fe 20 00 22 00 0c 69 74 65 6d 20 64 72 6f 70 70 65 64");

    /** Section 2.6: CloseMsg on the login stream. */
    static final byte[] LOGIN_CLOSE = hex("00 08 05 01 00 00 00 01 00 00");

    /** enc-probes: minimal AckMsg, ackId 7 on stream 1. */
    static final byte[] ACK_MINIMAL = hex("00 0c 06 06 00 00 00 01 00 00 00 00 00 07");

    /** The level-1 update with a header one unknown byte longer (dec-probes: ETA decodes it, payload via hdrLen). */
    static final byte[] LEVEL1_UPDATE_LONGER_HEADER = hex(
        "00 0a 04 06 00 00 00 05 00 04 01 ee 08 00 07 00 16 03 0c 30 34 00 19 03 0c 30 3e 00 1e 03"
        + "0e 01 f4 00 1f 03 0e 02 bc 00 06 03 0c 30 39 00 b2 02 0e 64 04 01 05 0e 1e 06 00 7b");

    private RwfDumpVectors()
    {
    }

    static byte[][] all()
    {
        return new byte[][]
        {
            LEVEL1_UPDATE, REQUEST_TRI_N, REQUEST_TRI_N_SHORT_KEY_LENGTH, LOGIN_REQUEST, DIRECTORY_REQUEST,
            DICTIONARY_REQUEST, DIRECTORY_REFRESH, REFRESH_TRI_N, BATCH_REQUEST, BATCH_STATUS, NIP_REFRESH,
            NIP_STATUS_CLOSED, LOGIN_CLOSE, ACK_MINIMAL, LEVEL1_UPDATE_LONGER_HEADER,
        };
    }
}
