package io.mdhub.distributor;

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
    void itemRejectReasonKeysAreAppendOnly()
    {
        assertCodes(ItemRejectReason.values(),
            "0 unknown-service UNKNOWN_SERVICE",
            "1 too-many-items TOO_MANY_ITEMS",
            "2 bad-key BAD_KEY");
    }

    @Test
    void providerDisconnectReasonKeysAreAppendOnly()
    {
        assertCodes(ProviderDisconnectReason.values(),
            "0 malformed-rwf MALFORMED_RWF",
            "1 malformed-field-list MALFORMED_FIELD_LIST",
            "2 undecodable-admin UNDECODABLE_ADMIN",
            "3 not-logged-in NOT_LOGGED_IN",
            "4 login-rejected LOGIN_REJECTED",
            "5 login-closed LOGIN_CLOSED",
            "6 too-many-providers TOO_MANY_PROVIDERS",
            "7 reencode-failed REENCODE_FAILED",
            "8 operator OPERATOR",
            "9 provider-refused-login PROVIDER_REFUSED_LOGIN",
            "10 route-stopped ROUTE_STOPPED",
            "11 malformed-map MALFORMED_MAP",
            "12 slow-provider SLOW_PROVIDER",
            "13 login-timeout LOGIN_TIMEOUT",
            "14 entitlement-withdrawn ENTITLEMENT_WITHDRAWN");
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
