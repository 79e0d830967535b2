package io.mdhub.p2p.backbone;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.collections.ArrayListUtil;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2LongHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.p2p.source.ServiceInfo;

/**
 * The distributors a backbone item source hears on its data stream, and the directory its consumers see from them.
 * Data messages name no distributor; the Aeron session they arrive on does (one publication per distributor
 * process), and the session's announcements give its distributor id, epoch and services.
 * <p>
 * It decides liveness, revival, restart and withdrawal; what that means for the items is the {@link Listener}'s
 * business. A distributor that sends nothing (any message counts) for {@code missedAnnouncements} announcement
 * intervals is dead. Silence counts only once this worker has read everything the distributor published (its image
 * has nothing left, or is gone): a worker lagging behind on the stream has not yet reached the messages that prove
 * the distributor alive. A dead distributor is revived by any message of it (a replaced one stays dead). A new
 * process announcing the same distributor id (a restart: new session and epoch), or a new epoch on the same session,
 * replaces the old one at once. A service missing from a complete announcement is withdrawn. The directory shows a
 * service up while any live distributor has it up, and down (still listed) when none carries it. Owned by the
 * worker's event loop.
 */
final class DistributorTracker implements Carriers
{
    /** The source's log lines keep one logger name, whichever part writes them. */
    private static final Logger LOG = LoggerFactory.getLogger(BackboneItemSource.class);

    /**
     * What the tracker's decisions mean for the items, called on the worker's event loop from inside the tracker's
     * methods, at the point each callback's javadoc gives.
     */
    interface Listener
    {
        /**
         * The directory entry consumers see for a service changed (up/down, accepting, name, domains).
         */
        void onServiceChanged(ServiceInfo service);

        /**
         * A distributor announced a service it did not carry before.
         */
        void onServiceCarried(int serviceId);

        /**
         * A distributor's service that was down is announced up again.
         */
        void onServiceBackUp(int serviceId);

        /**
         * A distributor's announcement no longer lists a service: its items there are to be asked for again.
         */
        void onServiceWithdrawn(DistributorState distributor, int serviceId, String text);

        /**
         * A distributor announced the last sequence it sent on a service: anything missing before it was lost.
         */
        void onServiceSequence(DistributorState distributor, int serviceId, long lastSequence);

        /**
         * A distributor was declared dead ({@code isAlive} is false already, the directory not updated yet).
         */
        void onDistributorDied(DistributorState distributor, String text);

        /**
         * A distributor was replaced by a restart ({@code isAlive} is false, its services still listed).
         */
        void onDistributorReplaced(DistributorState distributor, String text);

        /**
         * A distributor declared dead is heard again: called for each of its services, after the directory update.
         */
        void onDistributorRevived(DistributorState distributor, int serviceId);
    }

    /**
     * The data stream's images, one per distributor session.
     */
    interface StreamImages
    {
        /**
         * @return true if the session's image still held something to read (read now, so that it counts).
         */
        boolean hasUnread(int sessionId);

        /**
         * @return true when the session has no image any more.
         */
        boolean isGone(int sessionId);
    }

    private final int workerIndex;
    private final int missedAnnouncements;
    private final Listener listener;
    private final StreamImages images;
    private final ArrayList<DistributorState> distributors = new ArrayList<>();
    private final Int2ObjectHashMap<DistributorState> distributorBySession = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<ServiceInfo> services = new Int2ObjectHashMap<>();
    private final Long2LongHashMap serviceCapabilities = new Long2LongHashMap(HandleIndex.MISSING);
    private final IntArrayList serviceScratch = new IntArrayList();
    private DistributorState current;

    DistributorTracker(
        final int workerIndex, final int missedAnnouncements, final Listener listener, final StreamImages images)
    {
        this.workerIndex = workerIndex;
        this.missedAnnouncements = missedAnnouncements;
        this.listener = listener;
        this.images = images;
    }

