package io.mdhub.backbone;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import io.aeron.Aeron;

/**
 * How an MDHub server process reaches the backbone: an Aeron client of the host's backbone daemon (found through
 * {@code mdhub.backbone.aeron.dir}), or of a media driver embedded in the process. Closing closes the client and
 * then the embedded driver, if any.
 */
public final class BackboneAttachment implements AutoCloseable
{
    /** How long an MDHub server's Aeron client conductor sleeps between duty cycles. */
    public static final long CONDUCTOR_SLEEP_MS = 100;

    private final BackboneNode node;
    private final Aeron aeron;

    private BackboneAttachment(final BackboneNode node, final Aeron aeron)
    {
        this.node = node;
        this.aeron = aeron;
    }

    /**
     * @param embedded true to run a media driver in this process, false to join the host's daemon.
     * @return the attachment.
     */
    public static BackboneAttachment attach(final boolean embedded)
    {
        BackboneNode node = null;
        try
        {
            node = embedded ? BackboneNode.launch() : null;
            final String directory = null != node ? node.aeronDirectoryName() :
                BackboneConfiguration.aeronDirectoryName();
            return new BackboneAttachment(node, Aeron.connect(clientContext(directory)));
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(node);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
    }

    /**
     * The settings of an MDHub server's Aeron client: its conductor thread sleeps {@value #CONDUCTOR_SLEEP_MS} ms
     * between looks at the driver (Aeron's default is 16 ms: 62 wake-ups a second of an idle process). The conductor
     * only sends keepalives (every 500 ms) and takes the driver's news of images and counters, which the server's
     * loops are told of by handlers; data never waits for it, and a synchronous call (adding a publication) is driven
     * by its caller.
     *
     * @param aeronDirectoryName the driver's directory.
     * @return a new context.
     */
    public static Aeron.Context clientContext(final String aeronDirectoryName)
    {
        return new Aeron.Context()
            .aeronDirectoryName(aeronDirectoryName)
            .idleStrategy(new SleepingMillisIdleStrategy(CONDUCTOR_SLEEP_MS));
    }

    /**
     * @return the Aeron client.
     */
    public Aeron aeron()
    {
        return aeron;
    }

    /**
     * @return the Aeron directory in use.
     */
    public String aeronDirectoryName()
    {
        return aeron.context().aeronDirectoryName();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, node);
    }
}
