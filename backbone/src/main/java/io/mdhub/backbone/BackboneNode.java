package io.mdhub.backbone;

import java.io.File;
import java.util.Locale;

import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.LoggerFactory;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.LogBufferDescriptor;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.config.ComponentLaunch;

/**
 * The backbone media driver: an Aeron {@link MediaDriver} that every MDHub process on a host shares (the RMDS rrcpd
 * equivalent, run standalone by {@link BackboneMain}), or that one process embeds when it runs everything itself.
 * Closing the node stops the driver's threads and unmaps its files.
 */
public final class BackboneNode implements AutoCloseable
{
    private final Context ctx;
    private final MediaDriver mediaDriver;

    private BackboneNode(final Context ctx)
    {
        this.ctx = ctx;
        this.mediaDriver = MediaDriver.launch(ctx.mediaDriverContext());
        if (ctx.mediaDriverContext().sharedIdleStrategy() instanceof ChannelAwareIdleStrategy)
        {
            ((ChannelAwareIdleStrategy)ctx.mediaDriverContext().sharedIdleStrategy())
                .watch(mediaDriver.context().countersManager());
        }
    }

    /**
     * Launch a node with settings from system properties.
     *
     * @return the running node.
     */
    public static BackboneNode launch()
    {
        return launch(new Context());
    }

