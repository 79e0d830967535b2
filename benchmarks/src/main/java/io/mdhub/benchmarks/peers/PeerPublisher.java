package io.mdhub.benchmarks.peers;

/**
 * One publisher connection to a pub/sub peer. Single-threaded.
 */
interface PeerPublisher extends AutoCloseable
{
    /**
     * Queue an update for an item (its channel or subject); it may not be written until {@link #flush()}.
     *
     * @param item    the item's index.
     * @param payload the update, {@link PeerUpdate#LENGTH} bytes.
     */
    void publish(int item, byte[] payload);

    /**
     * Write everything queued: once per burst, as MDHub's source flushes once per tick.
     */
    void flush();

    @Override
    void close();
}
