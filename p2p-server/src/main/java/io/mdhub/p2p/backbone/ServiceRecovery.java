package io.mdhub.p2p.backbone;

import java.util.List;

import org.agrona.collections.IntArrayList;

import io.mdhub.backbone.protocol.ServiceSequenceTracker;

/**
 * Sequence checks and recovery of one backbone item source. Sequences are tracked per (distributor, service): a gap,
 * or an announcement whose lastSequence is ahead of what was seen, turns the items bound to that distributor's service
 * Open/Suspect and asks for their images again — by one service-level RecoveryRequest (a pass: the distributor
 * resends the whole service in bounded batches) when this worker holds at least half of the distributor's items of
 * the service, else item by item at a bounded rate. A pass that brings no image for 2 s is over; its items still
 * without an image are then asked for one by one, and a distributor whose pass brought nothing at all (one that
 * ignores RecoveryRequests) is recovered item by item from then on. Owned by the worker's event loop.
 */
final class ServiceRecovery
{
    /**
     * A service-level recovery pass that has brought no image for this long is over (a congested distributor sends
     * its recovery images slowly: asking item by item then would only add load).
     */
    static final long PASS_IDLE_TIMEOUT_NS = 2_000_000_000L;

    private final RecoverableItems items;
    private final ControlSender control;
    private final SourceCounters counters;
    private final List<DistributorState> distributors;
    private final Runnable wake;
    /** The ids of the items one recovery acts on. */
    private final IntArrayList recoverable = new IntArrayList();
    private int pendingPasses;

    /**
     * @param distributors the distributors known now (the tracker's list), whose services' passes are walked.
     * @param wake         wakes the duty cycle, which polls on its timers while a pass waits to be sent.
     */
    ServiceRecovery(
        final RecoverableItems items,
        final ControlSender control,
        final SourceCounters counters,
        final List<DistributorState> distributors,
        final Runnable wake)
    {
        this.items = items;
        this.control = control;
        this.counters = counters;
        this.distributors = distributors;
        this.wake = wake;
    }

    /**
     * Check a message's sequence on its distributor's service (a gap starts a recovery).
     *
     * @return false for a duplicate, to be dropped.
     */
    boolean inSequence(
        final DistributorState distributor, final int serviceId, final long sequence, final long nowNs)
    {
        final long result = distributor.sequences.onMessage(serviceId, sequence);
        if (ServiceSequenceTracker.DUPLICATE == result)
        {
            return false;
        }
        counters.onMessageIn();
        if (result > 0)
        {
            counters.onGap();
            recover(distributor, serviceId, "gap on the backbone: recovering", nowNs);
        }
        return true;
    }

    /**
     * A distributor announced the last sequence it sent on a service: anything missing before it was lost at the
     * tail, where no later message shows a gap.
     */
    void onServiceSequence(
        final DistributorState distributor, final int serviceId, final long lastSequence, final long nowNs)
    {
        if (distributor.sequences.missingBefore(serviceId, lastSequence) > 0)
        {
            counters.onGap();
            distributor.sequences.onMessage(serviceId, lastSequence);
            recover(distributor, serviceId, "tail loss on the backbone: recovering", nowNs);
        }
    }

    /**
     * Loss on one distributor's service: its items there turn Open/Suspect and their images are asked for again —
     * by one service-level RecoveryRequest when this worker holds at least half of the distributor's items of the
     * service (resending the whole service then costs at most twice the images, and one request instead of
     * thousands), else item by item. A null text sends no status (the items are Suspect already).
     */
    void recover(final DistributorState distributor, final int serviceId, final String text, final long nowNs)
    {
        recoverable.clear();
        items.collectRecoverable(distributor, serviceId, recoverable);
        final int affected = recoverable.size();
        final CarriedService service = distributor.services.get(serviceId);
        final boolean isServiceWide = affected > 0 && null != service && !service.isPassIgnored &&
            CarriedService.PASS_NONE == service.passState && 2L * affected >= service.itemCount;
        items.recoverItems(recoverable, isServiceWide ? service : null, text);
        if (isServiceWide)
        {
            service.passState = CarriedService.PASS_PENDING;
            service.passImages = 0;
            if (!sendPass(service, nowNs))
            {
                pendingPasses++;
                wake.run();
            }
        }
    }

    /**
     * A recovery image (of a pass, this worker's or another server's) from the distributor's service: its pass is
     * under way, and the distributor does not ignore RecoveryRequests.
     */
    void onRecoveryImage(final DistributorState distributor, final int serviceId, final long nowNs)
    {
        final CarriedService service = distributor.services.get(serviceId);
        if (null != service)
        {
            service.lastPassImageNs = nowNs;
            service.passImages++;
            service.isPassIgnored = false;
        }
    }

    /**
     * @return true while a pass waits to be sent.
     */
    boolean hasPendingPasses()
    {
        return pendingPasses > 0;
    }

    /**
     * @return how many passes that waited went out.
     */
    int sendPendingPasses(final long nowNs)
    {
        int sent = 0;
        int stillPending = 0;
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            for (final CarriedService service : distributors.get(i).services.values())
            {
                if (CarriedService.PASS_PENDING == service.passState)
                {
                    if (sendPass(service, nowNs))
                    {
                        sent++;
                    }
                    else
                    {
                        stillPending++;
                    }
                }
            }
        }
        pendingPasses = stillPending; // recounted: services of distributors lost meanwhile are gone
        return sent;
    }

    /**
     * A service-level recovery is over once its distributor has sent no recovery image for a while (the pass
     * finished, or the distributor ignores RecoveryRequests: then its services are recovered item by item from now
     * on). Items of the pass still without an image are then asked for one by one by the request check.
     */
    void endIdlePasses(final long nowNs)
    {
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            for (final CarriedService service : distributors.get(i).services.values())
            {
                if (CarriedService.PASS_SENT == service.passState &&
                    nowNs - service.lastPassImageNs > PASS_IDLE_TIMEOUT_NS)
                {
                    service.passState = CarriedService.PASS_NONE;
                    service.isPassIgnored = 0 == service.passImages;
                }
            }
        }
    }

    /**
     * The distributor died: its passes with it.
     */
    void onDistributorDied(final DistributorState distributor)
    {
        for (final CarriedService service : distributor.services.values())
        {
            service.passState = CarriedService.PASS_NONE;
        }
    }

    /**
     * Every distributor is lost (the backbone daemon went): no pass waits any more.
     */
    void reset()
    {
        pendingPasses = 0;
    }

    private boolean sendPass(final CarriedService service, final long nowNs)
    {
        if (!control.isDown() && control.requestRecovery(service.serviceId, -1, 0,
            service.distributor.sequences.lastSequence(service.serviceId)) > 0)
        {
            service.passState = CarriedService.PASS_SENT;
            service.lastPassImageNs = nowNs;
            return true;
        }
        return false; // back-pressure or nobody listening: housekeeping tries again
    }
}
