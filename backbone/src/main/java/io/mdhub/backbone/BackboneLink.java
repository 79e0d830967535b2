package io.mdhub.backbone;

import java.io.File;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.ConductorServiceTimeoutException;
import io.aeron.exceptions.DriverTimeoutException;
import io.mdhub.common.log.LogSummary;

/**
 * A server process's hold on the backbone: the Aeron client of the host's media driver, kept across a restart of that
 * driver. The client's errors go to a handler of its own (Aeron's default one exits the process when the driver times
 * out). When the driver is lost (it timed out, or the client closed) the link is <em>down</em>: every loop that holds
 * a {@link Member} is told {@link Listener#onBackboneLost()} on its own thread, drops what it had on the old client,
 * and carries on with its other work. The loops, on their duty cycles, look for a driver on the same Aeron directory
 * at most every {@link #CHECK_INTERVAL_NS}; the first that finds one active connects one new client (here, under the
 * link's lock: one place makes it), and each loop picks it up on its next cycle with
 * {@link Listener#onBackboneRestored(Aeron)}. The old client is closed (its files unmapped) only once every loop has
 * let go of it, so no loop ever touches memory that is gone. A link that has waited longer than its reconnect timeout
 * gives up: one log line, and its give-up action (the server's main ends the process with a non-zero status, for a
 * supervisor to restart it); a timeout of 0 gives up at the loss, as a process without this link did.
 * <p>
 * No thread of its own: a link down costs one driver check per {@link #CHECK_INTERVAL_NS} at most, done by whichever
 * loop cycles first; loops that sleep until woken check at their ticks.
 */
