package io.mdhub.orderprobe.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.client.OrderRejectedException;
import io.mdhub.common.order.client.OrderTimeoutException;
import io.mdhub.common.pause.PauseEvent;
import io.mdhub.common.pause.PauseRecorder;
import io.mdhub.orderprobe.FixNewOrderSingles;
import io.mdhub.orderprobe.OrderGenerator;
import io.mdhub.orderprobe.analysis.ProbeRun;

/**
 * One probe run: N publishing threads, each with its own session of an {@link OrderTarget} (by default its own
 * {@link OrderClient}, with its own client id), submit the orders a {@link ProbeSchedule} releases at a steady rate,
 * synchronously, and keep each order's three timestamps; the probe JVM's pauses stream from JFR meanwhile; at the end
 * the servers' pauses are read over JMX and everything is written as a {@link ProbeRun} directory. Orders of the
 * warm-up are submitted but not kept.
 */
public final class OrderProbe
{
    private static final long NS_PER_S = 1_000_000_000L;
    private static final long MAX_ORDERS = 100_000_000L;
    /**
     * The publishers' default way to wait for an order: parked until the creation thread hands one over.
     */
    public static final String HANDOFF = "handoff";
    /**
     * A handed-off publisher's longest park: the creation thread wakes it for an order, so this only bounds how long
     * its client goes unpolled (for a partition map) and how late it sees the end. Every idle publisher wakes this
     * often for nothing, on a host whose two cores the servers need.
     */
    private static final long HANDOFF_MAX_PARK_NS = 10_000_000L;
    /** The injector's longest park while it waits for a stop's time: it notices the end of the run this soon. */
    private static final long INJECTOR_PARK_NS = 10_000_000L;
    /**
     * The creation thread's default timer slack: 1 µs. With the inherited 50 µs it woke 101-106 µs after an order was
     * due on average at 2,000/s on our VMs, with 1 µs 69-77 µs (the rest is the wait for a CPU).
     */
    public static final long DEFAULT_CREATION_TIMER_SLACK_NS = 1_000L;

    private final Settings settings;
    private final NanoClock clock = SystemNanoClock.INSTANCE;
    private volatile boolean isRunOver;
    private String targetName = OrderClientTarget.NAME;

    /**
     * @param settings what to run.
     */
    public OrderProbe(final Settings settings)
    {
        settings.validate();
        this.settings = settings;
    }

