package io.mdhub.p2p.source;

import org.agrona.concurrent.IdleStrategy;

import io.netty.channel.EventLoop;

/**
 * Makes one {@link ItemSource} per fan-out worker, so that every worker's source is touched by that worker's thread
 * only. Called once per worker while the server launches.
 */
@FunctionalInterface
public interface ItemSourceFactory
{
    /**
     * @param workerIndex index of the worker, 0 to workers - 1.
     * @param eventLoop   the worker's event loop: the only thread the source may call the listener on.
     * @param listener    the worker.
     * @return a new source owned by that worker.
     */
    ItemSource newItemSource(int workerIndex, EventLoop eventLoop, ItemSourceListener listener);

    /**
     * For the spin budget: the idle strategy the sources will keep their worker's loop busy with, if they busy-poll.
     *
     * @return a strategy instance, or null when the sources let the loop sleep.
     */
    default IdleStrategy busyPollIdle()
    {
        return null;
    }
}