    /**
     * @param sessionId the Aeron session the message being delivered arrived on.
     * @return the state of its distributor, made on its first message, its last sign of life now.
     */
    DistributorState onMessage(final int sessionId, final long nowNs)
    {
        DistributorState distributor = current;
        if (null == distributor || distributor.sessionId != sessionId)
        {
            distributor = distributorBySession.get(sessionId);
            if (null == distributor)
            {
                distributor = new DistributorState(sessionId);
                distributorBySession.put(sessionId, distributor);
                distributors.add(distributor);
            }
            current = distributor;
        }
        distributor.lastSeenNs = nowNs; // any message is a sign of life, not only announcements
        return distributor;
    }

    /**
     * The distributor of a data message: one declared dead (silent too long) is revived by it — any message proves
     * it alive — before the message is handled. Otherwise its refreshes and statuses would be dropped until its next
     * announcement while its updates pass: after its provider reconnected, updates following on from a new stream's
     * refresh its consumers never saw (a replaced distributor stays dead).
     */
    DistributorState onLiveMessage(final int sessionId, final long nowNs)
    {
        final DistributorState distributor = onMessage(sessionId, nowNs);
        if (!distributor.isAlive && distributor.isAnnounced && !distributor.isReplaced)
        {
            revive(distributor);
        }
        return distributor;
    }

    /**
     * An announcement's header. A new epoch on an announced session is a restart in place: the distributor is
     * replaced, its sequences reset, and it is taken as new. A first announcement replaces any other announced
     * distributor of the same id (a restart on a new session).
     */
    void onAnnouncement(
        final DistributorState distributor,
        final int distributorId,
        final long epoch,
        final int intervalMs,
        final int count)
    {
        if (distributor.isReplaced)
        {
            return; // an older process under a distributor id a newer one has announced since
        }
        if (distributor.isAnnounced && distributor.epoch != epoch)
        {
            // the same publication under a new epoch: a restart in place; its handles and sequences mean nothing now
            replaced(distributor, "distributor restarted: recovering");
            distributor.sequences.resetAll();
            distributor.isAnnounced = false;
            distributor.isAlive = true;
        }
        if (!distributor.isAnnounced)
        {
            distributor.isAnnounced = true;
            for (int i = 0, size = distributors.size(); i < size; i++)
            {
                final DistributorState other = distributors.get(i);
                if (other != distributor && other.isAnnounced && !other.isReplaced &&
                    other.distributorId == distributorId)
                {
                    other.isReplaced = true; // a restart: new process, new session; the old one is gone
                    replaced(other, "distributor restarted: recovering");
                }
            }
        }
        distributor.distributorId = distributorId;
        distributor.epoch = epoch;
        distributor.intervalNs = Math.max(1, intervalMs) * 1_000_000L;
        if (!distributor.isAlive)
        {
            revive(distributor);
        }
        distributor.generation++;
        distributor.servicesExpected = count;
        distributor.servicesSeen = 0;
        if (0 == count)
        {
            endAnnouncement(distributor);
        }
    }

