package io.mdhub.common.concurrent;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.mdhub.common.status.MdCounters;
import io.netty.util.concurrent.EventExecutor;

/**
 * The publishing side of {@link Doorbell}s: after messages were published to an IPC stream, {@link #ring()} wakes
 * every thread that polls that stream and said it sleeps. Every subscriber of an IPC stream reads every message, so
 * each sleeper is woken, not only one.
 * <p>
 * A publisher that publishes in bursts marks each message {@link #published()} and rings once at the end of the burst
 * ({@link #ringIfPublished()}), or lets the ringer do that on its event loop ({@link #ringAfterBurstOn}): the
 * sleeper then wakes once and finds the whole burst. While a sleeper is awake a ring
 * costs a fence and a load per doorbell and no system call; a sleeping one costs one compare-and-swap and a one-byte
 * write, whichever ringer gets there first.
 * <p>
 * Doorbells are looked up in the driver's counters when the ringer is made, whenever the driver announces a new
 * counter, and once a second; each is checked on every ring, so a sleeper that starts or restarts is found and a
 * counter freed by the driver is never written. On connecting, the ringer says hello with its publication's session id:
 * until then the sleeper does not count on it (see {@link Doorbell#covers}). Not thread-safe: one per publication and
 * publishing thread.
 */
public final class DoorbellRinger implements AutoCloseable
{
    /** A ringer that does nothing: for publications that are not IPC. */
    public static final DoorbellRinger NONE = new DoorbellRinger();
    private static final Logger LOG = LoggerFactory.getLogger(DoorbellRinger.class);

    /** How many sleepers of one stream a ringer wakes: more are left to their timers (logged when first seen). */
    public static final int MAX_BELLS = 16;

    static final long LOOKUP_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * How long a doorbell that refused a connection is left alone: a dead process's counter stays allocated until the
     * driver times its client out (about 10 s), and each try makes a channel and an exception.
     */
    static final long FAILED_RETRY_NS = TimeUnit.SECONDS.toNanos(10);

    private final Aeron aeron;
    private final CountersReader counters;
    private final AtomicBuffer values;
    private final int streamId;
    private final int sessionId;
    private final ByteBuffer bell = ByteBuffer.allocateDirect(1);
    private final ByteBuffer hello = ByteBuffer.allocateDirect(DoorbellDescriptor.HELLO_LENGTH)
        .order(ByteOrder.LITTLE_ENDIAN);
    private final int[] counterIds;
    private final long[] registrationIds;
    private final SocketChannel[] channels;
    private final int[] failedCounterIds;
    private final long[] failedRegistrationIds;
    private final long[] failedUntilNs;
    private final long counterHandlerId;
    private final Runnable burstEnd = this::onBurstEnd;
    private volatile boolean isLookupDue = true;
    private EventExecutor burstLoop;
    private boolean isRingQueued;
    private boolean isClosed;
    private boolean hasPublished;
    private int bellCount;
    private long nextLookupNs;
    private long rings;
    private int missed;

    private DoorbellRinger()
    {
        aeron = null;
        counters = null;
        values = null;
        streamId = 0;
        sessionId = 0;
        counterIds = new int[0];
        registrationIds = new long[0];
        channels = new SocketChannel[0];
        failedCounterIds = new int[0];
        failedRegistrationIds = new long[0];
        failedUntilNs = new long[0];
        counterHandlerId = Aeron.NULL_VALUE;
    }

    private DoorbellRinger(final Aeron aeron, final int streamId, final int sessionId)
    {
        this.aeron = aeron;
        this.counters = aeron.countersReader();
        this.values = counters.valuesBuffer();
        this.streamId = streamId;
        this.sessionId = sessionId;
        this.counterIds = new int[MAX_BELLS];
        this.registrationIds = new long[MAX_BELLS];
        this.channels = new SocketChannel[MAX_BELLS];
        this.failedCounterIds = new int[MAX_BELLS];
        this.failedRegistrationIds = new long[MAX_BELLS];
        this.failedUntilNs = new long[MAX_BELLS];
        this.counterHandlerId = aeron.addAvailableCounterHandler((reader, registrationId, counterId) ->
        {
            if (MdCounters.DOORBELL_TYPE_ID == reader.getCounterTypeId(counterId))
            {
                // on whichever thread runs the client's conductor: the owner looks at its next ring
                isLookupDue = true;
            }
        });
        lookUp(System.nanoTime());
    }

