package io.mdhub.p2p.entitlement;

/**
 * One usage record, filled in place and handed to {@link UsageLog#append(UsageRecord)}: each fan-out worker keeps one
 * and reuses it, so recording allocates nothing of its own. Fields a given event has no value for are left
 * {@code null} (text) or 0 (numbers).
 */
public final class UsageRecord
{
    /** What happened. */
    public UsageEvent event;
    /** When, in milliseconds since the epoch. */
    public long timeMs;
    /** The consumer connection's id (as the management endpoint lists it). */
    public long connectionId;
    /** Login user name. */
    public String user;
    /** Login position (the DACS position: usually the application host's address). */
    public String position;
    /** Login application id. */
    public String application;
    /** Service name of the item. */
    public String service;
    /** Item name. */
    public String item;
    /** RDM domain type of the item. */
    public int domainType;
    /** The item's permission codes (its lock), comma separated, e.g. {@code "62,144"}; null when it has none. */
    public String codes;
    /** Why: the denial's or the close's reason text. */
    public String reason;
    /** For {@link UsageEvent#ITEM_CLOSED}: when the stream was granted, in milliseconds since the epoch. */
    public long openedMs;

    /**
     * Forgets every field, ready for the next record.
     *
     * @return this.
     */
    public UsageRecord reset()
    {
        event = null;
        timeMs = 0;
        connectionId = 0;
        user = null;
        position = null;
        application = null;
        service = null;
        item = null;
        domainType = 0;
        codes = null;
        reason = null;
        openedMs = 0;
        return this;
    }
}
