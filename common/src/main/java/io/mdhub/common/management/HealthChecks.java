package io.mdhub.common.management;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * A server's health checks, in two kinds: liveness (the process works: its loops answer; a failed one means restart
 * it) and readiness (it can do its job now: joined the backbone, services up, standing in its pair; a failed one
 * means send it no work yet). Checks are added once at start and run when asked, in the order added.
 */
public final class HealthChecks
{
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * What a check says about the server.
     */
    public enum Kind
    {
        /** The process works; down means restart it. */
        LIVENESS,
        /** It can serve now; down means wait. */
        READINESS
    }

    private final String component;
    private final List<Named> checks = new CopyOnWriteArrayList<>();

    /**
     * @param component the server's name in reports.
     */
    public HealthChecks(final String component)
    {
        this.component = component;
    }

    /**
     * @param name  the check's name in reports.
     * @param check the check.
     * @return this.
     */
    public HealthChecks liveness(final String name, final HealthCheck check)
    {
        checks.add(new Named(name, Kind.LIVENESS, check));
        return this;
    }

    /**
     * @param name  the check's name in reports.
     * @param check the check.
     * @return this.
     */
    public HealthChecks readiness(final String name, final HealthCheck check)
    {
        checks.add(new Named(name, Kind.READINESS, check));
        return this;
    }

    /**
     * @return the server's name.
     */
    public String component()
    {
        return component;
    }

    /**
     * Run the checks of the given kinds; a check that throws is down with what it threw.
     *
     * @param withReadiness true for every check, false for liveness only.
     * @return the results.
     */
    public Report evaluate(final boolean withReadiness)
    {
        final List<Result> results = new ArrayList<>();
        for (final Named named : checks)
        {
            if (Kind.READINESS == named.kind && !withReadiness)
            {
                continue;
            }
            HealthStatus status;
            try
            {
                status = named.check.check();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                status = HealthStatus.down("interrupted");
            }
            catch (final Exception ex)
            {
                status = HealthStatus.down("check failed: " + ex);
            }
            results.add(new Result(named.name, named.kind, null == status ? HealthStatus.down("no answer") : status));
        }
        return new Report(component, results);
    }

    private record Named(String name, Kind kind, HealthCheck check)
    {
    }

    /**
     * One check's outcome.
     *
     * @param name   the check.
     * @param kind   liveness or readiness.
     * @param status what it found.
     */
    public record Result(String name, Kind kind, HealthStatus status)
    {
    }

    /**
     * The outcome of one evaluation.
     *
     * @param component the server.
     * @param results   every check run.
     */
    public record Report(String component, List<Result> results)
    {
        /**
         * @return true when every check run is up.
         */
        public boolean isUp()
        {
            for (final Result result : results)
            {
                if (!result.status.isUp())
                {
                    return false;
                }
            }
            return true;
        }

        /**
         * @return the report as a JSON object: {@code status} (UP or DOWN), {@code component}, and {@code checks}
         * with each check's {@code name}, {@code kind}, {@code status} and {@code detail}.
         */
        public String toJson()
        {
            final StringWriter out = new StringWriter();
            try (JsonGenerator json = JSON.createGenerator(out))
            {
                json.writeStartObject();
                json.writeStringField("status", isUp() ? "UP" : "DOWN");
                json.writeStringField("component", component);
                json.writeArrayFieldStart("checks");
                for (final Result result : results)
                {
                    json.writeStartObject();
                    json.writeStringField("name", result.name);
                    json.writeStringField("kind", result.kind.name().toLowerCase());
                    json.writeStringField("status", result.status.isUp() ? "UP" : "DOWN");
                    json.writeStringField("detail", result.status.detail());
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("health report not written", ex); // a StringWriter does not fail
            }
            return out.append('\n').toString();
        }
    }
}
