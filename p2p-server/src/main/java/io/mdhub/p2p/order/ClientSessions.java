package io.mdhub.p2p.order;

import java.util.ArrayList;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRejectEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.net.FrameConnection;

/**
 * The order clients one server answers, by client id: the {@link ClientSession} of each, bound to the connection its
 * latest hello came on. Owned by the order agent.
 * <p>
 * <b>A session lives as long as its connection.</b> A client that reconnects says hello on the new connection, and
 * the session moves there; a connection that ends takes its session with it. A client whose answers pass its
 * connection's send limit has stopped reading: it is disconnected (counted in {@code order-clients-evicted}, logged
 * at most once a second), so that it holds no more than that limit of this server's memory and never delays anyone
 * else's answers. Orders are idempotent by client and order id, not by session: a client that comes back resends
 * what it has no answer for and gets the original acks.
 */
final class ClientSessions
{
    /** Why a client was disconnected when its answers passed the send limit. */
    static final String STOPPED_READING = "stopped reading: its answers passed the connection's send limit";

    private static final Logger LOG = LoggerFactory.getLogger(ClientSessions.class);

    private final int serverId;
    private final int partitionCount;
    private final AtomicCounter evicted;
    private final Long2ObjectHashMap<ClientSession> sessions = new Long2ObjectHashMap<>();
    private final ArrayList<ClientSession> stopped = new ArrayList<>();
    private final LogInterval evictionLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final UnsafeBuffer strangerBuffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder strangerHeader = new MessageHeaderEncoder();
    private final OrderRejectEncoder strangerReject = new OrderRejectEncoder();

    ClientSessions(final int serverId, final int partitionCount, final OrderCounters counters)
    {
        this.serverId = serverId;
        this.partitionCount = partitionCount;
        this.evicted = counters.clientsEvicted;
    }

    /**
     * @param clientId a client id.
     * @return its session, or null while it has none (no hello yet, or its connection ended).
     */
    ClientSession get(final long clientId)
    {
        return sessions.get(clientId);
    }

    /**
     * A client said hello on a connection: its session answers there from now on, starting with the partition map.
     */
    void onHello(final long clientId, final FrameConnection connection, final Partition[] partitions)
    {
        final Object bound = connection.attachment();
        if (bound instanceof ClientSession && ((ClientSession)bound).clientId != clientId)
        {
            // one connection, one client: the earlier id's session ends here rather than linger on this connection
            final ClientSession earlier = (ClientSession)bound;
            if (sessions.get(earlier.clientId) == earlier)
            {
                sessions.remove(earlier.clientId);
            }
        }
        ClientSession session = sessions.get(clientId);
        if (null == session || session.connection != connection)
        {
            if (null != session)
            {
                // the client reconnected (or restarted elsewhere under its fixed id): its answers go where it is now
                LOG.info("order server {}: client {} moved from {} to {}", serverId, clientId,
                    session.connection.remoteAddress(), connection.remoteAddress());
                session.connection.attach(null);
            }
            session = new ClientSession(this, clientId, connection, partitionCount);
            sessions.put(clientId, session);
            connection.attach(session);
        }
        session.partitionMap(serverId, partitions);
    }

    /**
     * Refuse an order from a client that has not said hello, on the connection it came on: UNKNOWN_CLIENT is
     * retryable, so the client says hello and sends it again. A connection that cannot take even that is left to the
     * client's ack timeout.
     */
    void rejectUnknown(
        final FrameConnection connection,
        final long clientId,
        final long orderId,
        final int partition,
        final long sendTimestampNs)
    {
        strangerReject.wrapAndApplyHeader(strangerBuffer, 0, strangerHeader)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .reason(RejectReason.UNKNOWN_CLIENT)
            .sendTimestampNs(sendTimestampNs)
            .text("hello first");
        connection.offer(strangerBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + strangerReject.encodedLength());
    }

    /**
     * A client connection ended: its session, if it still answers there, ends with it.
     */
    void onClose(final FrameConnection connection, final String reason)
    {
        final Object attachment = connection.attachment();
        if (attachment instanceof ClientSession)
        {
            final ClientSession session = (ClientSession)attachment;
            if (sessions.get(session.clientId) == session)
            {
                sessions.remove(session.clientId);
            }
            connection.attach(null);
            if (STOPPED_READING.equals(reason))
            {
                evicted.increment();
                final long count = evictionLog.onEvent(System.nanoTime());
                if (count > 0)
                {
                    LOG.warn("order server {}: {} client(s) disconnected, they stopped reading; the last: client {} " +
                        "at {} with {} bytes of answers waiting (counted in order-clients-evicted)", serverId, count,
                        session.clientId, connection.remoteAddress(), connection.pendingBytes());
                }
            }
        }
    }

    /**
     * A session's connection is past its send limit: it is closed by {@link #closeStopped()}, not while the agent
     * may be walking the sessions.
     */
    void stoppedReading(final ClientSession session)
    {
        if (!stopped.contains(session))
        {
            stopped.add(session);
        }
    }

    /**
     * Disconnect the clients that stopped reading.
     *
     * @return clients disconnected.
     */
    int closeStopped()
    {
        final int count = stopped.size();
        for (int i = 0; i < count; i++)
        {
            stopped.get(i).connection.close(STOPPED_READING);
        }
        stopped.clear();
        return count;
    }

    /**
     * Send every client the current partition map.
     */
    void partitionMaps(final Partition[] partitions)
    {
        for (final ClientSession session : sessions.values())
        {
            session.partitionMap(serverId, partitions);
        }
    }
}
