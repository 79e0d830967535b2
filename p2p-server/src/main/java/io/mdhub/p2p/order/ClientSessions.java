package io.mdhub.p2p.order;

import java.util.ArrayList;

import org.agrona.CloseHelper;
import org.agrona.collections.ArrayListUtil;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.exceptions.AeronException;
import io.mdhub.common.concurrent.DoorbellRinger;

/**
 * The order clients one server answers, by client id: their {@link ClientSession}s, whose response publications the
 * driver may still be opening, and the end of sessions nobody listens to any more. Owned by the order agent.
 * <p>
 * <b>A hello never waits for the driver.</b> Its response publication is added asynchronously and looked for at most
 * once a millisecond: a blocking add would hold every partition of the server for as long as the driver takes to
 * answer (a host name to resolve, a driver that is slow or gone), and a client could repeat that with every hello.
 * Looking costs the agent the Aeron client's lock (shared with whatever else uses that client) and, while the driver
 * has not answered, one turn of the client's conductor work; once a millisecond, only while a session opens. The
 * session exists from the hello on, so orders that follow it are taken and their answers wait in its backlog until
 * the publication opens. A hello the driver refuses (a channel it cannot open) ends its session, with whatever waited
 * in it: counted in {@code order-hellos-failed} and logged at most once a second; that client alone is unanswered
 * (its orders are still stored: it resends them after its next hello and gets their original acks).
 * <p>
 * <b>Sessions end when nobody listens.</b> A session whose response publication has had no subscriber for {@code
 * mdhub.order.client.idle.timeout} is closed (counted in {@code order-clients-evicted}): clients that come and go
 * under new ids would otherwise pile up publications in the driver and sessions on the duty cycle's flush. A client
 * that comes back says hello again (it does so whenever an order goes unanswered), and its orders are idempotent by
 * client and order id, not by session, so nothing it sent is lost by the eviction.
 */
