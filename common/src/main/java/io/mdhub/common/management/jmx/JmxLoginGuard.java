package io.mdhub.common.management.jmx;

import java.rmi.server.RemoteServer;
import java.rmi.server.ServerNotActiveException;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.log.LogSummary;

/**
 * Checks each remote JMX login against the {@link JmxUsers}, on the RMI thread of the login. Every refusal is counted
 * and logged in summary (the user name, never the password; the remote address). Failed logins of one address are
 * throttled as the servers' RSSL logins are ({@link LoginThrottle}): after {@code failuresPerMinute} failures within a
 * minute, the address's logins are refused without their password being looked at until a minute after its last
 * failure, so a password guesser gets a handful of tries a minute. Thread safe.
 */
final class JmxLoginGuard implements JMXAuthenticator
{
    private static final Logger LOG = LoggerFactory.getLogger(JmxLoginGuard.class);
    private static final int KEY_ACCEPTED = 0;
    private static final int KEY_FAILED = 1;
    private static final int KEY_THROTTLED = 2;
    private static final long MINUTE_NS = TimeUnit.MINUTES.toNanos(1);

    private final String component;
    private final JmxUsers users;
    private final JmxCounters counters;
    private final int failuresPerMinute;
    private final LogSummary logSummary;
    private final LoginThrottle throttle;

    JmxLoginGuard(final String component, final JmxUsers users, final JmxCounters counters,
        final int failuresPerMinute)
    {
        this.component = component;
        this.users = users;
        this.counters = counters;
        this.failuresPerMinute = failuresPerMinute;
        this.logSummary = new LogSummary(LOG, component, "JMX logins", 3);
        this.throttle = new LoginThrottle(failuresPerMinute, MINUTE_NS, MINUTE_NS);
    }

    @Override
    public Subject authenticate(final Object credentials)
    {
        final String address = remoteAddress();
        if (!(credentials instanceof String[]) || 2 != ((String[])credentials).length ||
            null == ((String[])credentials)[0] || null == ((String[])credentials)[1])
        {
            return refuse(address, "(none)", "no user name and password given");
        }
        final String user = printable(((String[])credentials)[0]);
        final String password = ((String[])credentials)[1];
        if (throttle.isBlocked(address, System.nanoTime()))
        {
            counters.loginsThrottled().increment();
            if (logSummary.admit(KEY_THROTTLED, "throttled", true, "user=" + user + " from=" + address))
            {
                LOG.warn("{}: JMX login refused unchecked: user={} from={}: more than {} failed logins a minute " +
                    "from that address", component, user, address, failuresPerMinute);
            }
            throw new SecurityException("too many failed logins from " + address + "; try again later");
        }
        if (!users.verify(((String[])credentials)[0], password))
        {
            throttle.onFailure(address, System.nanoTime());
            return refuse(address, user, "wrong user name or password");
        }
        final JmxRole role = users.roleOf(((String[])credentials)[0]);
        if (null == role)
        {
            throttle.onFailure(address, System.nanoTime());
            return refuse(address, user, "the user has no role in " + JmxConfiguration.ACCESS_FILE_PROP_NAME);
        }
        counters.loginsAccepted().increment();
        if (logSummary.admit(KEY_ACCEPTED, "accepted", false, "user=" + user + " from=" + address))
        {
            LOG.info("{}: JMX login: user={} role={} from={}", component, user, role.name().toLowerCase(), address);
        }
        return new Subject(true, Set.of(new JMXPrincipal(((String[])credentials)[0])), Set.of(), Set.of());
    }

    /**
     * @return the log's pending summaries, written (at close).
     */
    void flush()
    {
        logSummary.flush();
    }

    private Subject refuse(final String address, final String user, final String reason)
    {
        counters.loginsFailed().increment();
        if (logSummary.admit(KEY_FAILED, "failed", true, "user=" + user + " from=" + address + ": " + reason))
        {
            LOG.warn("{}: JMX login refused: user={} from={}: {}", component, user, address, reason);
        }
        // the client learns no more than that: not whether the user exists
        throw new SecurityException("authentication failed");
    }

    private static String remoteAddress()
    {
        try
        {
            return RemoteServer.getClientHost();
        }
        catch (final ServerNotActiveException ex)
        {
            return "local"; // not called from an RMI client: a connector of this process
        }
    }

    /**
     * A user name fit for a log line: printable characters only, at most 64 of them.
     */
    private static String printable(final String name)
    {
        final StringBuilder printable = new StringBuilder();
        for (int i = 0; i < name.length() && i < 64; i++)
        {
            final char c = name.charAt(i);
            printable.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return printable.toString();
    }
}
