package io.mdhub.common.ripc;

import java.nio.charset.StandardCharsets;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The counters of one RIPC component (a server or a client), allocated once from a {@link CountersManager} and
 * shared by all its connections. Event loops update them concurrently, so only atomic operations are used
 * ({@code increment}, {@code getAndAdd}); handlers batch per read/flush to keep those few.
 * <p>
 * Labels follow {@code "<type>: key=value"} so a metrics bridge can export them by type id and label, e.g.
 * {@code "ripc-disconnects: reason=ping-timeout component=p2p"}.
 */
public final class RipcCounters implements AutoCloseable
{
    private final AtomicCounter connectionsOpened;
    private final AtomicCounter connectionsActive;
    private final AtomicCounter handshakesCompleted;
    private final AtomicCounter framesIn;
    private final AtomicCounter framesOut;
    private final AtomicCounter messagesIn;
    private final AtomicCounter messagesOut;
    private final AtomicCounter bytesIn;
    private final AtomicCounter bytesOut;
    private final AtomicCounter pingsIn;
    private final AtomicCounter pingsOut;
    private final AtomicCounter tlsHandshakeFailures;
    private final AtomicCounter tlsHandshakesCompleted;
    private final AtomicCounter[] disconnects = new AtomicCounter[RipcDisconnectReason.count()];

    /**
     * Allocate every counter of a component. Not thread safe (CountersManager allocation is not): call from
     * {@code conclude()}.
     *
     * @param countersManager where to allocate.
     * @param component       component name for the labels.
     */
    public RipcCounters(final CountersManager countersManager, final String component)
    {
        final String suffix = " component=" + component;
        connectionsOpened = countersManager.newCounter(
            "ripc-connections-opened:" + suffix, MdCounters.RIPC_CONNECTIONS_OPENED_TYPE_ID);
        connectionsActive = countersManager.newCounter(
            "ripc-connections-active:" + suffix, MdCounters.RIPC_CONNECTIONS_ACTIVE_TYPE_ID);
        handshakesCompleted = countersManager.newCounter(
            "ripc-handshakes-completed:" + suffix, MdCounters.RIPC_HANDSHAKES_COMPLETED_TYPE_ID);
        framesIn = countersManager.newCounter("ripc-frames-in:" + suffix, MdCounters.RIPC_FRAMES_IN_TYPE_ID);
        framesOut = countersManager.newCounter("ripc-frames-out:" + suffix, MdCounters.RIPC_FRAMES_OUT_TYPE_ID);
        messagesIn = countersManager.newCounter("ripc-messages-in:" + suffix, MdCounters.RIPC_MESSAGES_IN_TYPE_ID);
        messagesOut = countersManager.newCounter(
            "ripc-messages-out:" + suffix, MdCounters.RIPC_MESSAGES_OUT_TYPE_ID);
        bytesIn = countersManager.newCounter("ripc-bytes-in:" + suffix, MdCounters.RIPC_BYTES_IN_TYPE_ID);
        bytesOut = countersManager.newCounter("ripc-bytes-out:" + suffix, MdCounters.RIPC_BYTES_OUT_TYPE_ID);
        pingsIn = countersManager.newCounter("ripc-pings-in:" + suffix, MdCounters.RIPC_PINGS_IN_TYPE_ID);
        pingsOut = countersManager.newCounter("ripc-pings-out:" + suffix, MdCounters.RIPC_PINGS_OUT_TYPE_ID);
        tlsHandshakeFailures = countersManager.newCounter(
            "ripc-tls-handshake-failures:" + suffix, MdCounters.RIPC_TLS_HANDSHAKE_FAILURES_TYPE_ID);
        tlsHandshakesCompleted = countersManager.newCounter(
            "ripc-tls-handshakes-completed:" + suffix, MdCounters.RIPC_TLS_HANDSHAKES_COMPLETED_TYPE_ID);

        final UnsafeBuffer key = new UnsafeBuffer(new byte[Integer.BYTES]);
        for (final RipcDisconnectReason reason : RipcDisconnectReason.values())
        {
            key.putInt(0, reason.code());
            final String label = "ripc-disconnects: reason=" + reason.label() + suffix;
            final UnsafeBuffer labelBuffer = new UnsafeBuffer(label.getBytes(StandardCharsets.US_ASCII));
            disconnects[reason.code()] = countersManager.newCounter(
                MdCounters.RIPC_DISCONNECTS_TYPE_ID, key, 0, Integer.BYTES, labelBuffer, 0, labelBuffer.capacity());
        }
    }

    /**
     * @return TCP connections accepted (server) or opened (client).
     */
    public AtomicCounter connectionsOpened()
    {
        return connectionsOpened;
    }

    /**
     * @return connections currently open.
     */
    public AtomicCounter connectionsActive()
    {
        return connectionsActive;
    }

    /**
     * @return handshakes completed.
     */
    public AtomicCounter handshakesCompleted()
    {
        return handshakesCompleted;
    }

    /**
     * @return frames received after the handshake.
     */
    public AtomicCounter framesIn()
    {
        return framesIn;
    }

    /**
     * @return frames sent after the handshake.
     */
    public AtomicCounter framesOut()
    {
        return framesOut;
    }

    /**
     * @return RWF messages delivered to the application.
     */
    public AtomicCounter messagesIn()
    {
        return messagesIn;
    }

    /**
     * @return RWF messages written by the application.
     */
    public AtomicCounter messagesOut()
    {
        return messagesOut;
    }

    /**
     * @return bytes read.
     */
    public AtomicCounter bytesIn()
    {
        return bytesIn;
    }

    /**
     * @return bytes written.
     */
    public AtomicCounter bytesOut()
    {
        return bytesOut;
    }

    /**
     * @return pings received.
     */
    public AtomicCounter pingsIn()
    {
        return pingsIn;
    }

    /**
     * @return pings sent.
     */
    public AtomicCounter pingsOut()
    {
        return pingsOut;
    }

    /**
     * @return TLS handshakes that did not complete (TLS ports and TLS clients only).
     */
    public AtomicCounter tlsHandshakeFailures()
    {
        return tlsHandshakeFailures;
    }

    /**
     * @return TLS handshakes completed.
     */
    public AtomicCounter tlsHandshakesCompleted()
    {
        return tlsHandshakesCompleted;
    }

    /**
     * @param reason a disconnect reason.
     * @return the counter of that reason.
     */
    public AtomicCounter disconnects(final RipcDisconnectReason reason)
    {
        return disconnects[reason.code()];
    }

    /**
     * Free every counter in its CountersManager.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(disconnects);
        CloseHelper.closeAll(connectionsOpened, connectionsActive, handshakesCompleted, framesIn, framesOut,
            messagesIn, messagesOut, bytesIn, bytesOut, pingsIn, pingsOut, tlsHandshakeFailures,
            tlsHandshakesCompleted);
    }
}
