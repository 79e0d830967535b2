package io.mdhub.p2p;

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
class CounterReasonCodesTest
{
    @Test
    void disconnectReasonKeysAreAppendOnly()
    {
        assertCodes(DisconnectReason.values(),
            "0 slow-consumer SLOW_CONSUMER",
            "1 malformed-message MALFORMED_MESSAGE",
            "2 login-rejected LOGIN_REJECTED",
            "3 logout LOGOUT",
            "4 admin-drop ADMIN_DROP",
            "5 login-timeout LOGIN_TIMEOUT");
    }

    @Test
    void rejectReasonKeysAreAppendOnly()
    {
        assertCodes(RejectReason.values(),
            "0 unknown-service UNKNOWN_SERVICE",
            "1 not-found NOT_FOUND",
            "2 consumer-item-limit CONSUMER_ITEM_LIMIT",
            "3 server-item-limit SERVER_ITEM_LIMIT",
            "4 login-required LOGIN_REQUIRED",
            "5 provider-login PROVIDER_LOGIN",
            "6 malformed-request MALFORMED_REQUEST",
            "7 unknown-dictionary UNKNOWN_DICTIONARY",
            "8 not-entitled NOT_ENTITLED",
            "9 login-denied LOGIN_DENIED",
            "10 login-throttled LOGIN_THROTTLED",
            "11 entitlement-withdrawn ENTITLEMENT_WITHDRAWN");
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
