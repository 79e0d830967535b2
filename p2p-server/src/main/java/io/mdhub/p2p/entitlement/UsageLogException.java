package io.mdhub.p2p.entitlement;

/**
 * A usage directory that cannot be read as a usage log: its message says which directory and why, for a person.
 */
public final class UsageLogException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the directory.
     */
    public UsageLogException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, naming the directory.
     * @param cause   what the queue library threw.
     */
    public UsageLogException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
