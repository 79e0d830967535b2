package io.mdhub.p2p;

import java.util.ArrayList;
import java.util.List;

/**
 * A port the p2p-server accepts consumers on, with the flush profile of every connection it accepts (as RMDS
 * configured tcpNoDelay, timedWrites and flushInterval per listener): latency listeners flush at once with
 * TCP_NODELAY; throughput listeners write on the flush timer and let TCP coalesce. A listener speaks TLS or plain
 * TCP, never both on one port: a server offers both on two listeners.
 *
 * @param port    TCP port, 0 for an ephemeral one.
 * @param profile flush profile of its connections.
 * @param tls     whether the port speaks TLS (with the {@code mdhub.tls.*} settings).
 */
public record ConsumerListener(int port, FlushProfile profile, boolean tls)
{
    private static final String TLS_SUFFIX = "tls";

    /**
     * @param port    TCP port, 0 for an ephemeral one.
     * @param profile flush profile of its connections.
     * @param tls     whether the port speaks TLS.
     */
    public ConsumerListener
    {
        if (port < 0 || port > 0xFFFF)
        {
            throw new IllegalArgumentException("listener port must be 0 to 65535: " + port);
        }
        if (null == profile)
        {
            throw new IllegalArgumentException("listener on port " + port + " needs a flush profile");
        }
    }

    /**
     * A plain-TCP listener.
     *
     * @param port    TCP port, 0 for an ephemeral one.
     * @param profile flush profile of its connections.
     */
    public ConsumerListener(final int port, final FlushProfile profile)
    {
        this(port, profile, false);
    }

    /**
     * @param value comma-separated {@code port:profile[:tls]} entries ({@code 14012:throughput,14022:latency:tls});
     *              blank for none.
     * @return the listeners in the order given.
     * @throws IllegalArgumentException naming the key and the entry that is wrong.
     */
    public static List<ConsumerListener> parseList(final String value)
    {
        final List<ConsumerListener> listeners = new ArrayList<>();
        if (null == value || value.isBlank())
        {
            return listeners;
        }
        for (final String entry : value.split(","))
        {
            final String trimmed = entry.trim();
            final int colon = trimmed.indexOf(':');
            try
            {
                if (colon < 0)
                {
                    throw new IllegalArgumentException("expected port:profile or port:profile:tls");
                }
                final int second = trimmed.indexOf(':', colon + 1);
                final String profile = second < 0 ? trimmed.substring(colon + 1) : trimmed.substring(colon + 1, second);
                final boolean tls = second >= 0;
                if (tls && !TLS_SUFFIX.equals(trimmed.substring(second + 1).trim()))
                {
                    throw new IllegalArgumentException("the only suffix is :tls");
                }
                listeners.add(new ConsumerListener(Integer.parseInt(trimmed.substring(0, colon).trim()),
                    FlushProfile.parse(profile), tls));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(P2pConfiguration.EXTRA_LISTENERS_PROP_NAME + ": bad entry '" +
                    trimmed + "' (" + ex.getMessage() + ")", ex);
            }
        }
        return listeners;
    }
}
