package io.mdhub.common.test.ema;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.refinitiv.ema.access.AckMsg;
import com.refinitiv.ema.access.ElementList;
import com.refinitiv.ema.access.EmaFactory;
import com.refinitiv.ema.access.GenericMsg;
import com.refinitiv.ema.access.MapEntry;
import com.refinitiv.ema.access.Msg;
import com.refinitiv.ema.access.OmmConsumer;
import com.refinitiv.ema.access.OmmConsumerClient;
import com.refinitiv.ema.access.OmmConsumerConfig;
import com.refinitiv.ema.access.OmmConsumerEvent;
import com.refinitiv.ema.access.OmmException;
import com.refinitiv.ema.access.PostMsg;
import com.refinitiv.ema.access.RefreshMsg;
import com.refinitiv.ema.access.ReqMsg;
import com.refinitiv.ema.access.StatusMsg;
import com.refinitiv.ema.access.UpdateMsg;

/**
 * A real EMA 3.9.1.0 consumer for tests: an {@link OmmConsumer} configured programmatically with one RSSL_SOCKET
 * channel to the server under test and EMA's defaults for everything else, as an unchanged LSEG application would run:
 * its own login (the user name given, the rest EMA's defaults), its source directory request, its data dictionary
 * downloaded from the server ({@code ChannelDictionary}), its watchlist (which recovers items, fans out batch
 * requests and aggregates views), and its own API dispatch thread. The only settings changed from EMA's defaults are
 * the host and port and the login, directory and dictionary timeouts of the initialisation, shortened so that a
 * server EMA cannot work with fails a test quickly with EMA's own error text.
 * <p>
 * Every message EMA delivers to this class's {@link OmmConsumerClient} is copied into an {@link EmaMessage} and queued
 * by the item handle EMA delivers it on ({@code OmmConsumerEvent.handle()}): refreshes, updates, statuses and generic
 * messages in one queue per handle, acks in another, so tests read each item's messages in order with
 * {@link #awaitRefresh(long)}, {@link #awaitUpdate(long)}, {@link #pollNone(long, Duration)} and
 * {@link #awaitAck(long)}. Every wait ends after {@link #timeout()} or at the test's {@code @InterruptAfter}
 * deadline, whichever comes first; {@link #close()} uninitialises EMA within a bounded time.
 */
public final class EmaTestConsumer implements AutoCloseable
{
    /** How long a wait lasts unless the test's deadline comes first. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** Login, directory and dictionary timeouts of EMA's initialisation (EMA's default is 45 s each). */
    public static final int INIT_TIMEOUT_MS = 10_000;

    private static final String CONSUMER_NAME = "MDHubTestConsumer";
    private static final String CHANNEL_NAME = "MDHubTestConsumerChannel";
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long UNINITIALIZE_TIMEOUT_MS = 10_000;

    private final Map<Long, BlockingQueue<EmaMessage>> messages = new ConcurrentHashMap<>();
    private final Map<Long, BlockingQueue<EmaMessage>> acks = new ConcurrentHashMap<>();
    private final Map<String, Long> handlesByName = new ConcurrentHashMap<>();
    private final List<Throwable> callbackFailures = new CopyOnWriteArrayList<>();
    private final Collector collector = new Collector();
    private final OmmConsumer consumer;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Runnable whileWaiting = () -> {};
    private boolean closed;

