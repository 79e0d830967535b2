package io.mdhub.p2p.entitlement;

/**
 * What a usage record says happened: the events an exchange's usage report is made of.
 */
public enum UsageEvent
{
    /** A consumer login accepted. */
    LOGIN_GRANTED,
    /** A consumer login refused (unknown user, application or position not allowed, bad token...). */
    LOGIN_DENIED,
    /** A consumer logged off: closed its login stream or its connection went away. */
    LOGOFF,
    /** An item stream opened for a consumer: the item was granted. */
    ITEM_GRANTED,
    /** An item request refused with Closed/NotEntitled. */
    ITEM_DENIED,
    /** An open item stream ended: closed by the consumer, by the server, or by a withdrawn permission. */
    ITEM_CLOSED,
    /** A post refused because the user may not post to the item. */
    POST_DENIED,
    /**
     * Written by the log itself when it opens (a server start): logins and streams still open in the log then belong
     * to a process that ended without closing them (a crash), so the report ends them there.
     */
    LOG_OPENED,
    /** Written by the log itself when it closes (a server stop): the report ends what is still open there. */
    LOG_CLOSED
}
