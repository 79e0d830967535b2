package io.mdhub.p2p;

import io.mdhub.common.status.CounterReason;

/**
 * Why the p2p-server refused a consumer request with a Closed status; each reason has its own counter.
 */
public enum RejectReason implements CounterReason
{
    /**
     * The request names a service the directory does not have.
     */
    UNKNOWN_SERVICE,

    /**
     * The item source does not know the item.
     */
    NOT_FOUND,

    /**
     * The consumer reached its own item limit.
     */
    CONSUMER_ITEM_LIMIT,

    /**
     * The server reached its aggregate item limit.
     */
    SERVER_ITEM_LIMIT,

    /**
     * A request arrived before a login was accepted.
     */
    LOGIN_REQUIRED,

    /**
     * A provider-role login (providers publish through a distributor, not a p2p-server).
     */
    PROVIDER_LOGIN,

    /**
     * A message that could not be decoded, or a request missing what it needs (no service, no name).
     */
    MALFORMED_REQUEST,

    /**
     * A dictionary the server does not have.
     */
    UNKNOWN_DICTIONARY,

    /**
     * The user is not entitled to the service or the item (Closed/NotEntitled).
     */
    NOT_ENTITLED,

    /**
     * A login the entitlements refused: unknown user, application or position not permitted, invalid token.
     */
    LOGIN_DENIED,

    /**
     * A login refused unchecked: its address failed to log in too often lately.
     */
    LOGIN_THROTTLED,

    /**
     * An open stream or login closed because the entitlements changed and no longer allow it.
     */
    ENTITLEMENT_WITHDRAWN;
}
