package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.collections.ArrayListUtil;
import org.agrona.concurrent.status.AtomicCounter;

import io.mdhub.common.status.MdCounters;
import io.netty.util.concurrent.EventExecutor;

/**
 * Pauses and resumes reading of the logged-in provider connections for the backbone publisher
 * ({@link ProviderReadControl}), and keeps paused connections alive.
 * <p>
 * <b>Liveness while paused.</b> A provider's RIPC pings arrive in the same byte stream as its data, so a connection
 * that is not read looks dead to the RIPC liveness handler after the ping timeout (and an incomplete frame after the
 * partial-frame timeout). Our own pause must not cost a healthy provider its connection, so a connection paused for
 * longer than a third of the shorter of those timeouts gets one single socket read ({@code channel.read()} with
 * autoRead still off) every such interval: whatever that read brings is delivered as usual (the backbone publisher
 * keeps it in its bounded store, or drops and counts it when the store is full), and the bytes prove the peer alive.
 * Pauses are normally short (the backbone consumes within milliseconds); these keep-alive reads only matter when the
 * backbone stalls for seconds, and they bound what such a stall can cost to one read per connection per interval.
 * <p>
 * Counts episodes, time paused and keep-alive reads. Owned by the distributor's event loop; the keep-alive tick is
 * scheduled on it at the first pause and runs for the distributor's life (it returns at once while reading).
 */
final class ProviderReadGate implements ProviderReadControl, Runnable
{
    /** Keep-alive check period: far below the shortest keep-alive interval (a third of a one-second timeout). */
    static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final EventExecutor eventLoop;
    private final ArrayList<ProviderLink> sessions = new ArrayList<>();
    private final AtomicCounter pauses;
    private final AtomicCounter pausedNs;
    private final AtomicCounter keepAliveReads;
    private ScheduledFuture<?> tick;
    private boolean isPaused;
    private long accountedNs;

    /**
     * @param eventLoop the distributor's event loop (keep-alive tick), or null for none (tests on an
     *                  EmbeddedChannel).
     * @param counters  where the gate's counters are allocated.
     */
    ProviderReadGate(final EventExecutor eventLoop, final DistributorCounters counters)
    {
        this.eventLoop = eventLoop;
        this.pauses = counters.newCounter(MdCounters.DISTRIBUTOR_READ_PAUSES_TYPE_ID,
            "distributor-read-pauses: reason=backbone");
        this.pausedNs = counters.newCounter(MdCounters.DISTRIBUTOR_READ_PAUSED_NS_TYPE_ID,
            "distributor-read-paused-ns: reason=backbone");
        this.keepAliveReads = counters.newCounter(MdCounters.DISTRIBUTOR_KEEPALIVE_READS_TYPE_ID,
            "distributor-keepalive-reads: reason=backbone");
    }

    /**
     * A provider logged in: from now on its reading follows the gate (paused at once if the gate is paused).
     */
    void register(final ProviderLink session)
    {
        sessions.add(session);
        if (isPaused)
        {
            session.pauseReading(System.nanoTime());
        }
    }

    /**
     * A provider connection is gone.
     */
    void unregister(final ProviderLink session)
    {
        final int index = sessions.indexOf(session);
        if (index >= 0)
        {
            ArrayListUtil.fastUnorderedRemove(sessions, index);
        }
    }

    @Override
    public void pauseReading()
    {
        if (isPaused)
        {
            return;
        }
        isPaused = true;
        final long nowNs = System.nanoTime();
        accountedNs = nowNs;
        pauses.increment();
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            sessions.get(i).pauseReading(nowNs);
        }
        if (null == tick && null != eventLoop)
        {
            tick = eventLoop.scheduleAtFixedRate(this, TICK_NS, TICK_NS, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void resumeReading()
    {
        if (!isPaused)
        {
            return;
        }
        isPaused = false;
        account(System.nanoTime());
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            sessions.get(i).resumeReading();
        }
    }

    /**
     * @return true while reading is paused.
     */
    boolean isPaused()
    {
        return isPaused;
    }

    /**
     * The keep-alive tick.
     */
    @Override
    public void run()
    {
        if (!isPaused)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        account(nowNs);
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            if (sessions.get(i).keepAlive(nowNs))
            {
                keepAliveReads.increment();
            }
        }
    }

    private void account(final long nowNs)
    {
        pausedNs.getAndAddOrdered(nowNs - accountedNs);
        accountedNs = nowNs;
    }

    /**
     * Cancel the tick and free the counters (after the event loop stopped).
     */
    void close()
    {
        if (null != tick)
        {
            tick.cancel(false);
            tick = null;
        }
        pauses.close();
        pausedNs.close();
        keepAliveReads.close();
    }
}
