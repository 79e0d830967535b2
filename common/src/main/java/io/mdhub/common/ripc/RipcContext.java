package io.mdhub.common.ripc;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.config.BaseContext;
import io.mdhub.common.status.InMemoryCounters;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutor;
import org.agrona.concurrent.status.CountersManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings shared by {@link RipcServer.Context} and {@link RipcClient.Context}: timeouts, reassembly cap, event
 * loops, counters, the application hook. Defaults come from {@link RipcConfiguration}. {@link #conclude()} creates
 * what was not supplied (an in-memory {@link CountersManager}, an event-loop group) and {@link #close()} releases
 * exactly what it created.
 *
 * @param <T> the concrete Context type.
 */
public abstract class RipcContext<T extends RipcContext<T>> extends BaseContext<T>
{
    /**
     * Counters the default in-memory CountersManager has room for (a RIPC component allocates about 30).
     */
    public static final int DEFAULT_COUNTERS_CAPACITY = 64;

    /**
     * How the names of the event-loop threads a context creates begin (then the component name): what operators
     * and the latency benchmark look for to place and prioritise them.
     */
    public static final String EVENT_LOOP_THREAD_PREFIX = "ripc-";

    /**
     * Longest time {@link #close()} waits for the component's channels to be torn down before freeing counters.
     */
    public static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    private static final int MAX_COMPONENT_NAME_LENGTH = 200;
    private static final Logger LOG = LoggerFactory.getLogger(RipcContext.class);

    private String componentName = RipcConfiguration.componentName();
    private long handshakeTimeoutNs = RipcConfiguration.handshakeTimeoutNs();
    private long partialFrameTimeoutNs = RipcConfiguration.partialFrameTimeoutNs();
    private int maxReassembledMessageSize = RipcConfiguration.maxReassembledMessageSize();
    private int maxReassemblyBytes = RipcConfiguration.maxReassemblyBytes();
    private int eventLoopThreads = RipcConfiguration.eventLoopThreads();
    private boolean useEpoll = RipcConfiguration.epoll();
    private boolean packOutbound = RipcConfiguration.packOutbound();
    private RipcChannelHook channelHook;
    private SslContext sslContext;
    private CountersManager countersManager;
    private EventLoopGroup eventLoopGroup;

    private InMemoryCounters ownCounters;
    private boolean ownsEventLoopGroup;
    private RipcCounters counters;
    private RipcChannelSettings channelSettings;

    @Override
    protected void concludeContext()
    {
        requireRange("componentName length", componentName.getBytes(StandardCharsets.US_ASCII).length, 0,
            MAX_COMPONENT_NAME_LENGTH);
        requirePositive(RipcConfiguration.HANDSHAKE_TIMEOUT_PROP_NAME, handshakeTimeoutNs);
        requirePositive(RipcConfiguration.PARTIAL_FRAME_TIMEOUT_PROP_NAME, partialFrameTimeoutNs);
        requirePositive(RipcConfiguration.MAX_REASSEMBLED_MSG_SIZE_PROP_NAME, maxReassembledMessageSize);
        // one message of the largest accepted size must fit the per-connection budget
        requireRange(RipcConfiguration.MAX_REASSEMBLY_BYTES_PROP_NAME, maxReassemblyBytes, maxReassembledMessageSize,
            Integer.MAX_VALUE);
        requireRange(RipcConfiguration.EVENT_LOOP_THREADS_PROP_NAME, eventLoopThreads, 1,
            RipcConfiguration.EVENT_LOOP_THREADS_MAX);

        if (null == sslContext)
        {
            sslContext = defaultSslContext();
        }

        if (null == countersManager)
        {
            // left to the GC on close (never freed explicitly): a metrics bridge may still read them
            ownCounters = new InMemoryCounters(DEFAULT_COUNTERS_CAPACITY);
            countersManager = ownCounters.manager();
        }
        counters = new RipcCounters(countersManager, componentName);
        channelSettings = new RipcChannelSettings(componentName, counters, handshakeTimeoutNs, partialFrameTimeoutNs,
            maxReassembledMessageSize, maxReassemblyBytes, packOutbound);

        if (null == eventLoopGroup)
        {
            ownsEventLoopGroup = true;
            eventLoopGroup = RipcTransport.newEventLoopGroup(
                eventLoopThreads, useEpoll, EVENT_LOOP_THREAD_PREFIX + componentName);
        }
    }

    /**
     * @return the TLS context conclude uses when none was supplied: null (plain TCP) unless a subclass's
     * configuration asks for TLS.
     */
    protected SslContext defaultSslContext()
    {
        return null;
    }

    /**
     * Shut down what conclude created: the event-loop group (waiting for it), then free the counters once every
     * channel of this component is torn down (bounded by {@link #CLOSE_TIMEOUT_NS}; when channels are still live,
     * e.g. on a caller-supplied group that is not shut down, the counter ids stay allocated rather than being reused
     * under a handler that still updates them). The counters' memory is never freed here: an in-memory
     * CountersManager's buffers are left to the GC, so a metrics bridge or a late handler reading them after close
     * reads valid memory.
     */
    @Override
    public void close()
    {
        if (ownsEventLoopGroup && null != eventLoopGroup)
        {
            eventLoopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            eventLoopGroup = null;
            ownsEventLoopGroup = false;
        }
        if (null != counters)
        {
            final RipcChannelTracker tracker = channelSettings.channelTracker();
            if (tracker.awaitNoLiveChannels(isInEventLoop() ? 0 : CLOSE_TIMEOUT_NS))
            {
                counters.close();
            }
            else
            {
                LOG.warn("{}: {} channel(s) still live at close, counters left allocated", componentName,
                    tracker.liveChannels());
            }
            counters = null;
        }
        if (null != ownCounters)
        {
            countersManager = null;
            ownCounters = null;
        }
    }

    private boolean isInEventLoop()
    {
        if (null != eventLoopGroup)
        {
            for (final EventExecutor executor : eventLoopGroup)
            {
                if (executor.inEventLoop())
                {
                    return true; // waiting here would block the very loop that tears the channels down
                }
            }
        }
        return false;
    }

    /**
     * A copy with the same settings that owns nothing: resources conclude created stay with this Context.
     *
     * @return the copy, not concluded.
     */
    @Override
    public T clone()
    {
        final T copy = super.clone();
        final RipcContext<T> ripcCopy = copy;
        if (null != ownCounters)
        {
            ripcCopy.countersManager = null;
        }
        if (ownsEventLoopGroup)
        {
            ripcCopy.eventLoopGroup = null;
        }
        ripcCopy.ownCounters = null;
        ripcCopy.ownsEventLoopGroup = false;
        ripcCopy.counters = null;
        ripcCopy.channelSettings = null;
        return copy;
    }

    /**
     * @param componentName name sent in the handshake and used in logs and counter labels (ASCII, at most 200).
     * @return this.
     */
    public T componentName(final String componentName)
    {
        checkNotConcluded();
        this.componentName = componentName;
        return self();
    }

    /**
     * @return the component name.
     */
    public String componentName()
    {
        return componentName;
    }

    /**
     * @param handshakeTimeoutNs longest time from TCP connect to a completed handshake.
     * @return this.
     */
    public T handshakeTimeoutNs(final long handshakeTimeoutNs)
    {
        checkNotConcluded();
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        return self();
    }

    /**
     * @return the handshake timeout in nanoseconds.
     */
    public long handshakeTimeoutNs()
    {
        return handshakeTimeoutNs;
    }

    /**
     * @param partialFrameTimeoutNs longest time one frame may stay incomplete.
     * @return this.
     */
    public T partialFrameTimeoutNs(final long partialFrameTimeoutNs)
    {
        checkNotConcluded();
        this.partialFrameTimeoutNs = partialFrameTimeoutNs;
        return self();
    }

    /**
     * @return the partial-frame timeout in nanoseconds.
     */
    public long partialFrameTimeoutNs()
    {
        return partialFrameTimeoutNs;
    }

    /**
     * @param maxReassembledMessageSize largest fragmented message accepted, in bytes.
     * @return this.
     */
    public T maxReassembledMessageSize(final int maxReassembledMessageSize)
    {
        checkNotConcluded();
        this.maxReassembledMessageSize = maxReassembledMessageSize;
        return self();
    }

    /**
     * @return the reassembly cap in bytes.
     */
    public int maxReassembledMessageSize()
    {
        return maxReassembledMessageSize;
    }

    /**
     * @param maxReassemblyBytes most bytes one connection may hold in reassembly buffers at once (at least
     *                           maxReassembledMessageSize).
     * @return this.
     */
    public T maxReassemblyBytes(final int maxReassemblyBytes)
    {
        checkNotConcluded();
        this.maxReassemblyBytes = maxReassemblyBytes;
        return self();
    }

    /**
     * @return the per-connection reassembly budget in bytes.
     */
    public int maxReassemblyBytes()
    {
        return maxReassemblyBytes;
    }

    /**
     * @param eventLoopThreads threads of the event-loop group conclude creates (ignored when a group is supplied).
     * @return this.
     */
    public T eventLoopThreads(final int eventLoopThreads)
    {
        checkNotConcluded();
        this.eventLoopThreads = eventLoopThreads;
        return self();
    }

    /**
     * @return event-loop threads.
     */
    public int eventLoopThreads()
    {
        return eventLoopThreads;
    }

    /**
     * @param useEpoll use native epoll when available (ignored when a group is supplied).
     * @return this.
     */
    public T useEpoll(final boolean useEpoll)
    {
        checkNotConcluded();
        this.useEpoll = useEpoll;
        return self();
    }

    /**
     * @return true to use epoll when available.
     */
    public boolean useEpoll()
    {
        return useEpoll;
    }

    /**
     * @param packOutbound pack the messages written between two flushes.
     * @return this.
     */
    public T packOutbound(final boolean packOutbound)
    {
        checkNotConcluded();
        this.packOutbound = packOutbound;
        return self();
    }

    /**
     * @return true when outbound messages are packed.
     */
    public boolean packOutbound()
    {
        return packOutbound;
    }

    /**
     * @param channelHook adds the application handlers to each connection's pipeline.
     * @return this.
     */
    public T channelHook(final RipcChannelHook channelHook)
    {
        checkNotConcluded();
        this.channelHook = channelHook;
        return self();
    }

    /**
     * @return the application hook, or null.
     */
    public RipcChannelHook channelHook()
    {
        return channelHook;
    }

    /**
     * @param sslContext TLS on every connection of this component (a server context for a server, a client context
     *                   for a client; see {@code TlsSettings}); null for plain TCP.
     * @return this.
     */
    public T sslContext(final SslContext sslContext)
    {
        checkNotConcluded();
        this.sslContext = sslContext;
        return self();
    }

    /**
     * @return the TLS context, or null for plain TCP.
     */
    public SslContext sslContext()
    {
        return sslContext;
    }

    /**
     * @param countersManager where the counters are allocated; when null, conclude creates an in-memory one.
     * @return this.
     */
    public T countersManager(final CountersManager countersManager)
    {
        checkNotConcluded();
        this.countersManager = countersManager;
        return self();
    }

    /**
     * @return the CountersManager (after conclude, the one in use).
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }

    /**
     * @param eventLoopGroup event loops to use (not closed by this Context); when null, conclude creates one.
     * @return this.
     */
    public T eventLoopGroup(final EventLoopGroup eventLoopGroup)
    {
        checkNotConcluded();
        this.eventLoopGroup = eventLoopGroup;
        return self();
    }

    /**
     * @return the event-loop group (after conclude, the one in use).
     */
    public EventLoopGroup eventLoopGroup()
    {
        return eventLoopGroup;
    }

    /**
     * @return the counters, after conclude.
     */
    public RipcCounters counters()
    {
        return counters;
    }

    /**
     * @return the concluded handler settings.
     */
    public RipcChannelSettings channelSettings()
    {
        return channelSettings;
    }
}