    /**
     * A ringer for a publication, or {@link #NONE} if it is not an IPC publication.
     *
     * @param aeron       the publication's client (its driver's counters are read).
     * @param publication where messages go.
     * @return the ringer, already connected to the doorbells there are.
     */
    public static DoorbellRinger forPublication(final Aeron aeron, final Publication publication)
    {
        return Doorbell.isIpc(publication.channel()) ?
            new DoorbellRinger(aeron, publication.streamId(), publication.sessionId()) : NONE;
    }

    /**
     * Ring by itself at the end of each burst of the publishing thread's event loop: the first message published
     * queues one task on the loop, which runs after the loop has handled the I/O it woke for (every provider
     * connection that was readable), and rings once for all that was published meanwhile.
     *
     * @param loop the publishing thread's event loop.
     * @return this.
     */
    public DoorbellRinger ringAfterBurstOn(final EventExecutor loop)
    {
        if (null != counters)
        {
            burstLoop = loop;
        }
        return this;
    }

    /**
     * Note that a message was published; {@link #ringIfPublished()} then rings, or the end of the loop's burst does
     * (see {@link #ringAfterBurstOn}).
     */
    public void published()
    {
        hasPublished = true;
        if (null != burstLoop && !isRingQueued)
        {
            isRingQueued = true;
            try
            {
                burstLoop.execute(burstEnd);
            }
            catch (final RejectedExecutionException ex)
            {
                isRingQueued = false; // the loop is shutting down: nothing is left to ring for
            }
        }
    }

    private void onBurstEnd()
    {
        isRingQueued = false;
        ringIfPublished();
    }

    /**
     * {@link #ring()} if a message was {@link #published()} since the last ring.
     *
     * @return true when it rang (the sleepers that slept were woken).
     */
    public boolean ringIfPublished()
    {
        if (!hasPublished)
        {
            return false;
        }
        ring();
        return true;
    }

    /**
     * Find new doorbells of the stream and say hello to them, when a look is due (a new counter appeared, or a second
     * passed), without ringing: for a publisher whose messages wake nobody (heartbeats), so that the stream's sleepers
     * learn it will ring before it has anything that rings.
     */
    public void lookUpIfDue()
    {
        if (null == counters || isClosed)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        if (isLookupDue || nowNs - nextLookupNs >= 0)
        {
            lookUp(nowNs);
        }
    }

    /**
     * Wake the stream's sleepers that sleep. Call after the messages are published (offered or committed).
     */
    public void ring()
    {
        hasPublished = false;
        if (null == counters || isClosed)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        if (isLookupDue || nowNs - nextLookupNs >= 0)
        {
            lookUp(nowNs);
        }
        if (0 == bellCount)
        {
            return;
        }
        // the messages' publication (release stores of frame lengths and the tail) before the reads of the sleepers'
        // states: the store-load barrier of the eventcount (see Doorbell)
        VarHandle.fullFence();
        // backwards, so that a disconnect's swap moves an entry already rung into the slot
        for (int i = bellCount - 1; i >= 0; i--)
        {
            if (isStale(i))
            {
                disconnect(i); // the sleeper closed or its process is gone; its counter may be someone else's next
                continue;
            }
            final int valueOffset = CountersReader.counterOffset(counterIds[i]);
            if (values.getLongVolatile(valueOffset) == Doorbell.ASLEEP &&
                values.compareAndSetLong(valueOffset, Doorbell.ASLEEP, Doorbell.AWAKE))
            {
                try
                {
                    bell.clear().put(0, DoorbellDescriptor.RING);
                    channels[i].write(bell); // 0 written: bytes are pending anyway, the sleeper is being woken
                    rings++;
                }
                catch (final IOException ex)
                {
                    // this ringer took the wake-up and could not deliver it: give it back, so another ringer of the
                    // sleeper still rings (one needless ring at worst)
                    values.compareAndSetLong(valueOffset, Doorbell.AWAKE, Doorbell.ASLEEP);
                    disconnect(i);
                }
            }
        }
    }

    private boolean isStale(final int index)
    {
        final int counterId = counterIds[index];
        return counters.getCounterRegistrationId(counterId) != registrationIds[index] ||
            counters.getCounterState(counterId) != CountersReader.RECORD_ALLOCATED;
    }

