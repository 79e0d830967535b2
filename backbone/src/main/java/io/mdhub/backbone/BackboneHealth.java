package io.mdhub.backbone;

import java.io.File;

import io.aeron.CommonContext;
import io.mdhub.common.management.HealthChecks;
import io.mdhub.common.management.HealthStatus;

/**
 * The backbone daemon's health: its media driver's conductor keeps a heartbeat in the driver's CnC file, the same one
 * the servers' Aeron clients watch; a heartbeat older than {@link #HEARTBEAT_TIMEOUT_MS} means the driver is stalled
 * or gone. The driver serves as soon as it has started, so the check is both liveness and readiness.
 */
public final class BackboneHealth
{
    /** A driver heartbeat older than this is a stalled driver (its clients give up after 10 s). */
    public static final long HEARTBEAT_TIMEOUT_MS = 5_000;

    private BackboneHealth()
    {
    }

    /**
     * @param component     the daemon's name in reports.
     * @param aeronDirectory the driver's directory.
     * @return the checks.
     */
    public static HealthChecks of(final String component, final String aeronDirectory)
    {
        final File directory = new File(aeronDirectory);
        return new HealthChecks(component).liveness("driver", () ->
        {
            final StringBuilder why = new StringBuilder();
            final boolean isActive = CommonContext.isDriverActive(directory, HEARTBEAT_TIMEOUT_MS, why::append);
            return isActive ?
                HealthStatus.up("heartbeat within " + HEARTBEAT_TIMEOUT_MS + " ms in " + aeronDirectory) :
                HealthStatus.down("no heartbeat within " + HEARTBEAT_TIMEOUT_MS + " ms in " + aeronDirectory +
                    (why.length() > 0 ? ": " + why : ""));
        });
    }
}
