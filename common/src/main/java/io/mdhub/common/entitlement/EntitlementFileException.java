package io.mdhub.common.entitlement;

/**
 * An entitlement file that cannot be read or is not valid; the message names the file and the line.
 */
public final class EntitlementFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and where.
     */
    public EntitlementFileException(final String message)
    {
        super(message);
    }
}