    /**
     * Run to the end (or until {@code stop}), then write the run directory. The target is closed when the run ends.
     *
     * @param stop polled about every 10 ms; true ends creation early.
     * @return the run as written.
     * @throws IOException          when the run directory cannot be written.
     * @throws InterruptedException when interrupted while waiting.
     */
    public ProbeRun run(final BooleanSupplier stop) throws IOException, InterruptedException
    {
        final long total = settings.rate * (settings.warmupSeconds + settings.durationSeconds);
        final long[] sendNs = new long[(int)total];
        final long[] endNs = new long[(int)total];
        final boolean[] failed = new boolean[(int)total];
        final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<PauseEvent> injected = java.util.Collections.synchronizedList(new ArrayList<>());
        final OrderTarget target = null != settings.target ? settings.target :
            new OrderClientTarget(settings.client);
        targetName = target.name();
        try (PauseRecorder pauses = PauseRecorder.streaming("probe-" + settings.probeId);
            OrderTarget ownedTarget = target)
        {
            final Publisher[] publishers = new Publisher[settings.publishers];
            final CountDownLatch ready = new CountDownLatch(settings.publishers);
            final Thread[] threads = new Thread[settings.publishers];
            final ProbeSchedule[] schedule = new ProbeSchedule[1];
            final CountDownLatch started = new CountDownLatch(1);
            try
            {
                for (int p = 0; p < publishers.length; p++)
                {
                    publishers[p] = new Publisher(p, target, ready, started, schedule, sendNs, endNs, failed);
                    threads[p] = new Thread(publishers[p], "probe-" + settings.probeId + "-publisher-" + p);
                    threads[p].setDaemon(true);
                    threads[p].start();
                }
                if (!ready.await(settings.readyTimeoutSeconds, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("the " + target.name() + " target did not get every publisher " +
                        "ready within " + settings.readyTimeoutSeconds + " s (are the servers up?)");
                }
                for (final Publisher publisher : publishers)
                {
                    if (null != publisher.failure)
                    {
                        throw new IllegalStateException("publisher " + publisher.index + " failed to start",
                            publisher.failure);
                    }
                }
                final long anchorNano = clock.nanoTime();
                final long anchorEpochNs = epochNowNs();
                final long startNs = anchorNano + 10_000_000L;
                schedule[0] = new ProbeSchedule(startNs, settings.rate, total);
                final long measureFrom = (long)Math.ceil(settings.rate * (double)settings.warmupSeconds);
                final long measureStartEpochNs = anchorEpochNs + schedule[0].dueNs(measureFrom) - anchorNano;
                settings.windowListener.onWindow(
                    measureStartEpochNs, measureStartEpochNs + settings.durationSeconds * NS_PER_S);
                started.countDown();
                final Thread creation = new Thread(() -> schedule[0].runCreation(clock, settings.creationTimerSlackNs),
                    "probe-" + settings.probeId + "-creation");
                creation.setDaemon(true);
                creation.start();
                final long measureFromNs = startNs + settings.warmupSeconds * NS_PER_S;
                final Thread injector = startInjector(measureFromNs, injected, problems);
                while (creation.isAlive() || !allDone(threads))
                {
                    if (stop.getAsBoolean())
                    {
                        schedule[0].stop();
                    }
                    creation.join(10);
                }
                for (final Thread thread : threads)
                {
                    thread.join();
                }
                if (null != injector)
                {
                    // the run is over: an injection still waiting for its time is not made, one under way ends
                    isRunOver = true;
                    injector.join(TimeUnit.SECONDS.toMillis(settings.readyTimeoutSeconds));
                }
                return write(schedule[0], measureFrom, sendNs, endNs, failed, anchorNano, anchorEpochNs, pauses,
                    injected, problems);
            }
            finally
            {
                if (null != schedule[0])
                {
                    schedule[0].stop();
                }
                started.countDown();
                for (final Publisher publisher : publishers)
                {
                    if (null != publisher)
                    {
                        publisher.isStopping = true;
                    }
                }
                for (final Thread thread : threads)
                {
                    if (null != thread)
                    {
                        thread.join(TimeUnit.SECONDS.toMillis(settings.readyTimeoutSeconds));
                    }
                }
            }
        }
    }

    private Thread startInjector(final long measureFromNs, final List<PauseEvent> injected, final List<String> problems)
    {
        if (settings.stops.isEmpty())
        {
            return null;
        }
        final List<StopInjection> stops = new ArrayList<>(settings.stops);
        stops.sort(java.util.Comparator.comparingLong(StopInjection::atMs));
        final Thread injector = new Thread(() ->
        {
            for (final StopInjection stop : stops)
            {
                final long at = measureFromNs + TimeUnit.MILLISECONDS.toNanos(stop.atMs());
                long wait;
                while ((wait = at - clock.nanoTime()) > 0 && !isRunOver)
                {
                    java.util.concurrent.locks.LockSupport.parkNanos(Math.min(wait, INJECTOR_PARK_NS));
                }
                if (isRunOver)
                {
                    problems.add("the run ended before the stop of " + stop.process() + " at " + stop.atMs() + " ms");
                    return;
                }
                final PauseEvent pause = stop.inject();
                if (null == pause)
                {
                    problems.add("could not stop " + stop.process() + " (pid " + stop.pid() + ")");
                }
                else
                {
                    injected.add(pause);
                }
            }
        }, "probe-" + settings.probeId + "-injector");
        injector.setDaemon(true);
        injector.start();
        return injector;
    }

    private static boolean isHandOff(final String idleStrategy)
    {
        return HANDOFF.equalsIgnoreCase(idleStrategy.trim());
    }

    private static boolean allDone(final Thread[] threads)
    {
        for (final Thread thread : threads)
        {
            if (thread.isAlive())
            {
                return false;
            }
        }
        return true;
    }

    private ProbeRun write(
        final ProbeSchedule schedule,
        final long measureFrom,
        final long[] sendNs,
        final long[] endNs,
        final boolean[] failed,
        final long anchorNano,
        final long anchorEpochNs,
        final PauseRecorder probePauses,
        final List<PauseEvent> injected,
        final List<String> problems) throws IOException
    {
        final long released = schedule.released();
        int kept = 0;
        long failures = 0;
        for (long i = measureFrom; i < released; i++)
        {
            if (0 == endNs[(int)i])
            {
                continue; // released as the run was stopped, never sent
            }
            if (failed[(int)i])
            {
                failures++;
            }
            else
            {
                kept++;
            }
        }
        final long[] create = new long[kept];
        final long[] send = new long[kept];
        final long[] end = new long[kept];
        int k = 0;
        for (long i = measureFrom; i < released; i++)
        {
            if (0 != endNs[(int)i] && !failed[(int)i])
            {
                create[k] = anchorEpochNs + schedule.dueNs(i) - anchorNano;
                send[k] = anchorEpochNs + sendNs[(int)i] - anchorNano;
                end[k] = anchorEpochNs + endNs[(int)i] - anchorNano;
                k++;
            }
        }
        final List<PauseEvent> pauses = new ArrayList<>(probePauses.pauses());
        pauses.addAll(injected);
        final Set<String> seen = new HashSet<>();
        for (final PauseEvent pause : pauses)
        {
            seen.add(pause.process() + "@" + pause.startEpochNs());
        }
        for (final PauseEvent pause : ServerPauses.read(settings.serverJmx, problems))
        {
            if (seen.add(pause.process() + "@" + pause.startEpochNs()))
            {
                pauses.add(pause);
            }
        }
        final Properties properties = new Properties();
        properties.setProperty(ProbeRun.PROBE_ID, settings.probeId);
        properties.setProperty(ProbeRun.RUN_LABEL, settings.label());
        properties.setProperty(ProbeRun.CONFIGURATION, settings.configuration);
        properties.setProperty("target", targetName);
        properties.setProperty(ProbeRun.RATE, Long.toString(settings.rate));
        properties.setProperty(ProbeRun.TOTAL_RATE, Long.toString(settings.totalRate()));
        properties.setProperty(ProbeRun.MEASURE_START_EPOCH_NS,
            Long.toString(anchorEpochNs + schedule.dueNs(measureFrom) - anchorNano));
        properties.setProperty(ProbeRun.CREATION_STALLS, Long.toString(schedule.stalls()));
        properties.setProperty(ProbeRun.FAILED, Long.toString(failures));
        properties.setProperty("creation.worst.lateness.us", Long.toString(schedule.worstLatenessNs() / 1000));
        properties.setProperty("creation.mean.lateness.us", Long.toString(schedule.meanLatenessNs() / 1000));
        properties.setProperty("creation.timer.slack.ns", Long.toString(schedule.creationTimerSlackNs()));
        properties.setProperty("publishers", Integer.toString(settings.publishers));
        properties.setProperty("warmup.seconds", Long.toString(settings.warmupSeconds));
        properties.setProperty("duration.seconds", Long.toString(settings.durationSeconds));
        properties.setProperty("orders.released", Long.toString(released));
        properties.setProperty("server.jmx", String.join(",", settings.serverJmx));
        for (int i = 0; i < problems.size(); i++)
        {
            properties.setProperty("problem." + i, problems.get(i));
        }
        final ProbeRun run = new ProbeRun(properties, create, send, end, pauses);
        run.write(settings.out);
        return run;
    }

    private static long epochNowNs()
    {
        final java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * NS_PER_S + now.getNano();
    }

    /**
     * One publishing thread: connects its session, waits until the schedule starts, then claims and submits orders
     * synchronously until the schedule is done.
     */
    private final class Publisher implements Runnable
    {
        final int index;
        private final OrderTarget target;
        private final CountDownLatch ready;
        private final CountDownLatch started;
        private final ProbeSchedule[] schedule;
        private final long[] sendNs;
        private final long[] endNs;
        private final boolean[] failed;
        volatile Throwable failure;
        volatile boolean isStopping;

        Publisher(
            final int index,
            final OrderTarget target,
            final CountDownLatch ready,
            final CountDownLatch started,
            final ProbeSchedule[] schedule,
            final long[] sendNs,
            final long[] endNs,
            final boolean[] failed)
        {
            this.index = index;
            this.target = target;
            this.ready = ready;
            this.started = started;
            this.schedule = schedule;
            this.sendNs = sendNs;
            this.endNs = endNs;
            this.failed = failed;
        }

        @Override
        public void run()
        {
            OrderTarget.Session client = null;
            try
            {
                client = target.connect(index, settings.clientIdBase + index);
                final IdleStrategy idle = isHandOff(settings.idleStrategy) ? null :
                    IdleStrategies.parse(settings.idleStrategy);
                final IdleStrategy startIdle = null == idle ? IdleStrategies.parse(IdleStrategies.BACKOFF) : idle;
                final long deadline = clock.nanoTime() + settings.readyTimeoutSeconds * NS_PER_S;
                while (!client.isReady() && clock.nanoTime() < deadline && !isStopping)
                {
                    startIdle.idle(client.poll());
                }
                ready.countDown();
                while (!started.await(1, TimeUnit.MILLISECONDS))
                {
                    client.poll(); // keep an order client's conductor and maps alive while the others get ready
                }
                final ProbeSchedule schedule = this.schedule[0];
                if (null == schedule || !client.isReady())
                {
                    return;
                }
                publish(client, schedule, idle);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
                ready.countDown();
            }
            finally
            {
                CloseHelper.quietClose(client);
            }
        }

        private void publish(final OrderTarget.Session client, final ProbeSchedule schedule, final IdleStrategy idle)
        {
            final OrderGenerator generator = settings.generator;
            final UnsafeBuffer fix = new UnsafeBuffer(new byte[generator.maxLength()]);
            final ProbeSchedule.Waiter waiter = new ProbeSchedule.Waiter(Thread.currentThread());
            boolean hasJustSubmitted = false;
            while (!schedule.isDone() && !isStopping)
            {
                final long index = schedule.claim();
                if (index < 0)
                {
                    // a submit has just polled the client: its sockets are looked at again after a wait, not before
                    final int work = hasJustSubmitted ? 0 : client.poll();
                    hasJustSubmitted = false;
                    if (null == idle)
                    {
                        schedule.awaitRelease(waiter, HANDOFF_MAX_PARK_NS);
                    }
                    else
                    {
                        idle.idle(work);
                    }
                    continue;
                }
                if (null != idle)
                {
                    idle.reset();
                }
                final long orderId = settings.firstOrderId + index;
                final int length = generator.generate(orderId, System.currentTimeMillis(), fix, 0);
                final long send = clock.nanoTime();
                try
                {
                    client.submit(orderId, fix, 0, length);
                }
                catch (final OrderRejectedException | OrderTimeoutException | OrderFailedException ex)
                {
                    failed[(int)index] = true;
                }
                endNs[(int)index] = clock.nanoTime();
                sendNs[(int)index] = send;
                hasJustSubmitted = true;
            }
        }
    }

    /**
     * Told the measured window of a run once it is set, so that whoever watches the processes under test (the bench's
     * CPU accounting) can sample them at its start and end.
     */
    @FunctionalInterface
    public interface WindowListener
    {
        /**
         * @param startEpochNs when the first measured order is due, ns since the epoch.
         * @param endEpochNs   when the measured window ends (no measured order is due from then on).
         */
        void onWindow(long startEpochNs, long endEpochNs);
    }

    /**
     * What a probe runs: its identity, the rate and timing, its publishers and clients, where it writes.
     */
    public static final class Settings
    {
        String probeId = "A";
        String configuration = "two_server";
        String label;
        long rate = 1000;
        long totalRate;
        long warmupSeconds = 30;
        long durationSeconds = 60;
        int publishers = 4;
        long clientIdBase = System.currentTimeMillis() * 1000;
        long firstOrderId = 1;
        long readyTimeoutSeconds = 30;
        String idleStrategy = HANDOFF;
        long creationTimerSlackNs = DEFAULT_CREATION_TIMER_SLACK_NS;
        OrderGenerator generator = new FixNewOrderSingles(FixNewOrderSingles.DEFAULT_LENGTH);
        OrderClient.Context client = new OrderClient.Context();
        OrderTarget target;
        WindowListener windowListener = (startEpochNs, endEpochNs) -> {};
        List<String> serverJmx = List.of();
        List<StopInjection> stops = List.of();
        Path out = Path.of("probe-run");

        void validate()
        {
            if (creationTimerSlackNs < 0)
            {
                throw new IllegalArgumentException("creation timer slack must not be negative: " +
                    creationTimerSlackNs);
            }
            if (rate < 1 || durationSeconds < 1 || warmupSeconds < 0 || publishers < 1 || publishers > 64)
            {
                throw new IllegalArgumentException("rate and duration must be positive, warm-up not negative, " +
                    "1 to 64 publishers");
            }
            if (rate * (warmupSeconds + durationSeconds) > MAX_ORDERS)
            {
                throw new IllegalArgumentException("a probe run is at most " + MAX_ORDERS + " orders");
            }
            if (!isHandOff(idleStrategy))
            {
                IdleStrategies.parse(idleStrategy); // fails now, with the strategy's error, not in a publisher
            }
            for (final StopInjection stop : stops)
            {
                if (stop.atMs() < 0 || stop.stopMs() < 1 || stop.atMs() + stop.stopMs() > durationSeconds * 1000)
                {
                    throw new IllegalArgumentException("an injected stop must lie within the measured " +
                        durationSeconds + " s: " + stop);
                }
            }
            if (generator.maxLength() > client.maxOrderLength())
            {
                client.maxOrderLength(generator.maxLength());
            }
        }

        /**
         * @param probeId the probe's name (A, B, ...).
         * @return this.
         */
        public Settings probeId(final String probeId)
        {
            this.probeId = probeId;
            return this;
        }

        /**
         * @param configuration one_server, two_server, four_server, six_server (the reference's words).
         * @return this.
         */
        public Settings configuration(final String configuration)
        {
            this.configuration = configuration;
            return this;
        }

        /**
         * @param label the run this probe is part of (probes with one label are merged); default from the
         *              configuration and total rate.
         * @return this.
         */
        public Settings label(final String label)
        {
            this.label = label;
            return this;
        }

        String label()
        {
            return null != label ? label : configuration + " " + totalRate() + "/s";
        }

        /**
         * @param rate this probe's orders per second.
         * @return this.
         */
        public Settings rate(final long rate)
        {
            this.rate = rate;
            return this;
        }

        /**
         * @param totalRate orders per second of all probes of the run together (default: this probe's rate).
         * @return this.
         */
        public Settings totalRate(final long totalRate)
        {
            this.totalRate = totalRate;
            return this;
        }

        long totalRate()
        {
            return totalRate > 0 ? totalRate : rate;
        }

        /**
         * @param warmupSeconds seconds submitted but not kept (JIT warm-up; 30 s as published).
         * @return this.
         */
        public Settings warmupSeconds(final long warmupSeconds)
        {
            this.warmupSeconds = warmupSeconds;
            return this;
        }

        /**
         * @param durationSeconds seconds measured.
         * @return this.
         */
        public Settings durationSeconds(final long durationSeconds)
        {
            this.durationSeconds = durationSeconds;
            return this;
        }

        /**
         * @param publishers publishing threads (4 as published), each with its own client.
         * @return this.
         */
        public Settings publishers(final int publishers)
        {
            this.publishers = publishers;
            return this;
        }

        /**
         * @param clientIdBase publisher p's client id is this + p.
         * @return this.
         */
        public Settings clientIdBase(final long clientIdBase)
        {
            this.clientIdBase = clientIdBase;
            return this;
        }

        /**
         * @param firstOrderId order i of the run has id this + i.
         * @return this.
         */
        public Settings firstOrderId(final long firstOrderId)
        {
            this.firstOrderId = firstOrderId;
            return this;
        }

        /**
         * @param client the client settings each publisher's client is cloned from (servers, response channel;
         *               publisher p answers on its response stream id + p × 16), when no other {@link #target} is
         *               set.
         * @return this.
         */
        public Settings client(final OrderClient.Context client)
        {
            this.client = client;
            return this;
        }

        /**
         * @param target what the publishers submit to instead of the order service through {@link #client}; the run
         *               closes it when it ends. Null (the default) for the order client.
         * @return this.
         */
        public Settings target(final OrderTarget target)
        {
            this.target = target;
            return this;
        }

        /**
         * @param windowListener told when the measured window starts and ends, as soon as the publishers are ready
         *                       and the schedule is set, before the first order is due.
         * @return this.
         */
        public Settings windowListener(final WindowListener windowListener)
        {
            this.windowListener = windowListener;
            return this;
        }

        /**
         * @param idleStrategy how a publisher with no order to send waits: {@link #HANDOFF} (parked until the creation
         *                     thread hands one over; the default) or an idle strategy to poll with.
         * @return this.
         */
        public Settings idleStrategy(final String idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /**
         * @param creationTimerSlackNs the creation thread's timer slack, or 0 to keep the one it inherits (50 µs by
         *                             default on Linux), see {@link io.mdhub.common.concurrent.TimerSlack}.
         * @return this.
         */
        public Settings creationTimerSlackNs(final long creationTimerSlackNs)
        {
            this.creationTimerSlackNs = creationTimerSlackNs;
            return this;
        }

        /**
         * @param serverJmx JMX endpoints of the servers ({@code host:port}, or {@code local}) whose pauses to read.
         * @return this.
         */
        public Settings serverJmx(final List<String> serverJmx)
        {
            this.serverJmx = List.copyOf(serverJmx);
            return this;
        }

        /**
         * @param stops known pauses to inject into processes under test (SIGSTOP/SIGCONT), recorded with the run.
         * @return this.
         */
        public Settings stops(final List<StopInjection> stops)
        {
            this.stops = List.copyOf(stops);
            return this;
        }

        /**
         * @param readyTimeoutSeconds how long the publishers may take to get the servers' partition maps.
         * @return this.
         */
        public Settings readyTimeoutSeconds(final long readyTimeoutSeconds)
        {
            this.readyTimeoutSeconds = readyTimeoutSeconds;
            return this;
        }

        /**
         * @param out the run directory to write.
         * @return this.
         */
        public Settings out(final Path out)
        {
            this.out = out;
            return this;
        }
    }
}