final class ClientSessions implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ClientSessions.class);
    private static final long EVICTION_CHECK_INTERVAL_NS = LogInterval.ONE_SECOND_NS;
    private static final long OPEN_CHECK_INTERVAL_NS = 1_000_000L;

    private final Aeron aeron;
    private final int serverId;
    private final int partitionCount;
    private final long idleTimeoutNs;
    private final AtomicCounter answersDropped;
    private final AtomicCounter hellosFailed;
    private final AtomicCounter evicted;
    private final Long2ObjectHashMap<ClientSession> sessions = new Long2ObjectHashMap<>();
    private final ArrayList<ClientSession> opening = new ArrayList<>();
    private final ArrayList<ClientSession> idle = new ArrayList<>();
    private final LogInterval failedHelloLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private long nextEvictionCheckNs = System.nanoTime() + EVICTION_CHECK_INTERVAL_NS;
    private long nextOpenCheckNs;

    /**
     * @param idleTimeoutNs how long a session's response publication may have no subscriber before it is closed.
     */
    ClientSessions(
        final Aeron aeron,
        final int serverId,
        final int partitionCount,
        final long idleTimeoutNs,
        final OrderCounters counters)
    {
        this.aeron = aeron;
        this.serverId = serverId;
        this.partitionCount = partitionCount;
        this.idleTimeoutNs = idleTimeoutNs;
        this.answersDropped = counters.answersDropped;
        this.hellosFailed = counters.hellosFailed;
        this.evicted = counters.clientsEvicted;
    }

    /**
     * @param clientId a client id.
     * @return its session, or null while it has none (no hello yet, its hello refused, or evicted).
     */
    ClientSession get(final long clientId)
    {
        return sessions.get(clientId);
    }

    /**
     * A client said hello: answer with the partition map on the session that answers where it listens, or start a
     * session there (the map waits in it until its publication opens).
     *
     * @param nowNs {@link System#nanoTime()}.
     */
    void onHello(
        final long clientId,
        final int responseStreamId,
        final String responseChannel,
        final Partition[] partitions,
        final long nowNs)
    {
        final ClientSession current = sessions.get(clientId);
        if (null != current && current.answersOn(responseChannel, responseStreamId))
        {
            current.partitionMap(serverId, partitions);
            return;
        }
        if (null != current)
        {
            // the client restarted elsewhere (another host, stream or channel) under its fixed id: its answers go
            // where it listens now, or it would time out on every order
            LOG.info("order server {}: client {} moved its answers to {} stream {}", serverId, clientId,
                responseChannel, responseStreamId);
            end(current);
        }
        final long registrationId = aeron.asyncAddPublication(responseChannel, responseStreamId);
        final ClientSession session = new ClientSession(
            clientId, responseChannel, responseStreamId, registrationId, answersDropped, partitionCount, nowNs);
        sessions.put(clientId, session);
        opening.add(session);
        session.partitionMap(serverId, partitions);
    }

    /**
     * Open the sessions whose publication the driver has added, end those it refused, send what waits in the
     * sessions' backlogs, and once a second close sessions nobody has listened to for the idle timeout.
     *
     * @param nowNs {@link System#nanoTime()}.
     * @return work done.
     */
    int poll(final long nowNs)
    {
        int work = 0;
        if (!opening.isEmpty() && nowNs - nextOpenCheckNs >= 0)
        {
            nextOpenCheckNs = nowNs + OPEN_CHECK_INTERVAL_NS;
            work += open(nowNs);
        }
        for (final ClientSession session : sessions.values())
        {
            work += session.flush();
        }
        if (nowNs - nextEvictionCheckNs >= 0)
        {
            nextEvictionCheckNs = nowNs + EVICTION_CHECK_INTERVAL_NS;
            work += evictIdle(nowNs);
        }
        return work;
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

    private int open(final long nowNs)
    {
        int work = 0;
        for (int i = opening.size() - 1; i >= 0; i--)
        {
            final ClientSession session = opening.get(i);
            final Publication answers;
            try
            {
                answers = aeron.getPublication(session.registrationId);
            }
            catch (final AeronException ex)
            {
                ArrayListUtil.fastUnorderedRemove(opening, i);
                sessions.remove(session.clientId);
                refused(session, ex, nowNs);
                work++;
                continue;
            }
            if (null != answers)
            {
                ArrayListUtil.fastUnorderedRemove(opening, i);
                session.open(answers, DoorbellRinger.forPublication(aeron, answers));
                LOG.info("order server {}: client {} answers on {} stream {}", serverId, session.clientId,
                    answers.channel(), answers.streamId());
                work++;
            }
        }
        return work;
    }

    private void refused(final ClientSession session, final AeronException ex, final long nowNs)
    {
        hellosFailed.increment();
        final long failures = failedHelloLog.onEvent(nowNs);
        if (failures > 0)
        {
            LOG.warn("order server {}: {} hello(s) whose response channel the driver refused; the last: client {} on " +
                "{} stream {}: {}", serverId, failures, session.clientId, session.channel(), session.streamId(),
                ex.getMessage());
        }
    }

    private void end(final ClientSession session)
    {
        sessions.remove(session.clientId);
        if (!session.isOpen())
        {
            opening.remove(session);
        }
        release(session);
    }

    /**
     * Close a session, and remove the publication of one still opening (the driver's answer is then dropped).
     */
    private void release(final ClientSession session)
    {
        if (!session.isOpen())
        {
            aeron.asyncRemovePublication(session.registrationId);
        }
        CloseHelper.quietClose(session);
    }

    private int evictIdle(final long nowNs)
    {
        for (final ClientSession session : sessions.values())
        {
            if (session.isUnheardFor(nowNs, idleTimeoutNs))
            {
                idle.add(session);
            }
        }
        final int closed = idle.size();
        for (int i = 0; i < closed; i++)
        {
            final ClientSession session = idle.get(i);
            evicted.increment();
            LOG.info("order server {}: client {} closed: nobody has listened on its response channel for {} ms " +
                "(mdhub.order.client.idle.timeout)", serverId, session.clientId, idleTimeoutNs / 1_000_000);
            end(session);
        }
        idle.clear();
        return closed;
    }

    @Override
    public void close()
    {
        for (final ClientSession session : sessions.values())
        {
            release(session);
        }
        sessions.clear();
        opening.clear();
    }
}