public final class BackboneLink implements AutoCloseable
{
    /** Exit status of a server whose backbone did not come back within the reconnect timeout. */
    public static final int EXIT_BACKBONE_LOST = 3;
    /** Shortest time between two looks for a driver while the link is down. */
    public static final long CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long WAIT_LOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);
    private static final Logger LOG = LoggerFactory.getLogger(BackboneLink.class);

    /**
     * What a loop that uses the backbone does when it is lost and when it is back. Both run on the loop's own thread,
     * from {@link Member#doWork(long)}.
     */
    public interface Listener
    {
        /**
         * The driver is gone: stop using every publication, subscription and counter of the old client (they are
         * closed; the client's memory is unmapped once every loop has returned from this), and carry on without the
         * backbone.
         */
        void onBackboneLost();

        /**
         * A new client of a driver on the same directory: make the publications, subscriptions and counters again.
         * May throw (the driver went again): the link then counts the client as lost too.
         *
         * @param aeron the new client.
         */
        void onBackboneRestored(Aeron aeron);
    }

    private final String aeronDirectoryName;
    private final long reconnectTimeoutNs;
    private final long driverTimeoutMs;
    private final boolean ownsClients;
    private final Object lock = new Object();
    private final LogSummary errorLog = new LogSummary(LOG, "backbone", "Aeron client errors", 1);
    private volatile Client current;
    private volatile long nextCheckNs;
    private volatile boolean isGivenUp;
    private volatile boolean isClosed;
    private volatile long reconnects;
    private volatile AtomicCounter reconnectsCounter;
    private volatile AtomicCounter upCounter;
    private Runnable onGiveUp;
    private long lostAtNs;
    private long nextWaitLogNs;
    private long checks;
    private long failedConnects;

    private BackboneLink(
        final Aeron aeron,
        final String aeronDirectoryName,
        final long reconnectTimeoutNs,
        final long driverTimeoutMs,
        final boolean ownsClients,
        final ClientErrors errors)
    {
        this.aeronDirectoryName = aeronDirectoryName;
        this.reconnectTimeoutNs = reconnectTimeoutNs;
        this.driverTimeoutMs = driverTimeoutMs;
        this.ownsClients = ownsClients;
        this.current = new Client(aeron, errors);
        this.onGiveUp = ownsClients ? BackboneLink::exitProcess : () -> { };
    }

    /**
     * Connect a client of the driver at the directory, kept across restarts of that driver.
     *
     * @param aeronDirectoryName the driver's directory.
     * @param reconnectTimeoutMs how long to wait for a lost driver to come back; 0 to give up at once.
     * @return the link, up.
     */
    public static BackboneLink connect(final String aeronDirectoryName, final long reconnectTimeoutMs)
    {
        return connect(aeronDirectoryName, reconnectTimeoutMs, CommonContext.DRIVER_TIMEOUT_MS);
    }

    /**
     * As {@link #connect(String, long)}, with the clients' driver timeout (how long a silent driver is still waited
     * for before it counts as lost) set.
     *
     * @param aeronDirectoryName the driver's directory.
     * @param reconnectTimeoutMs how long to wait for a lost driver to come back; 0 to give up at once.
     * @param driverTimeoutMs    the clients' driver timeout.
     * @return the link, up.
     */
    public static BackboneLink connect(
        final String aeronDirectoryName, final long reconnectTimeoutMs, final long driverTimeoutMs)
    {
        if (reconnectTimeoutMs < 0)
        {
            throw new IllegalArgumentException("reconnect timeout must not be negative: " + reconnectTimeoutMs);
        }
        final ClientErrors errors = new ClientErrors();
        final Aeron aeron = Aeron.connect(BackboneAttachment.clientContext(aeronDirectoryName)
            .driverTimeoutMs(driverTimeoutMs).errorHandler(errors));
        final BackboneLink link = new BackboneLink(aeron, aeronDirectoryName,
            TimeUnit.MILLISECONDS.toNanos(reconnectTimeoutMs), driverTimeoutMs, true, errors);
        errors.link = link;
        return link;
    }

    /**
     * A link over a client the caller owns and keeps (tests, tools): never reconnected, never closed here, and its
     * give-up action does nothing unless set.
     *
     * @param aeron a connected client.
     * @return the link, up.
     */
    public static BackboneLink of(final Aeron aeron)
    {
        return new BackboneLink(
            aeron, aeron.context().aeronDirectoryName(), 0, aeron.context().driverTimeoutMs(), false, null);
    }

    /**
     * @param onGiveUp run once, on a loop's thread, when the link gives up waiting for the driver (instead of exiting
     *                 the process, which is the default of a link that owns its client).
     * @return this.
     */
    public BackboneLink onGiveUp(final Runnable onGiveUp)
    {
        synchronized (lock)
        {
            this.onGiveUp = onGiveUp;
        }
        return this;
    }

    /**
     * Count reconnects and show the state in the server's own counters (they outlive every client).
     *
     * @param reconnects incremented at each new client after a loss.
     * @param up         1 while up, 0 while down.
     * @return this.
     */
    public BackboneLink counters(final AtomicCounter reconnects, final AtomicCounter up)
    {
        this.reconnectsCounter = reconnects;
        this.upCounter = up;
        if (null != up)
        {
            up.setOrdered(isUp() ? 1 : 0);
        }
        if (null != reconnects)
        {
            reconnects.setOrdered(this.reconnects);
        }
        return this;
    }

    /**
     * Join the link from a loop: the member runs the client's conductor from the loop's cycle (see
     * {@link ConductorDuty}), and tells the listener of loss and recovery on that loop.
     *
     * @param listener the loop's reaction to loss and recovery.
     * @return the member, on the current client.
     * @throws IllegalStateException while the link is down (a loop joins at start, with the backbone there).
     */
    public Member join(final Listener listener)
    {
        final Member member = new Member(listener);
        synchronized (lock)
        {
            final Client client = current;
            if (null == client)
            {
                throw new IllegalStateException("the backbone is down: no client to join");
            }
            client.holders++;
            member.client = client;
            member.conductor = client.conductorDuty();
        }
        return member;
    }

    /**
     * @return the current client, or null while the link is down.
     */
    public Aeron aeron()
    {
        final Client client = current;
        return null == client ? null : client.aeron;
    }

    /**
     * @return true while a client of a live driver is held.
     */
    public boolean isUp()
    {
        return null != current;
    }

    /**
     * @return true once the link gave up waiting for its driver.
     */
    public boolean isGivenUp()
    {
        return isGivenUp;
    }

    /**
     * @return clients connected after a loss.
     */
    public long reconnects()
    {
        return reconnects;
    }

    /**
     * @return the driver's directory.
     */
    public String aeronDirectoryName()
    {
        return aeronDirectoryName;
    }

    /**
     * @return how long a lost driver is waited for, in milliseconds (0: not at all).
     */
    public long reconnectTimeoutMs()
    {
        return TimeUnit.NANOSECONDS.toMillis(reconnectTimeoutNs);
    }

    /**
     * @return milliseconds since the driver was lost, or 0 while up.
     */
    public long downForMs()
    {
        synchronized (lock)
        {
            return null != current ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lostAtNs);
        }
    }

    /**
     * @return a line for health checks: up on which directory, or down for how long and until when.
     */
    public String describe()
    {
        if (isUp())
        {
            return "joined " + aeronDirectoryName + (reconnects > 0 ? " (" + reconnects + " reconnect(s))" : "");
        }
        if (isGivenUp)
        {
            return "no media driver at " + aeronDirectoryName + ": gave up waiting";
        }
        return "media driver at " + aeronDirectoryName + " lost " + downForMs() / 1000 + " s ago; waiting up to " +
            reconnectTimeoutMs() / 1000 + " s for it to come back";
    }

    /**
     * Close the current client if the link owns it. Call after every loop stopped.
     */
    @Override
    public void close()
    {
        final Client client;
        synchronized (lock)
        {
            isClosed = true;
            client = current;
            current = null;
        }
        if (ownsClients && null != client)
        {
            CloseHelper.quietClose(client.aeron);
        }
    }

    /**
     * @return true if the client is lost (now or before), checked under the lock so that only one loop declares it.
     */
    private boolean checkLost(final Client client)
    {
        if (client.isLost)
        {
            return true;
        }
        final ClientErrors errors = client.errors;
        final boolean isSuspect = null != errors && (errors.isDriverLost || errors.isSuspect);
        if (!isSuspect && !client.aeron.isClosed())
        {
            return false;
        }
        synchronized (lock)
        {
            if (client.isLost)
            {
                return true;
            }
            if (null != errors)
            {
                errors.isSuspect = false;
            }
            if ((null != errors && errors.isDriverLost) || isTerminating(client.aeron))
            {
                lost(client, null == errors ? null : errors.cause);
                return true;
            }
            return false;
        }
    }

    /**
     * @return true when the client no longer works: closed, or terminating after a fatal error (a call that needs an
     * active client refuses).
     */
    private static boolean isTerminating(final Aeron aeron)
    {
        if (aeron.isClosed())
        {
            return true;
        }
        try
        {
            aeron.removeAvailableCounterHandler(aeron.addAvailableCounterHandler((reader, registrationId, id) -> { }));
            return false;
        }
        catch (final AeronException ex)
        {
            return true;
        }
    }

    private void lost(final Client client, final Throwable cause)
    {
        client.isLost = true;
        if (current != client)
        {
            return;
        }
        current = null;
        final long nowNs = System.nanoTime();
        lostAtNs = nowNs;
        nextCheckNs = nowNs;
        nextWaitLogNs = nowNs + WAIT_LOG_INTERVAL_NS;
        checks = 0;
        failedConnects = 0;
        final AtomicCounter up = upCounter;
        if (null != up)
        {
            up.setOrdered(0);
        }
        if (0 == reconnectTimeoutNs || !ownsClients)
        {
            LOG.error("backbone lost: the media driver at {} stopped answering ({})", aeronDirectoryName,
                null == cause ? "client closed" : cause.getMessage());
            giveUp();
            return;
        }
        LOG.warn("backbone lost: the media driver at {} stopped answering ({}); connections stay up, items go " +
            "stale, waiting up to {} s for a driver on the same directory", aeronDirectoryName,
            null == cause ? "client closed" : cause.getMessage(), reconnectTimeoutMs() / 1000);
    }

    /**
     * A member let go of a client: the last one out of a lost client closes it.
     */
    private void release(final Client client)
    {
        final boolean isLastOut;
        synchronized (lock)
        {
            isLastOut = 0 == --client.holders && client.isLost;
        }
        if (isLastOut && ownsClients)
        {
            CloseHelper.quietClose(client.aeron); // nobody touches its publications, images or counters any more
        }
    }

    /**
     * Look for a driver if a look is due; connect a new client when one is active.
     */
    private void awaitDriver(final long nowNs)
    {
        if (nowNs - nextCheckNs < 0 || isGivenUp || isClosed)
        {
            return;
        }
        synchronized (lock)
        {
            if (null != current || nowNs - nextCheckNs < 0 || isGivenUp || isClosed)
            {
                return;
            }
            nextCheckNs = nowNs + CHECK_INTERVAL_NS;
            checks++;
            if (nowNs - lostAtNs > reconnectTimeoutNs)
            {
                LOG.error("backbone: no media driver at {} for {} s (mdhub.backbone.reconnect.timeout.ms={}): " +
                    "giving up", aeronDirectoryName, TimeUnit.NANOSECONDS.toSeconds(nowNs - lostAtNs),
                    reconnectTimeoutMs());
                giveUp();
                return;
            }
            if (nowNs - nextWaitLogNs >= 0)
            {
                nextWaitLogNs = nowNs + WAIT_LOG_INTERVAL_NS;
                LOG.info("backbone: still no media driver at {}: down for {} s, {} look(s), {} failed connect(s); " +
                    "giving up in {} s", aeronDirectoryName, TimeUnit.NANOSECONDS.toSeconds(nowNs - lostAtNs), checks,
                    failedConnects, TimeUnit.NANOSECONDS.toSeconds(lostAtNs + reconnectTimeoutNs - nowNs));
            }
            if (isDriverActive())
            {
                reconnect(nowNs);
            }
        }
    }

    private boolean isDriverActive()
    {
        try
        {
            return CommonContext.isDriverActive(
                new File(aeronDirectoryName), driverTimeoutMs, (message) -> { });
        }
        catch (final RuntimeException ex)
        {
            return false; // a directory being made: not yet
        }
    }

    private void reconnect(final long nowNs)
    {
        final ClientErrors errors = new ClientErrors();
        errors.link = this;
        final Aeron aeron;
        try
        {
            aeron = Aeron.connect(BackboneAttachment.clientContext(aeronDirectoryName)
                .driverTimeoutMs(driverTimeoutMs).errorHandler(errors));
        }
        catch (final RuntimeException ex)
        {
            failedConnects++;
            LOG.debug("backbone: connect to {} failed", aeronDirectoryName, ex);
            return;
        }
        current = new Client(aeron, errors);
        final long count = ++reconnects;
        final AtomicCounter counter = reconnectsCounter;
        if (null != counter)
        {
            counter.setOrdered(count);
        }
        final AtomicCounter up = upCounter;
        if (null != up)
        {
            up.setOrdered(1);
        }
        LOG.info("backbone restored: a new client of the media driver at {} after {} ms down ({} look(s)); " +
            "re-subscribing and recovering every item", aeronDirectoryName,
            TimeUnit.NANOSECONDS.toMillis(nowNs - lostAtNs), checks);
    }

    private void giveUp()
    {
        if (!isGivenUp)
        {
            isGivenUp = true;
            try
            {
                onGiveUp.run();
            }
            catch (final RuntimeException ex)
            {
                LOG.error("backbone: the give-up action failed", ex);
            }
        }
    }

    private static void exitProcess()
    {
        // not from the loop's thread: exit runs shutdown hooks that may wait for the loops
        final Thread exit = new Thread(() -> System.exit(EXIT_BACKBONE_LOST), "mdhub-backbone-exit");
        exit.setDaemon(true);
        exit.start();
    }

    /**
     * One loop's hold on the link. Not thread safe: its loop owns it.
     */
    public final class Member implements AutoCloseable
    {
        private final Listener listener;
        private Client client;
        private ConductorDuty conductor;
        private boolean isClosed;

        private Member(final Listener listener)
        {
            this.listener = listener;
        }

        /**
         * Call first in each cycle of the loop: runs the client's conductor when due, notices a lost driver (then
         * tells the listener), looks for a driver while down, and picks up a new client (then tells the listener).
         *
         * @param nowNs {@link System#nanoTime()} of the cycle.
         * @return true when the conductor ran (not work of the loop's own: see {@link ConductorDuty#doWork}).
         */
        public boolean doWork(final long nowNs)
        {
            if (isClosed)
            {
                return false;
            }
            Client held = client;
            if (null != held && (held != current || checkLost(held)))
            {
                lose();
                held = null;
            }
            if (null == held)
            {
                if (null == current)
                {
                    awaitDriver(nowNs);
                }
                final Client next = current;
                if (null != next)
                {
                    adopt(next);
                }
                return false;
            }
            final boolean ran = conductor.doWork(nowNs);
            if (ran && checkLost(held))
            {
                lose();
            }
            return ran;
        }

        /**
         * @return the client this loop uses, or null while the backbone is down.
         */
        public Aeron aeron()
        {
            return null == client ? null : client.aeron;
        }

        /**
         * @return true while this loop holds a client.
         */
        public boolean isUp()
        {
            return null != client;
        }

        private void lose()
        {
            final Client held = client;
            client = null;
            conductor = null;
            try
            {
                listener.onBackboneLost();
            }
            catch (final RuntimeException ex)
            {
                LOG.error("backbone: a loop failed to let go of the lost client", ex);
            }
            release(held);
        }

        private void adopt(final Client next)
        {
            synchronized (lock)
            {
                if (next.isLost || next != current)
                {
                    return;
                }
                next.holders++;
            }
            client = next;
            conductor = next.conductorDuty();
            try
            {
                listener.onBackboneRestored(next.aeron);
            }
            catch (final RuntimeException ex)
            {
                if (errorLog.admit(0, "restore failures", true, ex.toString()))
                {
                    LOG.warn("backbone: re-subscribing on the new client failed; counted as lost again", ex);
                }
                synchronized (lock)
                {
                    lost(next, ex);
                }
                lose();
            }
        }

        /**
         * Let go of the client (the loop stopped).
         */
        @Override
        public void close()
        {
            if (!isClosed)
            {
                isClosed = true;
                final Client held = client;
                client = null;
                conductor = null;
                if (null != held)
                {
                    release(held);
                }
            }
        }
    }

    /**
     * One Aeron client and how many loops hold it.
     */
    private static final class Client
    {
        final Aeron aeron;
        final ClientErrors errors;
        int holders;
        volatile boolean isLost;

        Client(final Aeron aeron, final ClientErrors errors)
        {
            this.aeron = aeron;
            this.errors = errors;
        }

        /**
         * @return a loop's duty on this client's conductor, which never runs it once the client is lost or its
         * conductor hit a fatal error: the next run would close the client while other loops still use its memory.
         */
        ConductorDuty conductorDuty()
        {
            return new ConductorDuty(aeron, this::isUsable);
        }

        private boolean isUsable()
        {
            return !isLost && (null == errors ||
                (!errors.isDriverLost && !(errors.isSuspect && isTerminating(aeron))));
        }
    }

    /**
     * The client's error handler: logs (summarised) and notes the errors after which the client is gone. It runs on
     * whichever loop runs the conductor, inside the conductor: it only notes, the loop acts after.
     */
    private static final class ClientErrors implements ErrorHandler
    {
        volatile boolean isDriverLost;
        volatile boolean isSuspect;
        volatile Throwable cause;
        BackboneLink link;

        @Override
        public void onError(final Throwable throwable)
        {
            cause = throwable;
            if (throwable instanceof DriverTimeoutException || throwable instanceof ConductorServiceTimeoutException)
            {
                isDriverLost = true;
                return; // the loss is logged once, by the link
            }
            isSuspect = true; // maybe fatal (the conductor closed itself): checked before the conductor runs again
            final BackboneLink owner = link;
            if (null == owner || owner.errorLog.admit(0, "Aeron client errors", true, throwable.toString()))
            {
                LOG.warn("backbone: Aeron client error", throwable);
            }
        }
    }
}
