package io.mdhub.common.rwf;

/**
 * Why a flyweight refused a message. The hot path returns these instead of throwing; the connection owner counts the
 * error, logs {@link #description()} and disconnects the peer.
 */
public enum RwfError
{
    /** The message was read without problems. */
    NONE("no error"),
    /** The wrap region lies outside the buffer. */
    OUTSIDE_BUFFER("message region lies outside the buffer"),
    /** Fewer bytes than the fixed prefix. */
    TRUNCATED_HEADER("message shorter than the RWF header prefix"),
    /** The header length points past the end of the message. */
    HEADER_LENGTH_OVERRUN("header length runs past the end of the message"),
    /** The header length is too small for the prefix. */
    HEADER_LENGTH_TOO_SHORT("header length too short for the RWF header prefix"),
    /** msgClass is not one of the eight classes. */
    UNKNOWN_MSG_CLASS("unknown msgClass"),
    /** A class-specific member runs past the end of the header. */
    MEMBER_OVERRUN("a header member runs past the end of the header"),
    /** A variable-width integer uses an encoding RWF does not define. */
    INVALID_VARIABLE_LENGTH("invalid variable-length integer encoding"),
    /** A RequestMsg without its mandatory msgKey. */
    MISSING_MSG_KEY("request without a msgKey"),
    /** A msgKey member runs past the end of the key. */
    KEY_MEMBER_OVERRUN("a msgKey member runs past the end of the key");

    private final String description;

    RwfError(final String description)
    {
        this.description = description;
    }

    /**
     * @return a constant text for logs (no allocation).
     */
    public String description()
    {
        return description;
    }
}
