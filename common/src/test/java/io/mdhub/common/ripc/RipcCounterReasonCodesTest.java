package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.status.CounterReason;
import io.mdhub.common.test.InterruptAfter;

/**
 * The codes and labels that key this module's reason counters, as dashboards and scraped series know them: a new
 * reason is appended, none is renumbered, renamed or removed.
 */
@InterruptAfter(10)
class RipcCounterReasonCodesTest
{
    @Test
    void ripcDisconnectReasonKeysAreAppendOnly()
    {
        assertCodes(RipcDisconnectReason.values(),
            "0 peer-closed PEER_CLOSED",
            "1 local-close LOCAL_CLOSE",
            "2 handshake-timeout HANDSHAKE_TIMEOUT",
            "3 bad-handshake BAD_HANDSHAKE",
            "4 version-not-supported VERSION_NOT_SUPPORTED",
            "5 connect-refused CONNECT_REFUSED",
            "6 frame-too-short FRAME_TOO_SHORT",
            "7 frame-too-long FRAME_TOO_LONG",
            "8 bad-flags BAD_FLAGS",
            "9 bad-packing BAD_PACKING",
            "10 bad-fragment BAD_FRAGMENT",
            "11 reassembly-limit REASSEMBLY_LIMIT",
            "12 partial-frame-timeout PARTIAL_FRAME_TIMEOUT",
            "13 ping-timeout PING_TIMEOUT",
            "14 error ERROR",
            "15 address-budget ADDRESS_BUDGET",
            "16 tls-handshake TLS_HANDSHAKE");
    }

    private static void assertCodes(final CounterReason[] reasons, final String... expected)
    {
        final List<String> actual = new ArrayList<>();
        for (final CounterReason reason : reasons)
        {
            actual.add(reason.code() + " " + reason.label() + " " + reason.name());
        }
        assertEquals(List.of(expected), actual);
    }
}
