package io.mdhub.common.management;

import java.util.Objects;

/**
 * What one health check found: up or down, and a line saying what it saw.
 */
public final class HealthStatus
{
    private final boolean isUp;
    private final String detail;

    private HealthStatus(final boolean isUp, final String detail)
    {
        this.isUp = isUp;
        this.detail = Objects.requireNonNull(detail, "detail");
    }

    /**
     * @param detail what was seen.
     * @return an up status.
     */
    public static HealthStatus up(final String detail)
    {
        return new HealthStatus(true, detail);
    }

    /**
     * @param detail what is wrong.
     * @return a down status.
     */
    public static HealthStatus down(final String detail)
    {
        return new HealthStatus(false, detail);
    }

    /**
     * @param isUp   up or down.
     * @param detail what was seen.
     * @return the status.
     */
    public static HealthStatus of(final boolean isUp, final String detail)
    {
        return new HealthStatus(isUp, detail);
    }

    /**
     * @return true when up.
     */
    public boolean isUp()
    {
        return isUp;
    }

    /**
     * @return what was seen.
     */
    public String detail()
    {
        return detail;
    }

    @Override
    public String toString()
    {
        return (isUp ? "UP" : "DOWN") + " (" + detail + ")";
    }
}
