package io.mdhub.orderprobe;

import java.io.PrintWriter;
import java.util.function.BooleanSupplier;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.client.OrderListener;

/**
 * The order load: a creation timer makes order n at {@code start + n / rate} (evenly spaced, whatever the servers
 * do), and submits it through an {@link OrderClient} without waiting (several in flight, up to the client's window).
 * When the window is full the due orders wait and are submitted as soon as it frees up, so a stall shows in their
 * latency: create-to-end is measured from the scheduled creation time (no coordinated omission); send-to-end from
 * the client's send of the copy that was answered. Everything runs on the caller's thread; steady state allocates
 * nothing (a line is printed once a second).
 */
public final class OrdersLoad implements OrderListener
{
    /** Most orders in one run (the outcomes are kept in memory, about 17 bytes each). */
    public static final long MAX_ORDERS = 200_000_000L;

    /** Printed once the servers are ready, followed by the epoch milliseconds of order 0's scheduled creation. */
    public static final String CREATION_STARTS = "orders-load: creation starts at epoch-ms ";

    private static final long NS_PER_S = 1_000_000_000L;
    private static final long HIGHEST_TRACKABLE_NS = 60 * NS_PER_S;

    private final OrderClient client;
    private final OrderGenerator generator;
    private final Settings settings;
    private final IdleStrategy idleStrategy;
    private final NanoClock clock;
    private final EpochClock epochClock;
    private final UnsafeBuffer order;
    private final OrderOutcomes outcomes;
    private final long total;
    private final Histogram interval = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    private final Histogram createToEnd = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    private final Histogram sendToEnd = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    private final long[] rejectsByReason = new long[RejectReason.values().length];

    private long startNs;
    private long warmupEndNs;
    private long created;
    private long submitted;
    private long acked;
    private long duplicates;
    private long unreplicated;
    private long rejected;
    private long windowFullStalls;
    private boolean isWindowFull;
    private long lastSecondSubmitted;
    private long lastSecondAcked;

    /**
     * @param client       a connected client; this load is its only user while it runs.
     * @param generator    makes the FIX bytes.
     * @param settings     rate, duration and the rest.
     * @param idleStrategy idle strategy of the loop between duty cycles.
     */
    public OrdersLoad(
        final OrderClient client,
        final OrderGenerator generator,
        final Settings settings,
        final IdleStrategy idleStrategy)
    {
        if (settings.rate < 1 || settings.durationSeconds < 1)
        {
            throw new IllegalArgumentException("rate and duration must be positive");
        }
        final long orders = Math.multiplyExact(settings.rate, settings.durationSeconds);
        if (orders > MAX_ORDERS)
        {
            throw new IllegalArgumentException("a run is at most " + MAX_ORDERS + " orders: " + orders);
        }
        if (generator.maxLength() > client.context().maxOrderLength())
        {
            throw new IllegalArgumentException("orders of up to " + generator.maxLength() + " bytes, client takes " +
                client.context().maxOrderLength());
        }
        this.client = client;
        this.generator = generator;
        this.settings = settings;
        this.idleStrategy = idleStrategy;
        this.clock = SystemNanoClock.INSTANCE;
        this.epochClock = SystemEpochClock.INSTANCE;
        this.total = orders;
        this.order = new UnsafeBuffer(new byte[generator.maxLength()]);
        this.outcomes = new OrderOutcomes(settings.firstOrderId, (int)orders);
    }

    /**
     * Wait until the client is ready, create and submit every order at the rate, then wait for the answers (at most
     * the drain timeout). A stop request ends creation early; orders already due are still submitted and drained.
     *
     * @param out  where the line per second goes.
     * @param stop polled each cycle; true stops creation.
     * @return the totals.
     */
    public Totals run(final PrintWriter out, final BooleanSupplier stop)
    {
        if (!awaitReady(stop))
        {
            return totals(false);
        }
        startNs = clock.nanoTime();
        // the wall-clock start of the schedule: line n of the report covers (start + n - 1 s, start + n s], which a
        // tool that breaks the servers under the load lines up with its own faults
        out.printf("%s%d%n", CREATION_STARTS, epochClock.time());
        out.flush();
        warmupEndNs = startNs + settings.warmupSeconds * NS_PER_S;
        long limit = total;
        long endNs = startNs + settings.durationSeconds * NS_PER_S + settings.drainTimeoutSeconds * NS_PER_S;
        long nextReportNs = startNs + NS_PER_S;
        int second = 0;
        boolean isStopping = false;
        idleStrategy.reset();
        while (true)
        {
            final long nowNs = clock.nanoTime();
            int work = submitDue(nowNs, limit);
            work += client.poll();
            if (nowNs - nextReportNs >= 0)
            {
                report(out, ++second);
                nextReportNs += NS_PER_S;
            }
            if (!isStopping && stop.getAsBoolean())
            {
                isStopping = true;
                limit = Math.min(total, scheduledCount(nowNs));
                endNs = Math.min(endNs, nowNs + settings.drainTimeoutSeconds * NS_PER_S);
                out.printf("orders-load: stopping: %d orders created, draining%n", limit);
                out.flush();
            }
            if (submitted >= limit && 0 == client.inFlight())
            {
                break;
            }
            if (nowNs - endNs >= 0)
            {
                out.printf("orders-load: drain timeout: %d orders still in flight, %d not submitted%n",
                    client.inFlight(), limit - submitted);
                out.flush();
                break;
            }
            idleStrategy.idle(work);
        }
        created = Math.min(limit, Math.max(submitted, scheduledCount(clock.nanoTime())));
        return totals(true);
    }