    private EmaTestConsumer(final OmmConsumerConfig config)
    {
        try
        {
            consumer = EmaFactory.createOmmConsumer(config);
        }
        catch (final OmmException ex)
        {
            throw new AssertionError("EMA could not initialise its OmmConsumer: " + ex.exceptionTypeAsString() +
                ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Connect to a server on 127.0.0.1 as user "mdhub-ema-consumer" and wait (in EMA) for the login, the source
     * directory and the dictionary download.
     *
     * @param port the server's port.
     * @return the initialised consumer.
     */
    public static EmaTestConsumer connect(final int port)
    {
        return connect("127.0.0.1", port, "mdhub-ema-consumer");
    }

    /**
     * Connect and wait (in EMA) for the login, the source directory and the dictionary download.
     *
     * @param host the server's address.
     * @param port the server's port.
     * @param user the login user name.
     * @return the initialised consumer.
     */
    public static EmaTestConsumer connect(final String host, final int port, final String user)
    {
        return new EmaTestConsumer(EmaFactory.createOmmConsumerConfig()
            .config(programmaticConfig(host, port))
            .username(user));
    }

    /**
     * EMA's programmatic configuration of one consumer with one RSSL_SOCKET channel: the same as a default
     * EmaConfig.xml entry except for the host, the port and the initialisation timeouts.
     *
     * @param host the server's address.
     * @param port the server's port.
     * @return the configuration for {@code OmmConsumerConfig.config(Data)}.
     */
    public static com.refinitiv.ema.access.Map programmaticConfig(final String host, final int port)
    {
        final ElementList consumerSettings = EmaFactory.createElementList();
        consumerSettings.add(EmaFactory.createElementEntry().ascii("Channel", CHANNEL_NAME));
        consumerSettings.add(EmaFactory.createElementEntry().intValue("LoginRequestTimeOut", INIT_TIMEOUT_MS));
        consumerSettings.add(EmaFactory.createElementEntry().intValue("DirectoryRequestTimeOut", INIT_TIMEOUT_MS));
        consumerSettings.add(EmaFactory.createElementEntry().intValue("DictionaryRequestTimeOut", INIT_TIMEOUT_MS));
        final com.refinitiv.ema.access.Map consumers = EmaFactory.createMap();
        consumers.add(EmaFactory.createMapEntry().keyAscii(CONSUMER_NAME, MapEntry.MapAction.ADD, consumerSettings));
        final ElementList consumerGroup = EmaFactory.createElementList();
        consumerGroup.add(EmaFactory.createElementEntry().ascii("DefaultConsumer", CONSUMER_NAME));
        consumerGroup.add(EmaFactory.createElementEntry().map("ConsumerList", consumers));

        final com.refinitiv.ema.access.Map config = EmaFactory.createMap();
        config.add(EmaFactory.createMapEntry().keyAscii("ConsumerGroup", MapEntry.MapAction.ADD, consumerGroup));
        config.add(EmaFactory.createMapEntry().keyAscii("ChannelGroup", MapEntry.MapAction.ADD,
            EmaConfigs.socketChannelGroup(CHANNEL_NAME, host, port)));
        return config;
    }

    /**
     * @return EMA's consumer, for calls this class does not wrap.
     */
    public OmmConsumer ema()
    {
        return consumer;
    }

    /**
     * @param timeout how long each wait lasts from now on.
     * @return this.
     */
    public EmaTestConsumer timeout(final Duration timeout)
    {
        this.timeout = timeout;
        return this;
    }

    /**
     * @return how long each wait lasts.
     */
    public Duration timeout()
    {
        return timeout;
    }

    /**
     * @param action run on the test thread between polls while waiting (to service an ETA channel, say).
     * @return this.
     */
    public EmaTestConsumer whileWaiting(final Runnable action)
    {
        this.whileWaiting = action;
        return this;
    }

    /**
     * Open an item (or a batch of items) with this class as its client.
     *
     * @param request EMA's request, e.g. {@code EmaFactory.createReqMsg().serviceName("S").name("RIC")}.
     * @return the handle EMA returned (for a batch: the batch's handle; each item arrives on its own handle, see
     * {@link #awaitHandle(String)}).
     */
    public long registerClient(final ReqMsg request)
    {
        return consumer.registerClient(request, collector);
    }

    /**
     * Change an open item's request (priority, pause/resume, view...).
     *
     * @param request the changed request.
     * @param handle  the item.
     */
    public void reissue(final ReqMsg request, final long handle)
    {
        consumer.reissue(request, handle);
    }

    /**
     * Close an item.
     *
     * @param handle the item.
     */
    public void unregister(final long handle)
    {
        consumer.unregister(handle);
    }

    /**
     * Post on an open item's stream (on-stream post) or, with the login handle, off-stream.
     *
     * @param post   EMA's PostMsg.
     * @param handle the item.
     */
    public void submit(final PostMsg post, final long handle)
    {
        consumer.submit(post, handle);
    }

    /**
     * The handle EMA delivers an item's messages on, once its first message arrived: for the items of a batch
     * request, whose handles only EMA's callbacks reveal.
     *
     * @param name the item's name.
     * @return the handle of the first message that carried the name.
     */
    public long awaitHandle(final String name)
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            final Long handle = handlesByName.get(name);
            if (null != handle)
            {
                return handle;
            }
            idle("a message for " + name, deadlineNs);
        }
    }

    /**
     * @param handle an item.
     * @return its next refresh, update, status or generic message (fails the test if none arrives in time).
     */
    public EmaMessage awaitMessage(final long handle)
    {
        final EmaMessage message = poll(queue(messages, handle), timeout, "a message on handle " + handle);
        if (null == message)
        {
            throw new AssertionError("no message on handle " + handle + " within " + timeout + failures());
        }
        return message;
    }

    /**
     * @param handle an item.
     * @return its next message, which must be a refresh.
     */
    public EmaMessage awaitRefresh(final long handle)
    {
        return expect(EmaMessage.Kind.REFRESH, awaitMessage(handle));
    }

    /**
     * @param handle an item.
     * @return its next message, which must be an update.
     */
    public EmaMessage awaitUpdate(final long handle)
    {
        return expect(EmaMessage.Kind.UPDATE, awaitMessage(handle));
    }

    /**
     * @param handle an item.
     * @return its next message, which must be a status.
     */
    public EmaMessage awaitStatus(final long handle)
    {
        return expect(EmaMessage.Kind.STATUS, awaitMessage(handle));
    }

    /**
     * @param handle an item.
     * @param within how long to wait.
     * @return its next message if one arrives in time, else null.
     */
    public EmaMessage poll(final long handle, final Duration within)
    {
        return poll(queue(messages, handle), within, "a message on handle " + handle);
    }

    /**
     * Fail the test if any message arrives on an item's handle within the time given.
     *
     * @param handle an item.
     * @param within how long to watch.
     */
    public void pollNone(final long handle, final Duration within)
    {
        final EmaMessage message = poll(handle, within);
        if (null != message)
        {
            throw new AssertionError("expected nothing more on handle " + handle + " but got " + message);
        }
    }

    /**
     * @param handle the item posted on.
     * @return the next ack (or NAK) EMA delivered on the handle.
     */
    public EmaMessage awaitAck(final long handle)
    {
        final EmaMessage ack = poll(queue(acks, handle), timeout, "an ack on handle " + handle);
        if (null == ack)
        {
            throw new AssertionError("no ack on handle " + handle + " within " + timeout + failures());
        }
        return ack;
    }

    /**
     * @return exceptions thrown while copying EMA's messages in its callbacks (empty when all is well).
     */
    public List<Throwable> callbackFailures()
    {
        return List.copyOf(callbackFailures);
    }

    /**
     * Uninitialise EMA (closing its items, logging out, stopping its dispatch thread), waiting at most
     * {@value #UNINITIALIZE_TIMEOUT_MS} ms.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            EmaConfigs.uninitialize("OmmConsumer", consumer::uninitialize, UNINITIALIZE_TIMEOUT_MS);
        }
    }

    private static EmaMessage expect(final EmaMessage.Kind kind, final EmaMessage message)
    {
        if (kind != message.kind())
        {
            throw new AssertionError("expected " + kind + " but got " + message);
        }
        return message;
    }

    private static BlockingQueue<EmaMessage> queue(final Map<Long, BlockingQueue<EmaMessage>> queues, final long handle)
    {
        return queues.computeIfAbsent(handle, (h) -> new LinkedBlockingQueue<>());
    }

    private EmaMessage poll(final BlockingQueue<EmaMessage> queue, final Duration within, final String what)
    {
        final long deadlineNs = System.nanoTime() + within.toNanos();
        while (true)
        {
            final EmaMessage message;
            try
            {
                message = queue.poll(Math.min(WAIT_SLICE_NS, Math.max(0, deadlineNs - System.nanoTime())),
                    TimeUnit.NANOSECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("timed out waiting for: " + what + failures(), new TimeoutException());
            }
            if (null != message || deadlineNs - System.nanoTime() <= 0)
            {
                return message;
            }
            whileWaiting.run();
        }
    }

    private void idle(final String what, final long deadlineNs)
    {
        if (Thread.interrupted() || deadlineNs - System.nanoTime() <= 0)
        {
            throw new AssertionError("timed out waiting for: " + what + failures(), new TimeoutException());
        }
        whileWaiting.run();
        try
        {
            Thread.sleep(1);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private String failures()
    {
        return callbackFailures.isEmpty() ? "" : " (failures in EMA's callbacks: " + callbackFailures + ")";
    }

    private void onMessage(final Map<Long, BlockingQueue<EmaMessage>> queues, final EmaMessage message)
    {
        if (null != message.name())
        {
            handlesByName.putIfAbsent(message.name(), message.handle());
        }
        queue(queues, message.handle()).add(message);
    }

    /**
     * EMA's callbacks, on EMA's dispatch thread: copy and queue.
     */
    private final class Collector implements OmmConsumerClient
    {
        @Override
        public void onRefreshMsg(final RefreshMsg msg, final OmmConsumerEvent event)
        {
            try
            {
                onMessage(messages, EmaMessage.of(msg, event));
            }
            catch (final RuntimeException | AssertionError ex)
            {
                callbackFailures.add(ex);
            }
        }

        @Override
        public void onUpdateMsg(final UpdateMsg msg, final OmmConsumerEvent event)
        {
            try
            {
                onMessage(messages, EmaMessage.of(msg, event));
            }
            catch (final RuntimeException | AssertionError ex)
            {
                callbackFailures.add(ex);
            }
        }

        @Override
        public void onStatusMsg(final StatusMsg msg, final OmmConsumerEvent event)
        {
            try
            {
                onMessage(messages, EmaMessage.of(msg, event));
            }
            catch (final RuntimeException | AssertionError ex)
            {
                callbackFailures.add(ex);
            }
        }

        @Override
        public void onGenericMsg(final GenericMsg msg, final OmmConsumerEvent event)
        {
            try
            {
                onMessage(messages, EmaMessage.of(msg, event));
            }
            catch (final RuntimeException | AssertionError ex)
            {
                callbackFailures.add(ex);
            }
        }

        @Override
        public void onAckMsg(final AckMsg msg, final OmmConsumerEvent event)
        {
            try
            {
                onMessage(acks, EmaMessage.of(msg, event));
            }
            catch (final RuntimeException | AssertionError ex)
            {
                callbackFailures.add(ex);
            }
        }

        @Override
        public void onAllMsg(final Msg msg, final OmmConsumerEvent event)
        {
        }
    }
}
