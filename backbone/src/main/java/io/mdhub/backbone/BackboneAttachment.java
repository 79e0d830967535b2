package io.mdhub.backbone;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;

import io.aeron.Aeron;

/**
 * How an MDHub server process reaches the backbone: an Aeron client of the host's backbone daemon (found through
 * {@code mdhub.backbone.aeron.dir}), or of a media driver embedded in the process. Closing closes the client and
 * then the embedded driver, if any.
 */
public final class BackboneAttachment implements AutoCloseable
{
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
            return new BackboneAttachment(node, Aeron.connect(new Aeron.Context().aeronDirectoryName(directory)));
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(node);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
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