    /**
     * @return every order's outcome (for the acked-orders CSV).
     */
    public OrderOutcomes outcomes()
    {
        return outcomes;
    }

    /**
     * @return orders the run is made of (rate × duration).
     */
    public long plannedOrders()
    {
        return total;
    }

    @Override
    public void onAck(
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final boolean replicated,
        final long sendTimestampNs)
    {
        final long nowNs = clock.nanoTime();
        final long scheduledNs = scheduledNs(orderId - settings.firstOrderId);
        final long createToEndNs = clamp(nowNs - scheduledNs);
        interval.recordValue(createToEndNs);
        if (scheduledNs - warmupEndNs >= 0)
        {
            createToEnd.recordValue(createToEndNs);
            if (0 != sendTimestampNs) // 0: acked by a server that took the order over and never saw this send
            {
                sendToEnd.recordValue(clamp(nowNs - sendTimestampNs));
            }
        }
        acked++;
        if (duplicate)
        {
            duplicates++;
        }
        if (!replicated)
        {
            unreplicated++;
        }
        outcomes.acked(orderId, partition, epoch, sequence);
    }

    @Override
    public void onReject(
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final CharSequence text)
    {
        rejected++;
        rejectsByReason[reason.ordinal()]++;
        outcomes.rejected(orderId);
    }

