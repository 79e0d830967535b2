package io.mdhub.common.management;

import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * What the management endpoint answers to each request, apart from Netty: the routes, the content negotiation of
 * {@code /metrics}, and the tally of requests answered and refused ({@code mdhub_http_requests_total} by outcome in
 * the same registry), with a log line for the first ten refusals and then at powers of two.
 */
public final class ManagementRequests
{
    /** Liveness checks only. */
    public static final String LIVE_PATH = "/health/live";
    /** Every check. */
    public static final String READY_PATH = "/health/ready";
    /** Every check. */
    public static final String HEALTH_PATH = "/health";
    /** The Prometheus scrape. */
    public static final String METRICS_PATH = "/metrics";
    /** The Prometheus text format, served unless the scraper asks for OpenMetrics. */
    static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics, served when the Accept header names it. */
    static final String OPEN_METRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String JSON_TYPE = "application/json; charset=utf-8";
    static final String TEXT_TYPE = "text/plain; charset=utf-8";
    private static final Logger LOG = LoggerFactory.getLogger(ManagementRequests.class);

    private final HealthChecks checks;
    private final PrometheusMeterRegistry registry;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong notFound = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    ManagementRequests(final HealthChecks checks, final PrometheusMeterRegistry registry)
    {
        this.checks = checks;
        this.registry = registry;
        count("answered", answered);
        count("not-found", notFound);
        count("malformed", malformed);
        count("refused", refused);
    }

    private void count(final String outcome, final AtomicLong tally)
    {
        FunctionCounter.builder("mdhub.http.requests", tally, AtomicLong::doubleValue)
            .tags("component", checks.component(), "outcome", outcome)
            .description("management endpoint requests by outcome")
            .register(registry);
    }

    /**
     * An answer: status, content type and body.
     *
     * @param status      the HTTP status.
     * @param contentType its type.
     * @param body        its text.
     */
    public record Answer(HttpResponseStatus status, String contentType, String body)
    {
    }

    /**
     * @param method the request's method.
     * @param uri    its target (a query string is ignored).
     * @param accept its Accept header, or null.
     * @return what to answer.
     */
    public Answer answer(final HttpMethod method, final String uri, final String accept)
    {
        final int query = uri.indexOf('?');
        final String path = query < 0 ? uri : uri.substring(0, query);
        final boolean isKnown = METRICS_PATH.equals(path) || HEALTH_PATH.equals(path) || LIVE_PATH.equals(path) ||
            READY_PATH.equals(path);
        if (!isKnown)
        {
            notFound.incrementAndGet();
            return new Answer(HttpResponseStatus.NOT_FOUND, TEXT_TYPE,
                "not found: " + path + " (try " + METRICS_PATH + ", " + HEALTH_PATH + ", " + LIVE_PATH + ", " +
                READY_PATH + ")\n");
        }
        if (!HttpMethod.GET.equals(method))
        {
            notFound.incrementAndGet();
            return new Answer(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT_TYPE, "only GET: " + method + "\n");
        }
        answered.incrementAndGet();
        if (METRICS_PATH.equals(path))
        {
            final String type = null != accept && accept.contains("application/openmetrics-text") ?
                OPEN_METRICS_TYPE : PROMETHEUS_TYPE;
            return new Answer(HttpResponseStatus.OK, type, registry.scrape(type));
        }
        final HealthChecks.Report report = checks.evaluate(!LIVE_PATH.equals(path));
        return new Answer(report.isUp() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, JSON_TYPE,
            report.toJson());
    }

    /**
     * A request that did not decode (or was too large): counted and logged; the caller answers 400 and closes.
     *
     * @param channel the connection.
     * @param why     what was wrong.
     */
    void malformed(final Channel channel, final String why)
    {
        logAt(malformed.incrementAndGet(), "malformed request from {}: {} (closed)", channel.remoteAddress(), why);
    }

    /**
     * A connection over {@link ManagementServer#MAX_CONNECTIONS}: counted, logged and closed.
     *
     * @param channel the connection.
     */
    void refused(final Channel channel)
    {
        refused(channel, ManagementServer.MAX_CONNECTIONS + " management connections open already");
    }

    /**
     * A connection over its address's budget ({@link ManagementServer#MAX_CONNECTIONS_PER_ADDRESS} open, or
     * {@link ManagementServer#ACCEPTS_PER_SECOND_PER_ADDRESS} new a second): counted, logged and closed.
     *
     * @param channel the connection.
     * @param why     which budget it is over.
     */
    void refused(final Channel channel, final String why)
    {
        logAt(refused.incrementAndGet(), "connection from {} refused: {}", channel.remoteAddress(), why);
        channel.close();
    }

    private void logAt(final long count, final String format, final Object first, final Object second)
    {
        if (count <= 10 || Long.bitCount(count) == 1)
        {
            LOG.warn("{}: " + format + " [{} so far]", checks.component(), first, second, count);
        }
    }

    /**
     * @return requests answered on a known path.
     */
    public long answered()
    {
        return answered.get();
    }

    /**
     * @return requests for an unknown path or with another method than GET.
     */
    public long notFound()
    {
        return notFound.get();
    }

    /**
     * @return requests that did not decode.
     */
    public long malformed()
    {
        return malformed.get();
    }

    /**
     * @return connections refused over the limit.
     */
    public long refused()
    {
        return refused.get();
    }
}