    /**
     * Drop the gone doorbells, then connect to every allocated doorbell of the stream not connected yet.
     */
    private void lookUp(final long nowNs)
    {
        isLookupDue = false;
        nextLookupNs = nowNs + LOOKUP_INTERVAL_NS;
        for (int i = bellCount - 1; i >= 0; i--)
        {
            if (isStale(i))
            {
                disconnect(i); // before the scan, so that a gone sleeper does not hold a place a new one needs
            }
        }
        // by hand rather than CountersReader.forEach, which makes a label String per counter
        int missedNow = 0;
        final DirectBuffer metaData = counters.metaDataBuffer();
        for (int id = 0, max = counters.maxCounterId(); id <= max; id++)
        {
            final int recordState = counters.getCounterState(id);
            if (CountersReader.RECORD_UNUSED == recordState)
            {
                break;
            }
            if (CountersReader.RECORD_ALLOCATED != recordState ||
                MdCounters.DOORBELL_TYPE_ID != counters.getCounterTypeId(id))
            {
                continue;
            }
            final long registrationId = counters.getCounterRegistrationId(id);
            final int keyOffset = CountersReader.metaDataOffset(id) + CountersReader.KEY_OFFSET;
            if (isConnectedTo(id, registrationId) || hasFailedLately(id, registrationId, nowNs) ||
                !DoorbellDescriptor.wakesFor(metaData, keyOffset, streamId))
            {
                continue;
            }
            if (bellCount == MAX_BELLS)
            {
                missedNow++;
                continue;
            }
            final SocketChannel connected = connect(DoorbellDescriptor.pathOf(metaData, keyOffset));
            if (null == connected)
            {
                failed(id, registrationId, nowNs);
            }
            else
            {
                counterIds[bellCount] = id;
                registrationIds[bellCount] = registrationId;
                channels[bellCount] = connected;
                bellCount++;
            }
        }
        if (missedNow > missed)
        {
            LOG.warn("stream {}: {} doorbell(s) beyond the {} a ringer wakes are left to their timers", streamId,
                missedNow, MAX_BELLS);
        }
        missed = missedNow;
    }

    private boolean hasFailedLately(final int counterId, final long registrationId, final long nowNs)
    {
        for (int i = 0; i < failedCounterIds.length; i++)
        {
            if (failedCounterIds[i] == counterId && failedRegistrationIds[i] == registrationId &&
                failedUntilNs[i] - nowNs > 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Remember a refused connection in the slot whose wait ends first (an expired one if any).
     */
    private void failed(final int counterId, final long registrationId, final long nowNs)
    {
        int slot = 0;
        for (int i = 1; i < failedUntilNs.length; i++)
        {
            if (failedUntilNs[i] - failedUntilNs[slot] < 0)
            {
                slot = i;
            }
        }
        failedCounterIds[slot] = counterId;
        failedRegistrationIds[slot] = registrationId;
        failedUntilNs[slot] = nowNs + FAILED_RETRY_NS;
    }

    private boolean isConnectedTo(final int counterId, final long registrationId)
    {
        for (int i = 0; i < bellCount; i++)
        {
            if (counterIds[i] == counterId && registrationIds[i] == registrationId)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return a channel connected to the doorbell's socket that has said hello, or null if there is no path or it
     * cannot be reached now (closed meanwhile, its backlog full, or not ours to reach).
     */
    private SocketChannel connect(final String path)
    {
        if (null == path)
        {
            return null;
        }
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            // non-blocking: a sleeper that has not accepted for a while has a full backlog, and a blocking connect
            // would stall the publishing thread; a Unix socket connects at once or not at all
            channel.configureBlocking(false);
            if (channel.connect(UnixDomainSocketAddress.of(path)))
            {
                hello.clear();
                hello.put(DoorbellDescriptor.HELLO).putInt(sessionId).flip();
                if (channel.write(hello) == DoorbellDescriptor.HELLO_LENGTH) // an empty new socket takes it whole
                {
                    return channel;
                }
            }
        }
        catch (final IOException ex)
        {
            // not reachable now
        }
        CloseHelper.quietClose(channel);
        return null;
    }

    private void disconnect(final int index)
    {
        CloseHelper.quietClose(channels[index]);
        final int last = bellCount - 1;
        counterIds[index] = counterIds[last];
        registrationIds[index] = registrationIds[last];
        channels[index] = channels[last];
        channels[last] = null;
        bellCount = last;
    }

    /**
     * @return how many doorbells of the stream this ringer is connected to.
     */
    public int connected()
    {
        return bellCount;
    }

    /**
     * @return bytes written: wake-ups of sleepers.
     */
    public long rings()
    {
        return rings;
    }

    @Override
    public void close()
    {
        isClosed = true; // a burst's ring still queued finds nothing to do
        if (Aeron.NULL_VALUE != counterHandlerId && !aeron.isClosed())
        {
            aeron.removeAvailableCounterHandler(counterHandlerId);
        }
        while (bellCount > 0)
        {
            disconnect(bellCount - 1);
        }
    }
}
