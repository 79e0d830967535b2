package io.mdhub.benchmarks.peers;

/**
 * What every peer subscriber reports the same way: how many items are subscribed and why it failed, written by the
 * subscriber's own thread (or its client library's) and read by the once-a-second line.
 */
abstract class AbstractPeerSubscriber implements PeerSubscriber
{
    private volatile int subscribed;
    private volatile Throwable failure;

    @Override
    public int subscribed()
    {
        return subscribed;
    }

    @Override
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @param count items now subscribed.
     */
    final void subscribed(final int count)
    {
        subscribed = count;
    }

    /**
     * @param cause why the subscription failed.
     */
    final void fail(final Throwable cause)
    {
        failure = cause;
    }
}
