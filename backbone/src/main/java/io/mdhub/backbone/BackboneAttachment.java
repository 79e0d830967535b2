package io.mdhub.backbone;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;

import io.aeron.Aeron;

/**
 * How an MDHub server process reaches the backbone: an Aeron client of the host's backbone daemon (found through
 * {@code mdhub.backbone.aeron.dir}), or of a media driver embedded in the process, held by a {@link BackboneLink}
 * that outlives a restart of the daemon ({@code mdhub.backbone.reconnect.timeout.ms}). Closing closes the client and
 * then the embedded driver, if any.
 */
public final class BackboneAttachment implements AutoCloseable
{
    private final BackboneNode node;
    private final BackboneLink link;

    private BackboneAttachment(final BackboneNode node, final BackboneLink link)
    {
        this.node = node;
        this.link = link;
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
            return new BackboneAttachment(node,
                BackboneLink.connect(directory, BackboneConfiguration.reconnectTimeoutMs()));
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(node);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
    }

    /**
     * The settings of an MDHub server's Aeron client: no conductor thread; the server's backbone loops run the
     * conductor from their duty cycles ({@link ConductorDuty}), so an idle process wakes only for its loops' ticks
     * (a conductor thread sleeping Aeron's default 16 ms would add 62 wake-ups a second). Data never waits for the
     * conductor, and a synchronous call (adding a publication) drives it itself.
     *
     * @param aeronDirectoryName the driver's directory.
     * @return a new context.
     */
    public static Aeron.Context clientContext(final String aeronDirectoryName)
    {
        return new Aeron.Context()
            .aeronDirectoryName(aeronDirectoryName)
            .useConductorAgentInvoker(true);
    }

    /**
     * @return the link to the backbone, which holds the Aeron client.
     */
    public BackboneLink link()
    {
        return link;
    }

    /**
     * @return the Aeron client in use, or null while the backbone daemon is lost.
     */
    public Aeron aeron()
    {
        return link.aeron();
    }

    /**
     * @return the Aeron directory in use.
     */
    public String aeronDirectoryName()
    {
        return link.aeronDirectoryName();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(link, node);
    }
}
