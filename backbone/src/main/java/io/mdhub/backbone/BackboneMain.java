package io.mdhub.backbone;

/**
 * Placeholder replaced by the standalone backbone daemon.
 */
public final class BackboneMain
{
    private BackboneMain()
    {
    }

    /**
     * Entry point.
     *
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        throw new UnsupportedOperationException("backbone daemon not built yet");
    }
}
