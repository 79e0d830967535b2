package io.mdhub.p2p;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.Supplier;

import com.refinitiv.eta.codec.DataDictionary;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.dictionary.DictionaryConfiguration;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.entitlement.EntitlementConfiguration;
import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.TokenValidator;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.p2p.entitlement.ChronicleUsageLog;
import io.mdhub.p2p.entitlement.ConsumerEntitlements;
import io.mdhub.p2p.entitlement.UsageLog;
import io.mdhub.common.status.MdCounters;
import io.mdhub.p2p.source.ItemSourceFactory;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * What a {@link P2pServer} does for its consumers, the second level of {@link P2pServer.Context} over
 * {@link P2pConnectionSettings}: item limits and the cache, the item source and the dictionary, the slow-consumer
 * policy and output limits, entitlements, the usage log, posting, counters and the MBean. Defaults come from
 * {@link P2pConfiguration} and, for the dictionary files, {@link DictionaryConfiguration}. {@link #conclude()}
 * validates every setting and creates what was not supplied: the TLS context, the dictionary loader (loading the
 * files once, so a bad one stops the server), an in-memory {@link CountersManager}, the counters, the usage log, the
 * entitlement checks, the output buffer pool and the workers' event-loop group; {@link #close()} releases what it
 * created, event loops first.
 *
 * @param <T> the concrete Context type, so fluent setters return it.
 */
public abstract class P2pServerSettings<T extends P2pServerSettings<T>> extends P2pConnectionSettings<T>
{
    /**
     * Counters the in-memory CountersManager has room for (the server and one RIPC listener use about 55, each
     * service 2 more, each further listener about 20).
     */
    public static final int DEFAULT_COUNTERS_CAPACITY = 256;

    private static final int MIN_OUTPUT_BYTES = 4096;

    private int maxItemsPerConsumer = P2pConfiguration.maxItemsPerConsumer();
    private int maxItems = P2pConfiguration.maxItems();
    private boolean cacheEnabled = P2pConfiguration.cacheEnabled();
    private int maxOutputBytes = P2pConfiguration.maxOutputBytes();
    private int guaranteedOutputBytes = P2pConfiguration.guaranteedOutputBytes();
    private long slowConsumerTimeoutNs = P2pConfiguration.slowConsumerTimeoutNs();
    private SlowConsumerPolicy slowConsumerPolicy = P2pConfiguration.slowConsumerPolicy();
    private long conflateTimeoutNs = P2pConfiguration.conflateTimeoutNs();
    private boolean registerMBean = true;
    private ItemSourceFactory itemSourceFactory;
    private String dictionaryFieldFile = DictionaryConfiguration.fieldFile();
    private String dictionaryEnumFile = DictionaryConfiguration.enumFile();
    private Supplier<DataDictionary> dictionarySupplier;
    private EntitlementSource entitlementSource;
    private boolean ownsEntitlementSource;
    private TokenValidator tokenValidator = TokenValidator.FILE;
    private LoginThrottle loginThrottle;
    private ConsumerEntitlements entitlements;
    private String usageDir = P2pConfiguration.usageDir();
    private UsageLog usageLog;
    private AtomicCounter usageRecords;
    private AtomicCounter usageFailures;
    private long postTimeoutNs = P2pConfiguration.postTimeoutNs();
    private CountersManager countersManager;
    private InMemoryCounters ownCounters;
    private P2pCounters counters;

    @Override
    protected void concludeContext()
    {
        requireListenerRanges();
        requirePositive(P2pConfiguration.MAX_ITEMS_PER_CONSUMER_PROP_NAME, maxItemsPerConsumer);
        requirePositive(P2pConfiguration.MAX_ITEMS_PROP_NAME, maxItems);
        if (0 == guaranteedOutputBytes)
        {
            guaranteedOutputBytes = maxOutputBytes / 2;
        }
        requireRange(P2pConfiguration.GUARANTEED_OUTPUT_BYTES_PROP_NAME, guaranteedOutputBytes,
            MIN_OUTPUT_BYTES / 2, maxOutputBytes);
        requireRange(P2pConfiguration.MAX_OUTPUT_BYTES_PROP_NAME, maxOutputBytes, MIN_OUTPUT_BYTES,
            Integer.MAX_VALUE);
        requirePositive(P2pConfiguration.SLOW_CONSUMER_TIMEOUT_PROP_NAME, slowConsumerTimeoutNs);
        if (null == slowConsumerPolicy)
        {
            throw new IllegalArgumentException(P2pConfiguration.SLOW_CONSUMER_POLICY_PROP_NAME + " is required");
        }
        if (SlowConsumerPolicy.CONFLATE == slowConsumerPolicy && conflateTimeoutNs < slowConsumerTimeoutNs)
        {
            throw new IllegalArgumentException(P2pConfiguration.CONFLATE_TIMEOUT_PROP_NAME + " (" +
                conflateTimeoutNs + " ns) must be at least " + P2pConfiguration.SLOW_CONSUMER_TIMEOUT_PROP_NAME +
                " (" + slowConsumerTimeoutNs + " ns)");
        }
        requireConnectionRanges();
        if (null == itemSourceFactory)
        {
            throw new IllegalArgumentException("an itemSourceFactory is required");
        }
        final IdleStrategy busyPollIdle = itemSourceFactory.busyPollIdle();
        if (null != busyPollIdle)
        {
            final SpinBudget budget = new SpinBudget("p2p-server", IdleConfiguration.spinCores());
            for (int i = 0; i < workers(); i++)
            {
                budget.add("busy-polling worker " + i, busyPollIdle);
            }
            budget.check();
        }
        concludeListeners();
        if (null == dictionarySupplier)
        {
            // loads the files now: a missing or malformed dictionary stops the server before it listens
            dictionarySupplier = DictionaryLoader.supplier(dictionaryFieldFile, dictionaryEnumFile);
        }

        if (null == countersManager)
        {
            ownCounters = new InMemoryCounters(DEFAULT_COUNTERS_CAPACITY);
            countersManager = ownCounters.manager();
        }
        counters = new P2pCounters(countersManager, componentName());
        if (null == usageLog)
        {
            usageLog = newUsageLog();
        }
        concludeEntitlements();
        concludeEventLoops();
    }

    private void concludeEntitlements()
    {
        if (null == entitlementSource)
        {
            final java.nio.file.Path file = EntitlementConfiguration.file();
            // an invalid file stops the server before it listens
            entitlementSource = null == file ? EntitlementSource.OPEN : WatchedEntitlementFile.open(
                file, counters.entitlementReloads(), counters.entitlementReloadFailures());
            ownsEntitlementSource = null != file;
        }
        if (null == loginThrottle)
        {
            loginThrottle = EntitlementConfiguration.loginThrottle();
        }
        entitlements = new ConsumerEntitlements(entitlementSource, tokenValidator, loginThrottle, usageLog);
    }

    /**
     * Shut the worker event loops down (waiting), stop watching the entitlement file, then free the counters and
     * their in-memory buffers.
     */
    @Override
    public void close()
    {
        super.close();
        if (ownsEntitlementSource)
        {
            CloseHelper.quietClose(entitlementSource);
            entitlementSource = null;
            ownsEntitlementSource = false;
        }
        // after the event loops: no worker appends any more
        CloseHelper.close(usageLog);
        usageLog = null;
        CloseHelper.closeAll(usageRecords, usageFailures);
        usageRecords = null;
        usageFailures = null;
        CloseHelper.close(counters);
        counters = null;
        if (null != ownCounters)
        {
            countersManager = null;
            ownCounters.close();
            ownCounters = null;
        }
    }

    /**
     * A copy with the same settings that is not concluded and owns none of this Context's resources: it makes its
     * own counters, usage log and entitlement watcher (or takes the ones given to this Context) when concluded.
     *
     * @return the copy.
     */
    @Override
    public T clone()
    {
        final T clone = super.clone();
        final P2pServerSettings<T> copy = clone; // private fields are reached through the class, not through T
        copy.countersManager = null != ownCounters ? null : countersManager;
        copy.ownCounters = null;
        copy.counters = null;
        copy.usageLog = null;
        copy.usageRecords = null;
        copy.usageFailures = null;
        copy.entitlementSource = ownsEntitlementSource ? null : entitlementSource;
        copy.ownsEntitlementSource = false;
        copy.entitlements = null;
        return clone;
    }

    /**
     * @param maxItemsPerConsumer item streams one connection may open.
     * @return this.
     */
    public T maxItemsPerConsumer(final int maxItemsPerConsumer)
    {
        checkNotConcluded();
        this.maxItemsPerConsumer = maxItemsPerConsumer;
        return self();
    }

    /**
     * @return per-consumer item limit.
     */
    public int maxItemsPerConsumer()
    {
        return maxItemsPerConsumer;
    }

    /**
     * @param source where the entitlements come from and say they changed (default: the file
     *               {@code mdhub.entitlements.file} if set, else no checks). Not closed by this Context.
     * @return this.
     */
    public T entitlementSource(final EntitlementSource source)
    {
        checkNotConcluded();
        this.entitlementSource = source;
        return self();
    }

    /**
     * @return where the entitlements come from (set once concluded).
     */
    public EntitlementSource entitlementSource()
    {
        return entitlementSource;
    }

    /**
     * @param validator checks token logins (default: the entitlement file's {@code token-sha256} lines).
     * @return this.
     */
    public T tokenValidator(final TokenValidator validator)
    {
        checkNotConcluded();
        this.tokenValidator = validator;
        return self();
    }

    /**
     * @param throttle failed logins per address (default from {@code mdhub.entitlements.login.*}).
     * @return this.
     */
    public T loginThrottle(final LoginThrottle throttle)
    {
        checkNotConcluded();
        this.loginThrottle = throttle;
        return self();
    }

    /**
     * @return what the fan-out workers consult about consumers (set once concluded).
     */
    public ConsumerEntitlements entitlements()
    {
        return entitlements;
    }

    /**
     * @param usageDir directory of the usage log built at conclude when no {@link #usageLog(UsageLog)} is set;
     *                 empty for none.
     * @return this.
     */
    public T usageDir(final String usageDir)
    {
        checkNotConcluded();
        this.usageDir = usageDir;
        return self();
    }

    /**
     * @return the usage log's directory, empty for none.
     */
    public String usageDir()
    {
        return usageDir;
    }

    /**
     * @param usageLog where the fan-out workers append usage records; owned by the server from now on (closed
     *                 with it). When not set, conclude opens a {@link ChronicleUsageLog} in {@link #usageDir()},
     *                 or uses {@link UsageLog#NONE} when that is empty.
     * @return this.
     */
    public T usageLog(final UsageLog usageLog)
    {
        checkNotConcluded();
        this.usageLog = usageLog;
        return self();
    }

    /**
     * @return the usage log, after conclude ({@link UsageLog#NONE} when nothing is recorded).
     */
    public UsageLog usageLog()
    {
        return usageLog;
    }

    private UsageLog newUsageLog()
    {
        final String dir = null == usageDir ? "" : usageDir.trim();
        if (dir.isEmpty())
        {
            return UsageLog.NONE;
        }
        final Path path;
        try
        {
            path = Path.of(dir);
        }
        catch (final InvalidPathException ex)
        {
            throw new IllegalArgumentException(P2pConfiguration.USAGE_DIR_PROP_NAME + " is not a path: " + dir, ex);
        }
        usageRecords = countersManager.newCounter(
            "p2p-usage-records: component=" + componentName(), MdCounters.P2P_USAGE_RECORDS_TYPE_ID);
        usageFailures = countersManager.newCounter(
            "p2p-usage-failures: component=" + componentName(), MdCounters.P2P_USAGE_FAILURES_TYPE_ID);
        try
        {
            return new ChronicleUsageLog(path, usageRecords, usageFailures);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException(P2pConfiguration.USAGE_DIR_PROP_NAME + ": cannot open a usage log " +
                "in " + path + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param postTimeoutNs time a consumer's post waits for its ACK before the poster gets a NAK (NoResponse).
     * @return this.
     */
    public T postTimeoutNs(final long postTimeoutNs)
    {
        checkNotConcluded();
        this.postTimeoutNs = postTimeoutNs;
        return self();
    }

    /**
     * @return time a post waits for its ACK.
     */
    public long postTimeoutNs()
    {
        return postTimeoutNs;
    }

    /**
     * @param cacheEnabled keep an off-heap image of every open streaming item and answer new watchers from it.
     * @return this.
     */
    public T cacheEnabled(final boolean cacheEnabled)
    {
        checkNotConcluded();
        this.cacheEnabled = cacheEnabled;
        return self();
    }

    /**
     * @return whether the item cache is on.
     */
    public boolean cacheEnabled()
    {
        return cacheEnabled;
    }

    /**
     * @param maxItems distinct items open on all item sources together.
     * @return this.
     */
    public T maxItems(final int maxItems)
    {
        checkNotConcluded();
        this.maxItems = maxItems;
        return self();
    }

    /**
     * @return aggregate item limit.
     */
    public int maxItems()
    {
        return maxItems;
    }

    /**
     * @param guaranteedOutputBytes pending output a consumer may have and still count as keeping up (the
     *                              high write watermark; 0 for half of {@link #maxOutputBytes()}).
     * @return this.
     */
    public T guaranteedOutputBytes(final int guaranteedOutputBytes)
    {
        checkNotConcluded();
        this.guaranteedOutputBytes = guaranteedOutputBytes;
        return self();
    }

    /**
     * @return pending output that starts a consumer's slow-consumer clock.
     */
    public int guaranteedOutputBytes()
    {
        return guaranteedOutputBytes;
    }

    /**
     * @param maxOutputBytes pending output that disconnects a consumer (at least 4096).
     * @return this.
     */
    public T maxOutputBytes(final int maxOutputBytes)
    {
        checkNotConcluded();
        this.maxOutputBytes = maxOutputBytes;
        return self();
    }

    /**
     * @return the per-consumer output limit in bytes.
     */
    public int maxOutputBytes()
    {
        return maxOutputBytes;
    }

    /**
     * @param slowConsumerTimeoutNs how long a consumer may stay unwritable.
     * @return this.
     */
    public T slowConsumerTimeoutNs(final long slowConsumerTimeoutNs)
    {
        checkNotConcluded();
        this.slowConsumerTimeoutNs = slowConsumerTimeoutNs;
        return self();
    }

    /**
     * @return the slow-consumer timeout in nanoseconds.
     */
    public long slowConsumerTimeoutNs()
    {
        return slowConsumerTimeoutNs;
    }

    /**
     * @param slowConsumerPolicy what happens to a consumer whose output passes the guaranteed output.
     * @return this.
     */
    public T slowConsumerPolicy(final SlowConsumerPolicy slowConsumerPolicy)
    {
        checkNotConcluded();
        this.slowConsumerPolicy = slowConsumerPolicy;
        return self();
    }

    /**
     * @return the slow-consumer policy.
     */
    public SlowConsumerPolicy slowConsumerPolicy()
    {
        return slowConsumerPolicy;
    }

    /**
     * @param conflateTimeoutNs under the conflate policy, how long a consumer may stay unwritable (at least the
     *                          slow-consumer timeout).
     * @return this.
     */
    public T conflateTimeoutNs(final long conflateTimeoutNs)
    {
        checkNotConcluded();
        this.conflateTimeoutNs = conflateTimeoutNs;
        return self();
    }

    /**
     * @return the conflation timeout in nanoseconds.
     */
    public long conflateTimeoutNs()
    {
        return conflateTimeoutNs;
    }

    /**
     * @param registerMBean register the {@link P2pServerMXBean} (default true).
     * @return this.
     */
    public T registerMBean(final boolean registerMBean)
    {
        checkNotConcluded();
        this.registerMBean = registerMBean;
        return self();
    }

    /**
     * @return true if the MXBean is registered.
     */
    public boolean registerMBean()
    {
        return registerMBean;
    }

    /**
     * @param itemSourceFactory makes each worker's item source (required).
     * @return this.
     */
    public T itemSourceFactory(final ItemSourceFactory itemSourceFactory)
    {
        checkNotConcluded();
        this.itemSourceFactory = itemSourceFactory;
        return self();
    }

    /**
     * @return the item source factory.
     */
    public ItemSourceFactory itemSourceFactory()
    {
        return itemSourceFactory;
    }

    /**
     * @param dictionaryFieldFile RDMFieldDictionary file served as RWFFld, with
     *                            {@link #dictionaryEnumFile(String)}; empty for the dictionary MDHub ships.
     * @return this.
     */
    public T dictionaryFieldFile(final String dictionaryFieldFile)
    {
        checkNotConcluded();
        this.dictionaryFieldFile = dictionaryFieldFile;
        return self();
    }

    /**
     * @return the field dictionary file, empty for the dictionary MDHub ships.
     */
    public String dictionaryFieldFile()
    {
        return dictionaryFieldFile;
    }

    /**
     * @param dictionaryEnumFile enumtype.def file served as RWFEnum, with {@link #dictionaryFieldFile(String)};
     *                           empty for the dictionary MDHub ships.
     * @return this.
     */
    public T dictionaryEnumFile(final String dictionaryEnumFile)
    {
        checkNotConcluded();
        this.dictionaryEnumFile = dictionaryEnumFile;
        return self();
    }

    /**
     * @return the enumerated types file, empty for the dictionary MDHub ships.
     */
    public String dictionaryEnumFile()
    {
        return dictionaryEnumFile;
    }

    /**
     * @param dictionarySupplier loads the dictionary served to consumers, once per worker; when set, the
     *                           dictionary files are not read (default: none, and {@link #conclude()} makes one
     *                           for {@link #dictionaryFieldFile()} and {@link #dictionaryEnumFile()}).
     * @return this.
     */
    public T dictionarySupplier(final Supplier<DataDictionary> dictionarySupplier)
    {
        checkNotConcluded();
        this.dictionarySupplier = dictionarySupplier;
        return self();
    }

    /**
     * @return the dictionary loader (after {@link #conclude()}, the one for the dictionary files if none was set).
     */
    public Supplier<DataDictionary> dictionarySupplier()
    {
        return dictionarySupplier;
    }

    /**
     * @param countersManager where counters are allocated; when null, conclude creates an in-memory one.
     * @return this.
     */
    public T countersManager(final CountersManager countersManager)
    {
        checkNotConcluded();
        this.countersManager = countersManager;
        return self();
    }

    /**
     * @return the CountersManager in use after conclude.
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }

    /**
     * @return the counters, after conclude.
     */
    public P2pCounters counters()
    {
        return counters;
    }
}
