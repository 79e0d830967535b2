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
 * The publishing side of a {@link Doorbell}: after a message is published to an IPC stream, {@link #ring()} wakes
 * the thread that polls that stream if it said it sleeps. The doorbell is looked up in the driver's counters (at most
 * once a second while there is none: a subscriber that backs off instead simply has none) and checked on every ring,
 * so a sleeper that restarts is found again and a counter freed by the driver is never written. Not thread-safe: one
 * per publishing thread and stream.
 */
public final class DoorbellRinger implements AutoCloseable
{
    /** A ringer that does nothing: for streams that are not IPC. */
    public static final DoorbellRinger NONE = new DoorbellRinger();

    static final long LOOKUP_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final CountersReader counters;
    private final AtomicBuffer values;
    private final int streamId;
    private final ByteBuffer bell = ByteBuffer.allocateDirect(1);
    private int counterId = CountersReader.NULL_COUNTER_ID;
    private long registrationId;
    private int valueOffset;
    private SocketChannel channel;
    private long nextLookupNs;
    private long rings;

    private DoorbellRinger()
    {
        counters = null;
        values = null;
        streamId = 0;
    }

    DoorbellRinger(final CountersReader counters, final int streamId)
    {
        this.counters = counters;
        this.values = counters.valuesBuffer();
        this.streamId = streamId;
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
     * Wake the stream's sleeper if it sleeps. Call after the message is published (offered or committed).
     */
    public void ring()
    {
        if (null == counters || CountersReader.NULL_COUNTER_ID == counterId && !lookUp())
        {
            return;
        }
        // the message's publication (a release store of the term tail) before the read of the sleeper's state:
        // the store-load barrier of the eventcount (see Doorbell)
        VarHandle.fullFence();
        if (counters.getCounterRegistrationId(counterId) != registrationId ||
            counters.getCounterState(counterId) != CountersReader.RECORD_ALLOCATED)
        {
            disconnect(); // the sleeper closed or its process is gone; its counter may be someone else's next
            return;
        }
        if (values.getLongVolatile(valueOffset) == Doorbell.ASLEEP &&
            values.compareAndSetLong(valueOffset, Doorbell.ASLEEP, Doorbell.AWAKE))
        {
            try
            {
                bell.clear();
                channel.write(bell); // 0 written: bytes are pending anyway, the sleeper is being woken
                rings++;
            }
            catch (final IOException ex)
            {
                disconnect();
            }
        }
    }

    private boolean lookUp()
    {
        final long nowNs = System.nanoTime();
        if (nowNs - nextLookupNs < 0)
        {
            return false;
        }
        nextLookupNs = nowNs + LOOKUP_INTERVAL_NS;
        final int found = findNewest();
        final String path = CountersReader.NULL_COUNTER_ID == found ? null : Doorbell.pathOf(
            counters.metaDataBuffer(), CountersReader.metaDataOffset(found) + CountersReader.KEY_OFFSET);
        final SocketChannel connected = connect(path);
        if (null == connected)
        {
            return false;
        }
        channel = connected;
        counterId = found;
        registrationId = counters.getCounterRegistrationId(found);
        valueOffset = CountersReader.counterOffset(found);
        return true;
    }

    /**
     * @return a channel connected to the doorbell's socket, or null if there is no path or it cannot be reached now
     * (closed meanwhile, its backlog full, or not ours to reach): it is looked up again in a second.
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

    /**
     * @return the newest allocated doorbell that wakes for the stream, or NULL_COUNTER_ID: an older one may belong to
     * a process that is gone.
     */
    private int findNewest()
    {
        // by hand rather than CountersReader.forEach, which makes a label String per counter: no garbage while a
        // stream has no doorbell and this runs once a second on an order path
        int found = CountersReader.NULL_COUNTER_ID;
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
                (CountersReader.NULL_COUNTER_ID == found ||
                    counters.getCounterRegistrationId(id) > counters.getCounterRegistrationId(found)) &&
                Doorbell.wakesFor(metaData, CountersReader.metaDataOffset(id) + CountersReader.KEY_OFFSET, streamId))
            {
                found = id;
            }
        }
        return found;
    }

    private void disconnect()
    {
        CloseHelper.quietClose(channel);
        channel = null;
        counterId = CountersReader.NULL_COUNTER_ID;
    }

    /**
     * @return true while connected to a doorbell.
     */
    public boolean isConnected()
    {
        return CountersReader.NULL_COUNTER_ID != counterId;
    }

    /**
     * @return bytes written: wake-ups of a sleeper.
     */
    public long rings()
    {
        return rings;
    }

    @Override
    public void close()
    {
        if (null != counters)
        {
            disconnect();
        }
    }
}
