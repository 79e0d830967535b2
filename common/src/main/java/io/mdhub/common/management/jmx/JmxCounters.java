package io.mdhub.common.management.jmx;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The counters of a server's remote JMX: logins accepted, failed and throttled, requests its roles refused.
 */
final class JmxCounters
{
    private final AtomicCounter loginsAccepted;
    private final AtomicCounter loginsFailed;
    private final AtomicCounter loginsThrottled;
    private final AtomicCounter accessDenied;

    JmxCounters(final CountersManager counters, final String component)
    {
        final String suffix = ": component=" + component;
        loginsAccepted = counters.newCounter("jmx-logins-accepted" + suffix, MdCounters.JMX_LOGINS_ACCEPTED_TYPE_ID);
        loginsFailed = counters.newCounter("jmx-logins-failed" + suffix, MdCounters.JMX_LOGINS_FAILED_TYPE_ID);
        loginsThrottled =
            counters.newCounter("jmx-logins-throttled" + suffix, MdCounters.JMX_LOGINS_THROTTLED_TYPE_ID);
        accessDenied = counters.newCounter("jmx-access-denied" + suffix, MdCounters.JMX_ACCESS_DENIED_TYPE_ID);
    }

    AtomicCounter loginsAccepted()
    {
        return loginsAccepted;
    }

    AtomicCounter loginsFailed()
    {
        return loginsFailed;
    }

    AtomicCounter loginsThrottled()
    {
        return loginsThrottled;
    }

    AtomicCounter accessDenied()
    {
        return accessDenied;
    }
}