    private boolean awaitReady(final BooleanSupplier stop)
    {
        final long deadlineNs = clock.nanoTime() + settings.readyTimeoutSeconds * NS_PER_S;
        idleStrategy.reset();
        while (!client.isReady())
        {
            if (stop.getAsBoolean() || clock.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            idleStrategy.idle(client.poll());
        }
        return true;
    }

    private int submitDue(final long nowNs, final long limit)
    {
        int work = 0;
        while (submitted < limit && nowNs - scheduledNs(submitted) >= 0)
        {
            final long orderId = settings.firstOrderId + submitted;
            final int length = generator.generate(orderId, epochClock.time(), order, 0);
            if (!client.submitAsync(orderId, order, 0, length, this))
            {
                if (!isWindowFull)
                {
                    isWindowFull = true;
                    windowFullStalls++;
                }
                break; // due orders wait for window room; their latency keeps counting from the schedule
            }
            isWindowFull = false;
            submitted++;
            work++;
        }
        return work;
    }

    private void report(final PrintWriter out, final int second)
    {
        out.printf("orders-load: %4ds sent %d acked %d rejected %d in-flight %d backlog %d resent %d | " +
            "create-to-end p50 %.1f us p99 %.1f us max %.1f us%n",
            second, submitted - lastSecondSubmitted, acked - lastSecondAcked, rejected, client.inFlight(),
            Math.max(0, Math.min(total, scheduledCount(clock.nanoTime())) - submitted), client.resendCount(),
            interval.getValueAtPercentile(50) / 1000.0, interval.getValueAtPercentile(99) / 1000.0,
            interval.getMaxValue() / 1000.0);
        out.flush();
        interval.reset();
        lastSecondSubmitted = submitted;
        lastSecondAcked = acked;
    }

    private long scheduledNs(final long index)
    {
        return startNs + index * NS_PER_S / settings.rate;
    }

    private long scheduledCount(final long nowNs)
    {
        final long elapsedNs = nowNs - startNs;
        return elapsedNs < 0 ? 0 : elapsedNs * settings.rate / NS_PER_S + 1;
    }

    private static long clamp(final long valueNs)
    {
        return Math.max(0, Math.min(valueNs, HIGHEST_TRACKABLE_NS));
    }

    private Totals totals(final boolean wasReady)
    {
        return new Totals(wasReady, total, created, submitted, acked, duplicates, unreplicated, rejected,
            rejectsByReason.clone(), client.inFlight(), windowFullStalls, outcomes.doubleOutcomes(),
            createToEnd.copy(), sendToEnd.copy());
    }

    /**
     * What a run is asked to do.
     */
    public static final class Settings
    {
        private long rate;
        private long durationSeconds;
        private long firstOrderId = 1;
        private long warmupSeconds;
        private long drainTimeoutSeconds = 30;
        private long readyTimeoutSeconds = 30;

        /**
         * @param rate orders per second.
         * @return this.
         */
        public Settings rate(final long rate)
        {
            this.rate = rate;
            return this;
        }

        /**
         * @param seconds how long orders are created.
         * @return this.
         */
        public Settings durationSeconds(final long seconds)
        {
            this.durationSeconds = seconds;
            return this;
        }

        /**
         * @param orderId the first order's id; the others follow.
         * @return this.
         */
        public Settings firstOrderId(final long orderId)
        {
            this.firstOrderId = orderId;
            return this;
        }

        /**
         * @param seconds orders created in this first stretch are left out of the latency totals.
         * @return this.
         */
        public Settings warmupSeconds(final long seconds)
        {
            this.warmupSeconds = seconds;
            return this;
        }

        /**
         * @param seconds how long to wait for the last answers after creation ends.
         * @return this.
         */
        public Settings drainTimeoutSeconds(final long seconds)
        {
            this.drainTimeoutSeconds = seconds;
            return this;
        }

        /**
         * @param seconds how long to wait for the servers' partition maps before starting.
         * @return this.
         */
        public Settings readyTimeoutSeconds(final long seconds)
        {
            this.readyTimeoutSeconds = seconds;
            return this;
        }
    }

    /**
     * The result of a run.
     */
    public static final class Totals
    {
        /** False when the servers' maps never arrived: nothing was created. */
        public final boolean wasReady;
        /** Orders planned (rate × duration). */
        public final long planned;
        /** Orders whose creation time came (all planned ones, unless stopped). */
        public final long created;
        /** Orders handed to the client. */
        public final long submitted;
        /** Orders acknowledged. */
        public final long acked;
        /** Acks flagged duplicate (the order was stored before a resend). */
        public final long duplicates;
        /** Acks of orders stored on the primary alone. */
        public final long unreplicated;
        /** Orders finally rejected. */
        public final long rejected;
        /** Final rejects by {@code RejectReason.ordinal()}. */
        public final long[] rejectsByReason;
        /** Orders still in flight at the end. */
        public final long inFlight;
        /** Episodes of a full window while orders were due. */
        public final long windowFullStalls;
        /** Second outcomes for one order (must be 0). */
        public final long doubleOutcomes;
        /** Create-to-end latencies after warm-up, nanoseconds. */
        public final Histogram createToEnd;
        /** Send-to-end latencies after warm-up, nanoseconds. */
        public final Histogram sendToEnd;

        @SuppressWarnings("checkstyle:ParameterNumber") // a value object: one argument per field
        Totals(
            final boolean wasReady,
            final long planned,
            final long created,
            final long submitted,
            final long acked,
            final long duplicates,
            final long unreplicated,
            final long rejected,
            final long[] rejectsByReason,
            final long inFlight,
            final long windowFullStalls,
            final long doubleOutcomes,
            final Histogram createToEnd,
            final Histogram sendToEnd)
        {
            this.wasReady = wasReady;
            this.planned = planned;
            this.created = created;
            this.submitted = submitted;
            this.acked = acked;
            this.duplicates = duplicates;
            this.unreplicated = unreplicated;
            this.rejected = rejected;
            this.rejectsByReason = rejectsByReason;
            this.inFlight = inFlight;
            this.windowFullStalls = windowFullStalls;
            this.doubleOutcomes = doubleOutcomes;
            this.createToEnd = createToEnd;
            this.sendToEnd = sendToEnd;
        }

        /**
         * @return true when every created order was acknowledged or finally rejected, each exactly once.
         */
        public boolean isComplete()
        {
            return wasReady && created > 0 && acked + rejected == created && 0 == doubleOutcomes;
        }

        /**
         * @return created orders with no outcome (never submitted, or unanswered at the end).
         */
        public long unresolved()
        {
            return created - acked - rejected;
        }
    }
}
