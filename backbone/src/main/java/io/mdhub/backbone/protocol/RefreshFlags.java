package io.mdhub.backbone.protocol;

/**
 * Bits of an item refresh's flags as listeners see them: the positions of the {@code RefreshFlags} set in the
 * backbone schema, so a listener tests bits instead of touching codec types.
 */
public final class RefreshFlags
{
    /**
     * The refresh answers the ItemRequest whose requestId it echoes.
     */
    public static final int SOLICITED = 1;

    /**
     * Last part of the image (RWF REFRESH_COMPLETE).
     */
    public static final int COMPLETE = 1 << 1;

    /**
     * First part of the image: replace what is cached (RWF CLEAR_CACHE).
     */
    public static final int CLEAR_CACHE = 1 << 2;

    /**
     * Sent to recover after loss, or because the provider resynchronised.
     */
    public static final int RECOVERY = 1 << 3;

    private RefreshFlags()
    {
    }

    /**
     * @param flags the flags.
     * @param bit   one of the constants.
     * @return true when the bit is set.
     */
    public static boolean isSet(final int flags, final int bit)
    {
        return 0 != (flags & bit);
    }
}
