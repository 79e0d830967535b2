package io.mdhub.p2p.entitlement;

/**
 * Where usage records go: an append-only log an exchange usage report is drawn from. Appended to by every fan-out
 * worker thread (an implementation must be safe for that), on the worker's own duty cycle, so an append must be quick
 * and never block on I/O for long.
 */
public interface UsageLog extends AutoCloseable
{
    /** Records nothing: the default when no usage directory is configured. */
    UsageLog NONE = new UsageLog()
    {
        public void append(final UsageRecord record)
        {
        }

        public void close()
        {
        }
    };

    /**
     * @param record the record; read during the call only (the caller reuses it).
     */
    void append(UsageRecord record);

    /**
     * Flushes and releases the log's files.
     */
    void close();
}
