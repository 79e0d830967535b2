package io.mdhub.p2p;

/**
 * Why the p2p-server refused a consumer request with a Closed status; each reason has its own counter.
 */
public enum RejectReason
{
    /**
     * The request names a service the directory does not have.
     */
    UNKNOWN_SERVICE(0, "unknown-service"),

    /**
     * The item source does not know the item.
     */
    NOT_FOUND(1, "not-found"),

    /**
     * The consumer reached its own item limit.
     */
    CONSUMER_ITEM_LIMIT(2, "consumer-item-limit"),

    /**
     * The server reached its aggregate item limit.
     */
    SERVER_ITEM_LIMIT(3, "server-item-limit"),

    /**
     * A request arrived before a login was accepted.
     */
    LOGIN_REQUIRED(4, "login-required"),

    /**
     * A provider-role login (providers publish through a distributor, not a p2p-server).
     */
    PROVIDER_LOGIN(5, "provider-login"),

    /**
     * A message that could not be decoded, or a request missing what it needs (no service, no name).
     */
    MALFORMED_REQUEST(6, "malformed-request"),

    /**
     * A dictionary the server does not have.
     */
    UNKNOWN_DICTIONARY(7, "unknown-dictionary"),

    /**
     * The user is not entitled to the service or the item (Closed/NotEntitled).
     */
    NOT_ENTITLED(8, "not-entitled"),

    /**
     * A login the entitlements refused: unknown user, application or position not permitted, invalid token.
     */
    LOGIN_DENIED(9, "login-denied"),

    /**
     * A login refused unchecked: its address failed to log in too often lately.
     */
    LOGIN_THROTTLED(10, "login-throttled"),

    /**
     * An open stream or login closed because the entitlements changed and no longer allow it.
     */
    ENTITLEMENT_WITHDRAWN(11, "entitlement-withdrawn");

    private final int code;
    private final String label;

    RejectReason(final int code, final String label)
    {
        this.code = code;
        this.label = label;
    }

    /**
     * @return the counter key.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the label used in counters and logs.
     */
    public String label()
    {
        return label;
    }
}
