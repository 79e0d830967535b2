package io.mdhub.benchmarks.tools;

import io.mdhub.benchmarks.source.ItemUniverse;
import io.mdhub.common.config.BaseContext;

/**
 * Settings every RSSL tool has: where to connect, as whom, how long to wait, and the item universe (generated with
 * the same names the source publishes, or read from an item file).
 *
 * @param <T> the concrete Context, so fluent setters return it.
 */
public abstract class RsslToolContext<T extends RsslToolContext<T>> extends BaseContext<T>
{
    private String host = "127.0.0.1";
    private int port;
    private String userName;
    private long connectTimeoutMs = 10_000;
    private ItemUniverse items;
    private int itemCount = 100_000;

    /**
     * @param defaultPort     the port of the server the tool talks to by default.
     * @param defaultUserName the login name by default.
     */
    protected RsslToolContext(final int defaultPort, final String defaultUserName)
    {
        this.port = defaultPort;
        this.userName = defaultUserName;
    }

    @Override
    protected void concludeContext()
    {
        requireRange("port", port, 1, 65535);
        requirePositive("connectTimeoutMs", connectTimeoutMs);
        if (null == items)
        {
            items = ItemUniverse.generated((int)requirePositive("itemCount", itemCount));
        }
    }


    /**
     * @param host server host.
     * @return this.
     */
    public T host(final String host)
    {
        checkNotConcluded();
        this.host = host;
        return self();
    }

    /**
     * @return server host.
     */
    public String host()
    {
        return host;
    }

    /**
     * @param port server port.
     * @return this.
     */
    public T port(final int port)
    {
        checkNotConcluded();
        this.port = port;
        return self();
    }

    /**
     * @return server port.
     */
    public int port()
    {
        return port;
    }

    /**
     * @param userName login user name.
     * @return this.
     */
    public T userName(final String userName)
    {
        checkNotConcluded();
        this.userName = userName;
        return self();
    }

    /**
     * @return login user name.
     */
    public String userName()
    {
        return userName;
    }

    /**
     * @param connectTimeoutMs how long to wait for a connection.
     * @return this.
     */
    public T connectTimeoutMs(final long connectTimeoutMs)
    {
        checkNotConcluded();
        this.connectTimeoutMs = connectTimeoutMs;
        return self();
    }

    /**
     * @return how long to wait for a connection.
     */
    public long connectTimeoutMs()
    {
        return connectTimeoutMs;
    }

    /**
     * @param items the universe (overrides itemCount).
     * @return this.
     */
    public T items(final ItemUniverse items)
    {
        checkNotConcluded();
        this.items = items;
        return self();
    }

    /**
     * @return the universe (after conclude).
     */
    public ItemUniverse items()
    {
        return items;
    }

    /**
     * @param itemCount size of a generated universe.
     * @return this.
     */
    public T itemCount(final int itemCount)
    {
        checkNotConcluded();
        this.itemCount = itemCount;
        return self();
    }
}