    /**
     * One service of an announcement: the directory, then a new or back-up service, then its last sequence, and the
     * announcement's end after its last service.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the message's primitives
    void onServiceAnnounced(
        final DistributorState distributor,
        final int serviceId,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final long lastSequence,
        final int itemCount,
        final long capabilities,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        if (distributor.isReplaced || !distributor.isAlive)
        {
            return;
        }

        CarriedService service = distributor.services.get(serviceId);
        final boolean isNew = null == service;
        if (isNew)
        {
            service = new CarriedService(distributor, serviceId);
            distributor.services.put(serviceId, service);
        }
        final boolean isBackUp = !isNew && !service.isUp && isUp;
        boolean isChanged = isNew || service.isUp != isUp || service.isAcceptingRequests != isAcceptingRequests ||
            service.capabilities != capabilities;
        if (!sameName(service.name, buffer, nameOffset, nameLength))
        {
            service.name = buffer.getStringWithoutLengthAscii(nameOffset, nameLength); // only when it changes
            isChanged = true;
        }
        service.isUp = isUp;
        service.isAcceptingRequests = isAcceptingRequests;
        service.capabilities = capabilities;
        service.itemCount = itemCount;
        service.generation = distributor.generation;
        if (isChanged)
        {
            updateDirectory(serviceId);
        }
        if (isNew)
        {
            listener.onServiceCarried(serviceId); // requests that waited for a distributor of it, and failovers
        }
        else if (isBackUp)
        {
            listener.onServiceBackUp(serviceId); // items refused while it was down need not wait out their delay
        }

        listener.onServiceSequence(distributor, serviceId, lastSequence);
        if (++distributor.servicesSeen == distributor.servicesExpected)
        {
            endAnnouncement(distributor);
        }
    }

    private void endAnnouncement(final DistributorState distributor)
    {
        serviceScratch.clear();
        for (final CarriedService service : distributor.services.values())
        {
            if (service.generation != distributor.generation)
            {
                serviceScratch.addInt(service.serviceId);
            }
        }
        for (int i = 0, size = serviceScratch.size(); i < size; i++)
        {
            final int serviceId = serviceScratch.getInt(i);
            distributor.services.remove(serviceId);
            listener.onServiceWithdrawn(distributor, serviceId, "service withdrawn by its distributor: recovering");
            updateDirectory(serviceId);
        }
    }

    /**
     * Declare dead the distributors silent for {@code missedAnnouncements} of their intervals with nothing left to
     * read, and forget dead ones whose image is gone.
     *
     * @return how many died.
     */
    int checkLiveness(final long nowNs)
    {
        int work = 0;
        for (int i = 0; i < distributors.size(); i++) // hasUnread reads messages, which may add a distributor
        {
            final DistributorState distributor = distributors.get(i);
            if (distributor.isAlive &&
                nowNs - distributor.lastSeenNs > missedAnnouncements * distributor.intervalNs &&
                !images.hasUnread(distributor.sessionId))
            {
                died(distributor, nowNs);
                work++;
            }
        }
        for (int i = distributors.size() - 1; i >= 0; i--)
        {
            final DistributorState distributor = distributors.get(i);
            if (!distributor.isAlive && images.isGone(distributor.sessionId))
            {
                ArrayListUtil.fastUnorderedRemove(distributors, i);
                distributorBySession.remove(distributor.sessionId);
                if (current == distributor)
                {
                    current = null;
                }
            }
        }
        return work;
    }

