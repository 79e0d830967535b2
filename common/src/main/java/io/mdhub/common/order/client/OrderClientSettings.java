package io.mdhub.common.order.client;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;

import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.tls.TlsSettings;

/**
 * The settings of an {@link OrderClient}, behind its public {@link OrderClient.Context}: servers, window, timeouts,
 * TLS, idle strategy. Defaults come from {@link OrderClientConfiguration}. {@link #conclude()} validates them, takes a
 * client id if none is set and checks the idle strategy against the spin budget. A base class with the concrete type
 * as parameter keeps the fluent setters returning {@code OrderClient.Context} while the client's file holds only its
 * logic.
 *
 * @param <T> the concrete Context type.
 */
public abstract class OrderClientSettings<T extends OrderClientSettings<T>> extends BaseContext<T>
{
    private long clientId = OrderClientConfiguration.clientId();
    private List<OrderServerAddress> servers = OrderServerAddress.parseList(OrderClientConfiguration.servers());
    private int window = OrderClientConfiguration.window();
    private TlsSettings tls = OrderClientConfiguration.tlsEnabled() ?
        TlsSettings.fromConfiguration() : null;
    private int maxOrderLength = OrderClientConfiguration.maxOrderLength();
    private long ackTimeoutMs = OrderClientConfiguration.ackTimeoutMs();
    private long submitTimeoutMs = OrderClientConfiguration.submitTimeoutMs();
    private long helloIntervalMs = OrderClientConfiguration.helloIntervalMs();
    private int sendLimitBytes = OrderClientConfiguration.sendLimitBytes();
    private String idleStrategy = OrderClientConfiguration.idleStrategy();
    private int spinCores = IdleConfiguration.spinCores();
    private NanoClock nanoClock;
    private boolean isClientIdAssigned;
    private IdleStrategy concludedIdleStrategy;

    /**
     * @param tls TLS to the servers with these settings; null for plain TCP (the default unless
     *            {@code mdhub.order.client.tls.enabled} is set).
     * @return this.
     */
    public T tls(final TlsSettings tls)
    {
        checkNotConcluded();
        this.tls = tls;
        return self();
    }

    /**
     * @return the TLS settings, or null for plain TCP.
     */
    public TlsSettings tls()
    {
        return tls;
    }

    @Override
    protected void concludeContext()
    {
        if (null == servers || servers.isEmpty() || 0 != servers.size() % OrderRouting.SERVERS_PER_PAIR)
        {
            throw new IllegalArgumentException(OrderClientConfiguration.SERVERS_PROP_NAME +
                " must list the servers of one or more pairs (2 per pair): " + servers);
        }
        servers = List.copyOf(servers);
        requireRange(OrderClientConfiguration.WINDOW_PROP_NAME, window, 1, OrderClientConfiguration.WINDOW_MAX);
        requireRange(OrderClientConfiguration.MAX_ORDER_LENGTH_PROP_NAME, maxOrderLength, 1,
            OrderClientConfiguration.MAX_ORDER_LENGTH_MAX);
        requirePositive(OrderClientConfiguration.ACK_TIMEOUT_MS_PROP_NAME, ackTimeoutMs);
        requirePositive(OrderClientConfiguration.SUBMIT_TIMEOUT_MS_PROP_NAME, submitTimeoutMs);
        requirePositive(OrderClientConfiguration.HELLO_INTERVAL_MS_PROP_NAME, helloIntervalMs);
        requireRange(OrderClientConfiguration.SEND_LIMIT_BYTES_PROP_NAME, sendLimitBytes, 64 * 1024,
            Integer.MAX_VALUE);
        if (Long.MIN_VALUE == clientId)
        {
            throw new IllegalArgumentException(OrderClientConfiguration.CLIENT_ID_PROP_NAME +
                " must not be the protocol's null value " + Long.MIN_VALUE);
        }
        if (0 == clientId)
        {
            clientId = new SystemEpochNanoClock().nanoTime();
            isClientIdAssigned = true;
        }
        try
        {
            concludedIdleStrategy = IdleStrategies.parse(idleStrategy);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(
                OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME + ": " + ex.getMessage(), ex);
        }
        new SpinBudget("order-client", spinCores)
            .add(OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME, concludedIdleStrategy)
            .check();
        if (null == nanoClock)
        {
            nanoClock = SystemNanoClock.INSTANCE;
        }
    }

    /**
     * Nothing to release: the client owns its sockets.
     */
    @Override
    public void close()
    {
    }

    /**
     * @return a copy with the same settings, not concluded (it takes its own client id if this one was assigned
     * at conclude).
     */
    @Override
    public T clone()
    {
        final T copy = super.clone();
        final OrderClientSettings<T> settingsCopy = copy;
        settingsCopy.concludedIdleStrategy = null;
        if (isClientIdAssigned)
        {
            settingsCopy.clientId = 0;
            settingsCopy.isClientIdAssigned = false;
        }
        return copy;
    }

    /**
     * @return the idle strategy built by conclude.
     */
    public IdleStrategy concludedIdleStrategy()
    {
        return concludedIdleStrategy;
    }

    /**
     * @param clientId this client's id; 0 for a new one per run (wall-clock nanoseconds at conclude).
     * @return this.
     */
    public T clientId(final long clientId)
    {
        checkNotConcluded();
        this.clientId = clientId;
        return self();
    }

    /**
     * @return this client's id (after conclude, never 0).
     */
    public long clientId()
    {
        return clientId;
    }

