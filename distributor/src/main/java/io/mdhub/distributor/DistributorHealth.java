package io.mdhub.distributor;

import java.util.List;
import java.util.StringJoiner;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.common.management.HealthChecks;
import io.mdhub.common.management.HealthStatus;
import io.mdhub.common.management.LoopLiveness;
import io.mdhub.distributor.backbone.DistributorBackbone;

/**
 * The distributor's health. Liveness: its event loop runs a task within the timeout. Readiness: it has joined the
 * backbone (its Aeron client is open; the p2p-servers it hears are reported), and at least one service is up (a
 * distributor without a provider has nothing to distribute).
 */
public final class DistributorHealth
{
    private DistributorHealth()
    {
    }

    /**
     * @param distributor   the running distributor.
     * @param loopTimeoutMs how long its event loop may take to answer.
     * @return the checks.
     */
    public static HealthChecks of(final Distributor distributor, final long loopTimeoutMs)
    {
        final Distributor.Context ctx = distributor.context();
        return new HealthChecks(ctx.componentName())
            .liveness("event-loop", LoopLiveness.of("event loop", List.of(ctx.eventLoop()), loopTimeoutMs))
            .readiness("backbone", () -> backbone(distributor))
            .readiness("services", () -> services(distributor));
    }

    private static HealthStatus backbone(final Distributor distributor)
    {
        final DistributorBackbone backbone = distributor.backbone();
        if (null == backbone)
        {
            return HealthStatus.up("off: this distributor publishes to no backbone");
        }
        final BackboneLink link = distributor.context().backbone().link(); // there is one: the backbone joined it
        if (!link.isUp())
        {
            return HealthStatus.down(link.describe());
        }
        final Aeron aeron = link.aeron();
        if (null == aeron || aeron.isClosed())
        {
            return HealthStatus.down("the backbone's Aeron client is closed (driver gone?)");
        }
        final int p2pServers = distributor.onEventLoop((directory) -> backbone.p2pServerCount());
        return HealthStatus.up(link.describe() + "; " + p2pServers + " p2p-server(s) heard");
    }

    private static HealthStatus services(final Distributor distributor)
    {
        return distributor.onEventLoop((directory) ->
        {
            final StringJoiner up = new StringJoiner(", ");
            final StringJoiner down = new StringJoiner(", ");
            for (final DistributedService service : directory.services())
            {
                (DistributedService.STATE_UP == service.serviceState() ? up : down).add(service.name());
            }
            final String detail = "up: [" + up + "], down: [" + down + "]";
            return HealthStatus.of(up.length() > 0, detail);
        });
    }
}
