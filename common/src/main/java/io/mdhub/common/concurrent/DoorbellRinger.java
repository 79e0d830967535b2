package io.mdhub.common.concurrent;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.CountersReader;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.mdhub.common.status.MdCounters;

/**
 * The publishing side of {@link Doorbell}s: after a message is published to an IPC stream, {@link #ring()} wakes
 * every thread that polls that stream and said it sleeps. Every subscriber of an IPC stream reads every message (two
 * order clients left on the default response stream both do), and the slowest one holds the publication back, so
 * each sleeper must be woken, not only the newest. Doorbells are looked up in the driver's counters once a second
 * (a subscriber that backs off instead simply has none) and checked on every ring, so a sleeper that starts or
 * restarts is found and a counter freed by the driver is never written. Not thread-safe: one per publishing thread
 * and stream.
 */
public final class DoorbellRinger implements AutoCloseable
{
    /** A ringer that does nothing: for streams that are not IPC. */
    public static final DoorbellRinger NONE = new DoorbellRinger();

    /** How many sleepers of one stream a ringer wakes: more are left to their own timeouts (see {@link #missed()}). */
    public static final int MAX_BELLS = 16;

    static final long LOOKUP_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * How long a doorbell that refused a connection is left alone: a dead process's counter stays allocated until the
     * driver times its client out (about 10 s), and each try makes a channel and an exception.
     */
    static final long FAILED_RETRY_NS = TimeUnit.SECONDS.toNanos(10);

    private final CountersReader counters;
    private final AtomicBuffer values;
    private final int streamId;
    private final ByteBuffer bell = ByteBuffer.allocateDirect(1);
    private final int[] counterIds;
    private final long[] registrationIds;
    private final SocketChannel[] channels;
    private final int[] failedCounterIds;
    private final long[] failedRegistrationIds;
    private final long[] failedUntilNs;
    private int bellCount;
    private long nextLookupNs;
    private long rings;
    private int missed;

    private DoorbellRinger()
    {
        counters = null;
        values = null;
        streamId = 0;
        counterIds = new int[0];
        registrationIds = new long[0];
        channels = new SocketChannel[0];
        failedCounterIds = new int[0];
        failedRegistrationIds = new long[0];
        failedUntilNs = new long[0];
    }

    DoorbellRinger(final CountersReader counters, final int streamId)
    {
        this.counters = counters;
        this.values = counters.valuesBuffer();
        this.streamId = streamId;
        this.counterIds = new int[MAX_BELLS];
        this.registrationIds = new long[MAX_BELLS];
        this.channels = new SocketChannel[MAX_BELLS];
        this.failedCounterIds = new int[MAX_BELLS];
        this.failedRegistrationIds = new long[MAX_BELLS];
        this.failedUntilNs = new long[MAX_BELLS];
        this.nextLookupNs = System.nanoTime();
    }

    /**
     * A ringer for the stream a publication writes to, or {@link #NONE} if it is not an IPC publication.
     *
     * @param aeron       the publication's client (its driver's counters are read).
     * @param publication where messages go.
     * @return the ringer.
     */
    public static DoorbellRinger forPublication(final Aeron aeron, final Publication publication)
    {
        return forStream(aeron, publication.channel(), publication.streamId());
    }

    /**
     * A ringer for a stream, or {@link #NONE} if the channel is not IPC.
     *
     * @param aeron    the publishing client (its driver's counters are read).
     * @param channel  the channel published to.
     * @param streamId the stream id published to.
     * @return the ringer.
     */
    public static DoorbellRinger forStream(final Aeron aeron, final String channel, final int streamId)
    {
        return Doorbell.isIpc(channel) ?
            new DoorbellRinger(aeron.countersReader(), streamId) : NONE;
    }

    /**
     * {@link #ring()} if an offer or claim succeeded.
     *
     * @param position what {@code offer} or {@code tryClaim} returned (after the commit, for a claim).
     * @return the position, unchanged.
     */
    public long ringIfPublished(final long position)
    {
        if (position > 0)
        {
            ring();
        }
        return position;
    }

