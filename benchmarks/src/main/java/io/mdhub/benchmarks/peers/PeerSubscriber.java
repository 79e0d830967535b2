package io.mdhub.benchmarks.peers;

/**
 * One subscriber connection to a pub/sub peer, subscribed to every item's channel or subject.
 */
interface PeerSubscriber extends AutoCloseable
{
    /**
     * Receives updates, on the client library's own thread.
     */
    @FunctionalInterface
    interface Listener
    {
        /**
         * @param payload the update's bytes, valid during the call.
         */
        void onUpdate(byte[] payload);
    }

    /**
     * Subscribe to every item and deliver their updates to the listener from now on.
     *
     * @param listener where updates go.
     */
    void start(Listener listener);

    /**
     * @return channels or subjects whose subscription the peer has confirmed.
     */
    int subscribed();

    /**
     * @return why the connection failed, or null while it is healthy.
     */
    Throwable failure();

    @Override
    void close();
}