    /**
     * Every distributor is lost at once (the backbone daemon went): each live one dies with {@code text}, then all
     * are forgotten, since their sessions end with the driver and a new driver may give the same ids to others.
     */
    void lostAll(final String text)
    {
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            final DistributorState distributor = distributors.get(i);
            if (distributor.isAlive)
            {
                died(distributor, text);
            }
        }
        distributors.clear();
        distributorBySession.clear();
        current = null;
    }

    private void died(final DistributorState distributor, final long nowNs)
    {
        LOG.warn("worker {}: distributor {} (session {}) silent for {} ms with nothing left to read: its items " +
            "go Open/Suspect", workerIndex, distributor.distributorId, distributor.sessionId,
            (nowNs - distributor.lastSeenNs) / 1_000_000);
        died(distributor, "distributor lost: recovering");
    }

    /**
     * A distributor fell silent: the listener handles its items, then the directory is updated for its services.
     */
    private void died(final DistributorState distributor, final String text)
    {
        distributor.isAlive = false;
        listener.onDistributorDied(distributor, text);
        serviceScratch.clear();
        for (final CarriedService service : distributor.services.values())
        {
            serviceScratch.addInt(service.serviceId);
        }
        for (int i = 0, size = serviceScratch.size(); i < size; i++)
        {
            updateDirectory(serviceScratch.getInt(i));
        }
    }

    /**
     * A distributor declared dead is heard again (same process, same epoch): its services count again.
     */
    private void revive(final DistributorState distributor)
    {
        LOG.info("worker {}: distributor {} (session {}) is heard again: recovering its items", workerIndex,
            distributor.distributorId, distributor.sessionId);
        distributor.isAlive = true;
        serviceScratch.clear();
        for (final CarriedService service : distributor.services.values())
        {
            serviceScratch.addInt(service.serviceId);
        }
        for (int i = 0, size = serviceScratch.size(); i < size; i++)
        {
            final int serviceId = serviceScratch.getInt(i);
            updateDirectory(serviceId);
            listener.onDistributorRevived(distributor, serviceId);
        }
    }

    /**
     * A distributor was replaced by a new process under its id (a restart): its handles and services mean nothing
     * any more. The listener runs while its services are still listed (it asks for the items of those services).
     */
    private void replaced(final DistributorState distributor, final String text)
    {
        LOG.warn("worker {}: distributor {} (session {}) {}", workerIndex, distributor.distributorId,
            distributor.sessionId, text);
        distributor.isAlive = false;
        listener.onDistributorReplaced(distributor, text);
        serviceScratch.clear();
        for (final CarriedService service : distributor.services.values())
        {
            serviceScratch.addInt(service.serviceId);
        }
        distributor.services.clear();
        for (int i = 0, size = serviceScratch.size(); i < size; i++)
        {
            updateDirectory(serviceScratch.getInt(i));
        }
    }

    /**
     * The directory consumers see, from every live distributor carrying the service: up when one has it up; a
     * service nobody carries any more stays listed, down.
     */
    private void updateDirectory(final int serviceId)
    {
        CarriedService best = null;
        boolean isUp = false;
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            final DistributorState distributor = distributors.get(i);
            final CarriedService service = distributor.isAlive ? distributor.services.get(serviceId) : null;
            if (null == service)
            {
                continue;
            }
            isUp |= service.isUp;
            if (null == best || (service.isUp && !best.isUp) ||
                (service.isUp == best.isUp && service.isAcceptingRequests && !best.isAcceptingRequests))
            {
                best = service;
            }
        }

        final ServiceInfo known = services.get(serviceId);
        if (null == best)
        {
            if (null != known && known.isUp())
            {
                final ServiceInfo down = known.withState(false);
                services.put(serviceId, down);
                listener.onServiceChanged(down);
            }
            return;
        }
        if (null == known || known.isUp() != isUp || known.isAcceptingRequests() != best.isAcceptingRequests ||
            !known.name().equals(best.name) || serviceCapabilities.get(serviceId) != best.capabilities)
        {
            final ServiceInfo info = new ServiceInfo(
                serviceId, best.name, isUp, best.isAcceptingRequests, domains(best.capabilities));
            services.put(serviceId, info);
            serviceCapabilities.put(serviceId, best.capabilities);
            listener.onServiceChanged(info);
        }
    }

    @Override
    public boolean hasCarrier(final int serviceId)
    {
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            if (distributors.get(i).carries(serviceId))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public int carriers(final int serviceId)
    {
        int carriers = 0;
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            if (distributors.get(i).carries(serviceId))
            {
                carriers++;
            }
        }
        return carriers;
    }

    /**
     * @return distributors announced and heard within their liveness timeout, not replaced by a restart.
     */
    int liveUpstreams()
    {
        int live = 0;
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            final DistributorState distributor = distributors.get(i);
            if (distributor.isAnnounced && distributor.isAlive && !distributor.isReplaced)
            {
                live++;
            }
        }
        return live;
    }

    /**
     * @return a copy of the directory consumers see.
     */
    List<ServiceInfo> services()
    {
        return new ArrayList<>(services.values());
    }

    /**
     * @return true if the service is in the directory (up or down).
     */
    boolean isListed(final int serviceId)
    {
        return services.containsKey(serviceId);
    }

    /**
     * @return the distributors known now: the list itself, never replaced (cleared when the backbone is lost), which
     * the service recovery walks for its passes.
     */
    List<DistributorState> distributors()
    {
        return distributors;
    }

    private static boolean sameName(
        final String name, final DirectBuffer buffer, final int offset, final int length)
    {
        if (null == name || name.length() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (name.charAt(i) != (char)buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static int[] domains(final long capabilities)
    {
        final int[] domains = new int[Long.bitCount(capabilities)];
        int i = 0;
        for (int domain = 0; domain < Long.SIZE; domain++)
        {
            if (0 != (capabilities & (1L << domain)))
            {
                domains[i++] = domain;
            }
        }
        return domains;
    }
}