    /**
     * Wake the stream's sleepers that sleep. Call after the message is published (offered or committed).
     */
    public void ring()
    {
        if (null == counters)
        {
            return;
        }
        if (System.nanoTime() - nextLookupNs >= 0)
        {
            lookUp();
        }
        if (0 == bellCount)
        {
            return;
        }
        // the message's publication (a release store of the term tail) before the read of the sleepers' state:
        // the store-load barrier of the eventcount (see Doorbell)
        VarHandle.fullFence();
        // backwards, so that a disconnect's swap moves an entry already rung into the slot
        for (int i = bellCount - 1; i >= 0; i--)
        {
            if (isStale(i))
            {
                disconnect(i); // the sleeper closed or its process is gone; its counter may be someone else's next
                continue;
            }
            final int counterId = counterIds[i];
            final int valueOffset = CountersReader.counterOffset(counterId);
            if (values.getLongVolatile(valueOffset) == Doorbell.ASLEEP &&
                values.compareAndSetLong(valueOffset, Doorbell.ASLEEP, Doorbell.AWAKE))
            {
                try
                {
                    bell.clear();
                    channels[i].write(bell); // 0 written: bytes are pending anyway, the sleeper is being woken
                    rings++;
                }
                catch (final IOException ex)
                {
                    disconnect(i);
                }
            }
        }
    }

    /**
     * @return true when the doorbell at the index is gone: freed by the driver, or its counter someone else's now.
     */
    private boolean isStale(final int index)
    {
        final int counterId = counterIds[index];
        return counters.getCounterRegistrationId(counterId) != registrationIds[index] ||
            counters.getCounterState(counterId) != CountersReader.RECORD_ALLOCATED;
    }

    /**
     * Drop the gone doorbells, then connect to every allocated doorbell of the stream not connected yet.
     */
    private void lookUp()
    {
        final long nowNs = System.nanoTime();
        nextLookupNs = nowNs + LOOKUP_INTERVAL_NS;
        for (int i = bellCount - 1; i >= 0; i--)
        {
            if (isStale(i))
            {
                disconnect(i); // before the scan, so that a gone sleeper does not hold a place a new one needs
            }
        }
        // by hand rather than CountersReader.forEach, which makes a label String per counter: no garbage while a
        // stream has no doorbell and this runs once a second on an order path
        int missedNow = 0;
        final DirectBuffer metaData = counters.metaDataBuffer();
        for (int id = 0, max = counters.maxCounterId(); id <= max; id++)
        {
            final int recordState = counters.getCounterState(id);
            if (CountersReader.RECORD_UNUSED == recordState)
            {
                break;
            }
            if (CountersReader.RECORD_ALLOCATED == recordState &&
                MdCounters.DOORBELL_TYPE_ID == counters.getCounterTypeId(id) &&
                !isConnectedTo(id, counters.getCounterRegistrationId(id)) &&
                !hasFailedLately(id, counters.getCounterRegistrationId(id), nowNs) &&
                Doorbell.wakesFor(metaData, CountersReader.metaDataOffset(id) + CountersReader.KEY_OFFSET, streamId))
            {
                if (bellCount == MAX_BELLS)
                {
                    missedNow++;
                    continue;
                }
                final SocketChannel connected = connect(
                    Doorbell.pathOf(metaData, CountersReader.metaDataOffset(id) + CountersReader.KEY_OFFSET));
                if (null == connected)
                {
                    failed(id, counters.getCounterRegistrationId(id), nowNs);
                }
                else
                {
                    counterIds[bellCount] = id;
                    registrationIds[bellCount] = counters.getCounterRegistrationId(id);
                    channels[bellCount] = connected;
                    bellCount++;
                }
            }
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
     * @return a channel connected to the doorbell's socket, or null if there is no path or it cannot be reached now
     * (closed meanwhile, its backlog full, or not ours to reach).
     */
    private static SocketChannel connect(final String path)
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
            // would then stall the publishing thread; a Unix socket connects at once or not at all
            channel.configureBlocking(false);
            if (channel.connect(UnixDomainSocketAddress.of(path)))
            {
                return channel;
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
     * @return true while connected to at least one doorbell.
     */
    public boolean isConnected()
    {
        return bellCount > 0;
    }

    /**
     * @return how many doorbells of the stream this ringer is connected to.
     */
    public int connected()
    {
        return bellCount;
    }

    /**
     * @return doorbells of the stream found at the last look-up beyond {@link #MAX_BELLS}: their sleepers wake on
     * their own timeouts.
     */
    public int missed()
    {
        return missed;
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
        while (bellCount > 0)
        {
            disconnect(bellCount - 1);
        }
    }
}
