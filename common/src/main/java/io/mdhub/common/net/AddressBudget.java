package io.mdhub.common.net;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one remote address may cost a listener, whatever it speaks: at most so many connections in their handshake
 * (accepted, not yet proven to speak the protocol) at once, and new connections at a bounded rate (a token bucket
 * holding one second's worth). The listener closes a connection over either budget as it is accepted, before any
 * handler, buffer or timer is set up for it, so a flood of connections from one address costs the flooder its
 * connections and the listener almost nothing, and other addresses' sessions keep their threads. Thread safe (a
 * listener's event loops may share one); an address's entry is dropped once it is idle again.
 */
public final class AddressBudget
{
    /** Entries beyond which idle ones are swept, at most once a second. */
    private static final int SWEEP_THRESHOLD = 10_000;
    private static final long SWEEP_INTERVAL_NS = 1_000_000_000L;

    private final int maxHandshakes;
    private final long acceptsPerSecond;
    private final String maxHandshakesKey;
    private final String acceptRateKey;
    private final ConcurrentHashMap<InetAddress, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong nextSweepNs = new AtomicLong();

    /**
     * @param maxHandshakes    connections of one address in their handshake at once.
     * @param acceptsPerSecond new connections one address may open a second (also the burst).
     * @param maxHandshakesKey the configuration key of the first, named in refusals.
     * @param acceptRateKey    the configuration key of the second, named in refusals.
     */
    public AddressBudget(
        final int maxHandshakes,
        final long acceptsPerSecond,
        final String maxHandshakesKey,
        final String acceptRateKey)
    {
        this.maxHandshakes = maxHandshakes;
        this.acceptsPerSecond = acceptsPerSecond;
        this.maxHandshakesKey = maxHandshakesKey;
        this.acceptRateKey = acceptRateKey;
    }

    /**
     * @param address the remote address of a connection just accepted.
     * @param nowNs   now.
     * @return null if admitted (its handshake counts until {@link #handshakeEnded}), else why it is refused.
     */
    public String admit(final InetAddress address, final long nowNs)
    {
        final long sweepAtNs = nextSweepNs.get();
        if (entries.size() > SWEEP_THRESHOLD && nowNs - sweepAtNs >= 0 &&
            nextSweepNs.compareAndSet(sweepAtNs, nowNs + SWEEP_INTERVAL_NS))
        {
            entries.forEach((key, entry) ->
            {
                synchronized (entry)
                {
                    if (entry.isIdle(nowNs))
                    {
                        entries.remove(key, entry);
                    }
                }
            });
        }
        while (true)
        {
            final Entry entry = entries.computeIfAbsent(address, (key) -> new Entry(acceptsPerSecond, nowNs));
            synchronized (entry)
            {
                if (entries.get(address) == entry) // not swept away meanwhile
                {
                    return admit(entry, address, nowNs);
                }
            }
        }
    }

    private String admit(final Entry entry, final InetAddress address, final long nowNs)
    {
        entry.refill(nowNs);
        if (entry.tokens < 1)
        {
            return "more than " + acceptsPerSecond + " new connections a second from " +
                address.getHostAddress() + " (" + acceptRateKey + ")";
        }
        if (entry.handshakes >= maxHandshakes)
        {
            return "more than " + maxHandshakes + " connections from " + address.getHostAddress() +
                " in their handshake at once (" + maxHandshakesKey + ")";
        }
        entry.tokens -= 1;
        entry.handshakes++;
        return null;
    }

    /**
     * The handshake of an admitted connection is over (completed, or the connection closed).
     */
    public void handshakeEnded(final InetAddress address)
    {
        final Entry entry = entries.get(address);
        if (null != entry)
        {
            synchronized (entry)
            {
                entry.handshakes = Math.max(0, entry.handshakes - 1);
            }
        }
    }

    /**
     * @return addresses with an entry (for tests).
     */
    public int addresses()
    {
        return entries.size();
    }

    private final class Entry
    {
        double tokens;
        long refilledAtNs;
        int handshakes;

        Entry(final long tokens, final long nowNs)
        {
            this.tokens = tokens;
            this.refilledAtNs = nowNs;
        }

        void refill(final long nowNs)
        {
            final long elapsedNs = nowNs - refilledAtNs;
            if (elapsedNs > 0)
            {
                tokens = Math.min(acceptsPerSecond, tokens + elapsedNs * (acceptsPerSecond / 1e9));
                refilledAtNs = nowNs;
            }
        }

        synchronized boolean isIdle(final long nowNs)
        {
            refill(nowNs);
            return 0 == handshakes && tokens >= acceptsPerSecond;
        }
    }
}