    /**
     * Conclude the context and start the media driver.
     *
     * @param ctx settings; concluded here, so not concluded before.
     * @return the running node.
     */
    public static BackboneNode launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, BackboneNode::new);
    }

    /**
     * @return the concluded settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return the Aeron directory clients connect to.
     */
    public String aeronDirectoryName()
    {
        return mediaDriver.aeronDirectoryName();
    }

    /**
     * The driver's counters (positions, back-pressure events, NAKs, errors, client counters), for a
     * {@code CountersMetricsBridge}. Valid until {@link #close()}: close any bridge over it first.
     *
     * @return the counters.
     */
    public CountersReader countersReader()
    {
        return mediaDriver.context().countersManager();
    }

    /**
     * Stop the driver and release its resources.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(mediaDriver, ctx);
    }

    /**
     * Settings of a {@link BackboneNode}; defaults come from {@link BackboneConfiguration}. Conclude validates them,
     * checks the spin budget and maps them onto a {@link MediaDriver.Context}.
     */
    public static final class Context extends BaseContext<Context>
    {
        private String aeronDirectoryName = BackboneConfiguration.aeronDirectoryName();
        private String threadingMode = BackboneConfiguration.threadingMode();
        private String idleStrategy = BackboneConfiguration.idleStrategy();
        private String conductorIdleStrategy = BackboneConfiguration.conductorIdleStrategy();
        private String senderIdleStrategy = BackboneConfiguration.senderIdleStrategy();
        private String receiverIdleStrategy = BackboneConfiguration.receiverIdleStrategy();
        private String sharedNetworkIdleStrategy = BackboneConfiguration.sharedNetworkIdleStrategy();
        private int termBufferLength = BackboneConfiguration.termBufferLength();
        private int ipcTermBufferLength = BackboneConfiguration.ipcTermBufferLength();
        private boolean termBufferSparseFile = BackboneConfiguration.termBufferSparseFile();
        private boolean dirDeleteOnStart = BackboneConfiguration.dirDeleteOnStart();
        private boolean dirDeleteOnShutdown = BackboneConfiguration.dirDeleteOnShutdown();
        private long driverTimeoutMs = BackboneConfiguration.driverTimeoutMs();
        private boolean printConfiguration = BackboneConfiguration.printConfiguration();
        private int spinCores = IdleConfiguration.spinCores();

        private ThreadingMode concludedThreadingMode;
        private MediaDriver.Context mediaDriverContext;

        @Override
        protected void concludeContext()
        {
            if (null == aeronDirectoryName || aeronDirectoryName.isBlank())
            {
                throw new IllegalArgumentException(BackboneConfiguration.AERON_DIR_PROP_NAME + " must not be empty");
            }
            concludedThreadingMode = parseThreadingMode(threadingMode);
            requireTermLength(BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME, termBufferLength);
            requireTermLength(BackboneConfiguration.IPC_TERM_BUFFER_LENGTH_PROP_NAME, ipcTermBufferLength);
            requirePositive(BackboneConfiguration.DRIVER_TIMEOUT_MS_PROP_NAME, driverTimeoutMs);

            final MediaDriver.Context driverCtx = new MediaDriver.Context()
                .aeronDirectoryName(aeronDirectoryName)
                .threadingMode(concludedThreadingMode)
                .publicationTermBufferLength(termBufferLength)
                .ipcTermBufferLength(ipcTermBufferLength)
                .termBufferSparseFile(termBufferSparseFile)
                .dirDeleteOnStart(dirDeleteOnStart || isLeftByDeadDriver(aeronDirectoryName))
                .dirDeleteOnShutdown(dirDeleteOnShutdown)
                .driverTimeoutMs(driverTimeoutMs)
                .printConfigurationOnStart(printConfiguration);
            applyIdleStrategies(driverCtx);
            mediaDriverContext = driverCtx;
        }

        private static boolean isLeftByDeadDriver(final String directory)
        {
            final long pid;
            try
            {
                pid = DeadDriverDirectory.awaitDeadDriver(new File(directory));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
            if (pid > 0)
            {
                LoggerFactory.getLogger(BackboneNode.class).warn(
                    "the driver that left {} (pid {}) is no longer running: taking the directory over", directory, pid);
            }
            return pid > 0;
        }

        private void applyIdleStrategies(final MediaDriver.Context driverCtx)
        {
            // Only the agents that the threading mode gives a thread count against the spin budget.
            final SpinBudget budget = new SpinBudget("backbone", spinCores);
            switch (concludedThreadingMode)
            {
                case SHARED:
                    driverCtx.sharedIdleStrategy(ChannelAwareIdleStrategy.wrap(idleStrategy,
                        BackboneConfiguration.ipcOnlyMaxParkNs(),
                        idle(budget, BackboneConfiguration.IDLE_STRATEGY_PROP_NAME, idleStrategy)));
                    break;
                case SHARED_NETWORK:
                    driverCtx.conductorIdleStrategy(
                        idle(budget, BackboneConfiguration.CONDUCTOR_IDLE_STRATEGY_PROP_NAME, conductorIdleStrategy));
                    driverCtx.sharedNetworkIdleStrategy(idle(budget,
                        BackboneConfiguration.SHARED_NETWORK_IDLE_STRATEGY_PROP_NAME, sharedNetworkIdleStrategy));
                    break;
                case DEDICATED:
                    driverCtx.conductorIdleStrategy(
                        idle(budget, BackboneConfiguration.CONDUCTOR_IDLE_STRATEGY_PROP_NAME, conductorIdleStrategy));
                    driverCtx.senderIdleStrategy(
                        idle(budget, BackboneConfiguration.SENDER_IDLE_STRATEGY_PROP_NAME, senderIdleStrategy));
                    driverCtx.receiverIdleStrategy(
                        idle(budget, BackboneConfiguration.RECEIVER_IDLE_STRATEGY_PROP_NAME, receiverIdleStrategy));
                    break;
                default:
                    throw new IllegalArgumentException("unsupported threading mode " + concludedThreadingMode);
            }
            budget.check();
        }

        private static IdleStrategy idle(final SpinBudget budget, final String propertyName, final String spec)
        {
            final IdleStrategy strategy;
            try
            {
                strategy = IdleStrategies.parse(spec);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(propertyName + ": " + ex.getMessage(), ex);
            }
            budget.add(propertyName, strategy);
            return strategy;
        }

        private static ThreadingMode parseThreadingMode(final String name)
        {
            final String text = null == name ? "" : name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (final ThreadingMode mode : ThreadingMode.values())
            {
                if (mode != ThreadingMode.INVOKER && mode.name().equals(text))
                {
                    return mode;
                }
            }
            throw new IllegalArgumentException(BackboneConfiguration.THREADING_MODE_PROP_NAME +
                " must be SHARED, SHARED_NETWORK or DEDICATED: '" + name + "'");
        }

        private static void requireTermLength(final String name, final int length)
        {
            if (length < LogBufferDescriptor.TERM_MIN_LENGTH || length > LogBufferDescriptor.TERM_MAX_LENGTH ||
                !BitUtil.isPowerOfTwo(length))
            {
                throw new IllegalArgumentException(name + " must be a power of two in [" +
                    LogBufferDescriptor.TERM_MIN_LENGTH + ", " + LogBufferDescriptor.TERM_MAX_LENGTH + "]: " + length);
            }
        }

        /**
         * The Aeron driver settings built by conclude; not itself concluded (the driver does that on launch).
         *
         * @return the media driver context.
         */
        public MediaDriver.Context mediaDriverContext()
        {
            if (null == mediaDriverContext)
            {
                throw new IllegalStateException("context is not concluded");
            }
            return mediaDriverContext;
        }

        /**
         * @return the threading mode in force, once concluded.
         */
        public ThreadingMode concludedThreadingMode()
        {
            return concludedThreadingMode;
        }

        /**
         * @param aeronDirectoryName Aeron directory shared with clients.
         * @return this.
         */
        public Context aeronDirectoryName(final String aeronDirectoryName)
        {
            checkNotConcluded();
            this.aeronDirectoryName = aeronDirectoryName;
            return this;
        }

        /**
         * @return Aeron directory shared with clients.
         */
        public String aeronDirectoryName()
        {
            return aeronDirectoryName;
        }

        /**
         * @param threadingMode SHARED, SHARED_NETWORK or DEDICATED (case-insensitive).
         * @return this.
         */
        public Context threadingMode(final String threadingMode)
        {
            checkNotConcluded();
            this.threadingMode = threadingMode;
            return this;
        }

        /**
         * @param threadingMode threading mode.
         * @return this.
         */
        public Context threadingMode(final ThreadingMode threadingMode)
        {
            return threadingMode(threadingMode.name());
        }

        /**
         * @return the threading mode as configured.
         */
        public String threadingMode()
        {
            return threadingMode;
        }

        /**
         * @param spec idle strategy of the SHARED thread (see {@link IdleStrategies}).
         * @return this.
         */
        public Context idleStrategy(final String spec)
        {
            checkNotConcluded();
            this.idleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of the SHARED thread.
         */
        public String idleStrategy()
        {
            return idleStrategy;
        }

        /**
         * @param spec idle strategy of the conductor thread (SHARED_NETWORK, DEDICATED).
         * @return this.
         */
        public Context conductorIdleStrategy(final String spec)
        {
            checkNotConcluded();
            this.conductorIdleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of the conductor thread.
         */
        public String conductorIdleStrategy()
        {
            return conductorIdleStrategy;
        }

        /**
         * @param spec idle strategy of the sender thread (DEDICATED).
         * @return this.
         */
        public Context senderIdleStrategy(final String spec)
        {
            checkNotConcluded();
            this.senderIdleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of the sender thread.
         */
        public String senderIdleStrategy()
        {
            return senderIdleStrategy;
        }

        /**
         * @param spec idle strategy of the receiver thread (DEDICATED).
         * @return this.
         */
        public Context receiverIdleStrategy(final String spec)
        {
            checkNotConcluded();
            this.receiverIdleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of the receiver thread.
         */
        public String receiverIdleStrategy()
        {
            return receiverIdleStrategy;
        }

        /**
         * @param spec idle strategy of the sender/receiver thread (SHARED_NETWORK).
         * @return this.
         */
        public Context sharedNetworkIdleStrategy(final String spec)
        {
            checkNotConcluded();
            this.sharedNetworkIdleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of the sender/receiver thread.
         */
        public String sharedNetworkIdleStrategy()
        {
            return sharedNetworkIdleStrategy;
        }

        /**
         * @param length UDP publication term length in bytes.
         * @return this.
         */
        public Context termBufferLength(final int length)
        {
            checkNotConcluded();
            this.termBufferLength = length;
            return this;
        }

        /**
         * @return UDP publication term length in bytes.
         */
        public int termBufferLength()
        {
            return termBufferLength;
        }

        /**
         * @param length IPC publication term length in bytes.
         * @return this.
         */
        public Context ipcTermBufferLength(final int length)
        {
            checkNotConcluded();
            this.ipcTermBufferLength = length;
            return this;
        }

        /**
         * @return IPC publication term length in bytes.
         */
        public int ipcTermBufferLength()
        {
            return ipcTermBufferLength;
        }

        /**
         * @param sparse whether log buffers are sparse files.
         * @return this.
         */
        public Context termBufferSparseFile(final boolean sparse)
        {
            checkNotConcluded();
            this.termBufferSparseFile = sparse;
            return this;
        }

        /**
         * @return whether log buffers are sparse files.
         */
        public boolean termBufferSparseFile()
        {
            return termBufferSparseFile;
        }

        /**
         * @param delete whether to delete the Aeron directory on start.
         * @return this.
         */
        public Context dirDeleteOnStart(final boolean delete)
        {
            checkNotConcluded();
            this.dirDeleteOnStart = delete;
            return this;
        }

        /**
         * @return whether to delete the Aeron directory on start.
         */
        public boolean dirDeleteOnStart()
        {
            return dirDeleteOnStart;
        }

        /**
         * @param delete whether to delete the Aeron directory on shutdown.
         * @return this.
         */
        public Context dirDeleteOnShutdown(final boolean delete)
        {
            checkNotConcluded();
            this.dirDeleteOnShutdown = delete;
            return this;
        }

        /**
         * @return whether to delete the Aeron directory on shutdown.
         */
        public boolean dirDeleteOnShutdown()
        {
            return dirDeleteOnShutdown;
        }

        /**
         * @param timeoutMs client/driver liveness timeout in milliseconds.
         * @return this.
         */
        public Context driverTimeoutMs(final long timeoutMs)
        {
            checkNotConcluded();
            this.driverTimeoutMs = timeoutMs;
            return this;
        }

        /**
         * @return client/driver liveness timeout in milliseconds.
         */
        public long driverTimeoutMs()
        {
            return driverTimeoutMs;
        }

        /**
         * @param print whether the driver prints its Aeron configuration on start.
         * @return this.
         */
        public Context printConfiguration(final boolean print)
        {
            checkNotConcluded();
            this.printConfiguration = print;
            return this;
        }

        /**
         * @return whether the driver prints its Aeron configuration on start.
         */
        public boolean printConfiguration()
        {
            return printConfiguration;
        }

        /**
         * @param cores cores reserved for busy-spinning driver threads.
         * @return this.
         */
        public Context spinCores(final int cores)
        {
            checkNotConcluded();
            this.spinCores = cores;
            return this;
        }

        /**
         * @return cores reserved for busy-spinning driver threads.
         */
        public int spinCores()
        {
            return spinCores;
        }

        /**
         * A copy with the same settings that owns no driver context.
         *
         * @return the copy.
         */
        @Override
        public Context clone()
        {
            final Context copy = super.clone();
            copy.concludedThreadingMode = null;
            copy.mediaDriverContext = null;
            return copy;
        }

        /**
         * The settings as {@code key=value} lines, as printed on start.
         *
         * @return the settings.
         */
        @Override
        public String toString()
        {
            final StringBuilder out = new StringBuilder(1024);
            line(out, BackboneConfiguration.AERON_DIR_PROP_NAME, aeronDirectoryName);
            line(out, BackboneConfiguration.THREADING_MODE_PROP_NAME, threadingMode);
            line(out, BackboneConfiguration.IDLE_STRATEGY_PROP_NAME, idleStrategy);
            line(out, BackboneConfiguration.CONDUCTOR_IDLE_STRATEGY_PROP_NAME, conductorIdleStrategy);
            line(out, BackboneConfiguration.SENDER_IDLE_STRATEGY_PROP_NAME, senderIdleStrategy);
            line(out, BackboneConfiguration.RECEIVER_IDLE_STRATEGY_PROP_NAME, receiverIdleStrategy);
            line(out, BackboneConfiguration.SHARED_NETWORK_IDLE_STRATEGY_PROP_NAME, sharedNetworkIdleStrategy);
            line(out, BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME, termBufferLength);
            line(out, BackboneConfiguration.IPC_TERM_BUFFER_LENGTH_PROP_NAME, ipcTermBufferLength);
            line(out, BackboneConfiguration.TERM_BUFFER_SPARSE_FILE_PROP_NAME, termBufferSparseFile);
            line(out, BackboneConfiguration.DIR_DELETE_ON_START_PROP_NAME, dirDeleteOnStart);
            line(out, BackboneConfiguration.DIR_DELETE_ON_SHUTDOWN_PROP_NAME, dirDeleteOnShutdown);
            line(out, BackboneConfiguration.DRIVER_TIMEOUT_MS_PROP_NAME, driverTimeoutMs);
            line(out, BackboneConfiguration.PRINT_CONFIGURATION_PROP_NAME, printConfiguration);
            line(out, IdleConfiguration.SPIN_CORES_PROP_NAME, spinCores);
            return out.toString();
        }

        private static void line(final StringBuilder out, final String key, final Object value)
        {
            out.append(key).append('=').append(value).append(System.lineSeparator());
        }
    }
}
