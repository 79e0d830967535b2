package io.mdhub.p2p;

import java.util.List;
import java.util.StringJoiner;

import io.mdhub.backbone.BackboneLink;
import io.mdhub.common.management.HealthChecks;
import io.mdhub.common.management.HealthStatus;
import io.mdhub.common.management.LoopLiveness;
import io.mdhub.p2p.fanout.WorkerStatus;
import io.mdhub.p2p.order.OrderService;
import io.mdhub.p2p.order.OrderServiceMXBean;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ServiceInfo;

/**
 * The p2p-server's health. Market data: liveness, every fan-out worker runs a task within the timeout; readiness,
 * every worker's source hears a distributor on the backbone, and at least one service is up. Orders: liveness, the
 * order agent's thread runs; readiness, the server is SERVING (caught up with its peer, or alone with every
 * acknowledged order), its standing and replication link reported.
 */
public final class P2pHealth
{
    private P2pHealth()
    {
    }

    /**
     * @param component     the server's name in reports.
     * @param server        the market data server, or null when this one serves orders only.
     * @param link          the server's link to the backbone daemon, or null: while it is down the backbone check
     *                      says so (and for how long it is waited for).
     * @param orders        the order service, or null.
     * @param loopTimeoutMs how long each worker may take to answer.
     * @return the checks.
     */
    public static HealthChecks of(
        final String component,
        final P2pServer server,
        final BackboneLink link,
        final OrderService orders,
        final long loopTimeoutMs)
    {
        final HealthChecks checks = new HealthChecks(component);
        if (null != server)
        {
            checks.liveness("workers", LoopLiveness.of("worker", server.workerLoops(), loopTimeoutMs))
                .readiness("backbone", () -> null != link && !link.isUp() ?
                    HealthStatus.down(link.describe()) : backbone(server.workerStatus(loopTimeoutMs)))
                .readiness("services", () -> services(server.workerStatus(loopTimeoutMs)));
        }
        if (null != orders)
        {
            checks.liveness("order-agent", () -> HealthStatus.of(orders.isRunning(),
                orders.isRunning() ? "running" : "the order agent's thread has ended"))
                .readiness("order-pair", () -> pair(orders.control()));
        }
        return checks;
    }

    static HealthStatus backbone(final List<WorkerStatus> workers)
    {
        final StringJoiner heard = new StringJoiner(", ");
        boolean isUp = true;
        for (final WorkerStatus worker : workers)
        {
            if (ItemSource.NO_UPSTREAMS == worker.liveUpstreams())
            {
                heard.add("worker " + worker.worker() + ": in-process source");
                continue;
            }
            isUp &= worker.liveUpstreams() > 0;
            heard.add("worker " + worker.worker() + ": " + worker.liveUpstreams() + " distributor(s)");
        }
        return HealthStatus.of(isUp, isUp ? heard.toString() : "no distributor heard by " + heard);
    }

    static HealthStatus services(final List<WorkerStatus> workers)
    {
        final StringJoiner up = new StringJoiner(", ");
        final StringJoiner down = new StringJoiner(", ");
        if (!workers.isEmpty())
        {
            // every worker's source carries the same directory
            for (final ServiceInfo service : workers.get(0).services())
            {
                (service.isUp() ? up : down).add(service.name());
            }
        }
        return HealthStatus.of(up.length() > 0, "up: [" + up + "], down: [" + down + "]");
    }

    static HealthStatus pair(final OrderServiceMXBean orders)
    {
        final String state = orders.getState();
        final String detail = state + ", standing " + orders.getStanding() + ", replication link " +
            (orders.isReplicationLinkUp() ? "up" : "down") + ", peer " + orders.getFenceState();
        return HealthStatus.of("SERVING".equals(state), detail);
    }
}