    /**
     * @param sendLimitBytes the most bytes of orders that may wait to be written to one server.
     * @return this.
     */
    public T sendLimitBytes(final int sendLimitBytes)
    {
        checkNotConcluded();
        this.sendLimitBytes = sendLimitBytes;
        return self();
    }

    /**
     * @return the most bytes of orders that may wait to be written to one server.
     */
    public int sendLimitBytes()
    {
        return sendLimitBytes;
    }

    /**
     * @param servers the servers' order addresses; entries 2i and 2i+1 are pair i, in server-id order.
     * @return this.
     */
    public T servers(final List<OrderServerAddress> servers)
    {
        checkNotConcluded();
        this.servers = new ArrayList<>(servers);
        return self();
    }

    /**
     * @param servers the servers as {@code host:port,...} (see {@link OrderClientConfiguration}).
     * @return this.
     */
    public T servers(final String servers)
    {
        return servers(OrderServerAddress.parseList(servers));
    }

    /**
     * @return the servers' ingress streams.
     */
    public List<OrderServerAddress> servers()
    {
        return servers;
    }

    /**
     * @param window most orders in flight.
     * @return this.
     */
    public T window(final int window)
    {
        checkNotConcluded();
        this.window = window;
        return self();
    }

    /**
     * @return most orders in flight.
     */
    public int window()
    {
        return window;
    }

    /**
     * @param maxOrderLength longest FIX message in bytes.
     * @return this.
     */
    public T maxOrderLength(final int maxOrderLength)
    {
        checkNotConcluded();
        this.maxOrderLength = maxOrderLength;
        return self();
    }

    /**
     * @return longest FIX message in bytes.
     */
    public int maxOrderLength()
    {
        return maxOrderLength;
    }

    /**
     * @param ackTimeoutMs milliseconds before an unanswered order is sent again.
     * @return this.
     */
    public T ackTimeoutMs(final long ackTimeoutMs)
    {
        checkNotConcluded();
        this.ackTimeoutMs = ackTimeoutMs;
        return self();
    }

    /**
     * @return milliseconds before an unanswered order is sent again.
     */
    public long ackTimeoutMs()
    {
        return ackTimeoutMs;
    }

    /**
     * @param submitTimeoutMs milliseconds a synchronous submit waits in all.
     * @return this.
     */
    public T submitTimeoutMs(final long submitTimeoutMs)
    {
        checkNotConcluded();
        this.submitTimeoutMs = submitTimeoutMs;
        return self();
    }

    /**
     * @return milliseconds a synchronous submit waits in all.
     */
    public long submitTimeoutMs()
    {
        return submitTimeoutMs;
    }

    /**
     * @param helloIntervalMs milliseconds between hellos to a server whose map has not arrived.
     * @return this.
     */
    public T helloIntervalMs(final long helloIntervalMs)
    {
        checkNotConcluded();
        this.helloIntervalMs = helloIntervalMs;
        return self();
    }

    /**
     * @return milliseconds between hellos to a server whose map has not arrived.
     */
    public long helloIntervalMs()
    {
        return helloIntervalMs;
    }

    /**
     * @param spec idle strategy of a synchronous submit (see {@link IdleStrategies}).
     * @return this.
     */
    public T idleStrategy(final String spec)
    {
        checkNotConcluded();
        this.idleStrategy = spec;
        return self();
    }

    /**
     * @return idle strategy of a synchronous submit.
     */
    public String idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * @param cores cores reserved for busy-spinning threads (the synchronous submit's wait counts as one).
     * @return this.
     */
    public T spinCores(final int cores)
    {
        checkNotConcluded();
        this.spinCores = cores;
        return self();
    }

    /**
     * @return cores reserved for busy-spinning threads.
     */
    public int spinCores()
    {
        return spinCores;
    }

    /**
     * @param nanoClock clock for timeouts and send timestamps (default: System.nanoTime).
     * @return this.
     */
    public T nanoClock(final NanoClock nanoClock)
    {
        checkNotConcluded();
        this.nanoClock = nanoClock;
        return self();
    }

    /**
     * @return clock for timeouts and send timestamps.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * The settings as {@code key=value} lines.
     *
     * @return the settings.
     */
    @Override
    public String toString()
    {
        final StringBuilder out = new StringBuilder(1024);
        line(out, OrderClientConfiguration.CLIENT_ID_PROP_NAME, clientId);
        line(out, OrderClientConfiguration.SERVERS_PROP_NAME, servers);
        line(out, OrderClientConfiguration.WINDOW_PROP_NAME, window);
        line(out, OrderClientConfiguration.MAX_ORDER_LENGTH_PROP_NAME, maxOrderLength);
        line(out, OrderClientConfiguration.ACK_TIMEOUT_MS_PROP_NAME, ackTimeoutMs);
        line(out, OrderClientConfiguration.SUBMIT_TIMEOUT_MS_PROP_NAME, submitTimeoutMs);
        line(out, OrderClientConfiguration.HELLO_INTERVAL_MS_PROP_NAME, helloIntervalMs);
        line(out, OrderClientConfiguration.SEND_LIMIT_BYTES_PROP_NAME, sendLimitBytes);
        line(out, OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME, idleStrategy);
        line(out, IdleConfiguration.SPIN_CORES_PROP_NAME, spinCores);
        return out.toString();
    }

    private static void line(final StringBuilder out, final String key, final Object value)
    {
        out.append(key).append('=').append(value).append(System.lineSeparator());
    }
}
