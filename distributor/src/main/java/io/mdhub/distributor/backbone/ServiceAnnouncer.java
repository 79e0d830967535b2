package io.mdhub.distributor.backbone;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.aeron.Publication;
import io.mdhub.backbone.protocol.AnnouncedServices;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.distributor.DistributedService;
import io.mdhub.distributor.ServiceDirectory;

/**
 * Publishes the distributor's ServiceAnnouncement: every service of the directory with its state, item count,
 * capabilities and the sequence of its last data message. Announcements are the distributor's heartbeat and how
 * p2p-servers learn of services going up or down and of lost tail messages. Regular ones come every interval; an
 * early one (a service changed, a live message was dropped or passed over for want of a subscriber) may come sooner,
 * but never closer than a tenth of the interval to the previous one, so a loss storm does not turn into an
 * announcement storm. While nobody subscribes nothing is announced (and nothing encoded): the announcement that is
 * due goes out on the first cycle after a p2p-server subscribes, so a joiner learns every service's
 * {@code lastSequence} at once rather than an interval later. A failed announcement is tried again on the next
 * cycle. Owned by the distributor's event loop.
 */
final class ServiceAnnouncer implements AnnouncedServices
{
    private static final Logger LOG = LoggerFactory.getLogger(ServiceAnnouncer.class);
    private static final int EARLY_GAP_DIVISOR = 10;
    /** An announcement this many intervals overdue is logged when it finally goes out. */
    private static final int LATE_INTERVALS = 2;
    private static final int MAX_DOMAIN_BIT = 63;

    private final ServiceDirectory directory;
    private final ServiceSequences sequences;
    private final MarketDataPublisher publisher;
    private Publication publication;
    private final int distributorId;
    private final long epoch;
    private final int intervalMs;
    private final long intervalNs;
    private final long earlyGapNs;
    private long lastAnnouncedNs;
    private boolean hasAnnounced;
    private boolean isLate;

    ServiceAnnouncer(
        final ServiceDirectory directory,
        final ServiceSequences sequences,
        final MarketDataPublisher publisher,
        final Publication publication,
        final int distributorId,
        final long epoch,
        final int intervalMs)
    {
        this.directory = directory;
        this.sequences = sequences;
        this.publisher = publisher;
        this.publication = publication;
        this.distributorId = distributorId;
        this.epoch = epoch;
        this.intervalMs = intervalMs;
        this.intervalNs = intervalMs * 1_000_000L;
        this.earlyGapNs = intervalNs / EARLY_GAP_DIVISOR;
    }

    /**
     * Announce on another publication from now on (one made on a new client after a lost backbone daemon), at once.
     *
     * @param publication the new publication.
     */
    void publication(final Publication publication)
    {
        this.publication = publication;
        hasAnnounced = false;
    }

    /**
     * Announce when the interval has nearly passed (all but a tenth of it, so that a loop woken by a tick of the
     * interval's period that fires a little early does not hold the announcement for a whole tick), or early when
     * asked.
     *
     * @return 1 if an announcement was published, else 0.
     */
    int doWork(final long nowNs)
    {
        final long sinceNs = nowNs - lastAnnouncedNs;
        if (hasAnnounced && sinceNs < intervalNs - earlyGapNs &&
            !(sequences.isAnnouncementDue() && sinceNs >= earlyGapNs))
        {
            return 0;
        }
        if (!publication.isConnected())
        {
            return 0; // still due: announced on the first cycle after a p2p-server subscribes
        }
        final long result = publisher.announce(distributorId, epoch, intervalMs, nowNs, this);
        if (result > 0 || Publication.NOT_CONNECTED == result)
        {
            // the last subscriber left between the check and the offer: as good as announced
            hasAnnounced = true;
            lastAnnouncedNs = nowNs;
            sequences.announced();
            if (isLate)
            {
                // p2p-servers count a distributor dead after a few missed intervals: say why one went out late
                LOG.warn("announcement published {} ms after it was due: the stream refused it meanwhile",
                    (sinceNs - intervalNs) / 1_000_000L);
                isLate = false;
            }
            return result > 0 ? 1 : 0;
        }
        isLate |= hasAnnounced && sinceNs >= LATE_INTERVALS * intervalNs;
        return 0;
    }

    @Override
    public int count()
    {
        return directory.services().size();
    }

    @Override
    public int serviceId(final int index)
    {
        return service(index).id();
    }

    @Override
    public String name(final int index)
    {
        return service(index).name();
    }

    @Override
    public boolean isUp(final int index)
    {
        return DistributedService.STATE_UP == service(index).serviceState();
    }

    @Override
    public boolean isAcceptingRequests(final int index)
    {
        return 0 != service(index).acceptingRequests();
    }

    @Override
    public long lastSequence(final int index)
    {
        return sequences.last(service(index).id());
    }

    @Override
    public int itemCount(final int index)
    {
        return service(index).cache().size();
    }

    @Override
    public long capabilities(final int index)
    {
        final Service info = service(index).info();
        if (!info.checkHasInfo())
        {
            return 0;
        }
        final List<Long> domains = info.info().capabilitiesList();
        long bits = 0;
        for (int i = 0, size = domains.size(); i < size; i++)
        {
            final long domain = domains.get(i);
            if (domain >= 0 && domain <= MAX_DOMAIN_BIT)
            {
                bits |= 1L << domain;
            }
        }
        return bits;
    }

    private DistributedService service(final int index)
    {
        return directory.services().get(index);
    }
}
