package io.mdhub.p2p.order;

import org.agrona.collections.IntArrayList;

import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.UnavailableImageHandler;

/**
 * Keeps the ingress's reassembly memory bounded by the clients present. Aeron's {@link FragmentAssembler} keeps a
 * buffer for every publisher session that ever sent a message longer than a frame, and nothing frees it when that
 * publisher leaves: a server whose clients reconnect for months would keep one (of up to the largest order) per
 * connection they ever made. The ingress subscription reports a publisher that left ({@link #onUnavailableImage}, on
 * whichever thread runs the Aeron client's conductor work); the order agent frees that session's buffer on its next
 * duty cycle ({@link #free}), so the assembler is only ever touched by the agent. A session whose image is back by
 * then (a network publication keeps its session id across a reconnect) keeps its buffer: it may hold the new image's
 * first fragments.
 */
final class IngressDepartures implements UnavailableImageHandler
{
    private final Object lock = new Object();
    private IntArrayList reported = new IntArrayList();
    private IntArrayList freeing = new IntArrayList();
    private volatile boolean hasReported;

    @Override
    public void onUnavailableImage(final Image image)
    {
        departed(image.sessionId());
    }

    /**
     * A publisher session left the ingress. Unbounded, so that no departure of a mass disconnect is dropped; the
     * list grows only between two of the agent's duty cycles.
     *
     * @param sessionId its Aeron session id.
     */
    void departed(final int sessionId)
    {
        synchronized (lock)
        {
            reported.addInt(sessionId);
            hasReported = true;
        }
    }

    /**
     * Free the reassembly buffers of the sessions that left. Agent thread only; a volatile read when none left.
     *
     * @param assembler the ingress's assembler.
     * @param ingress   the ingress subscription (is the session back?).
     * @return buffers freed (sessions that left without ever fragmenting had none).
     */
    int free(final FragmentAssembler assembler, final Subscription ingress)
    {
        if (!hasReported)
        {
            return 0;
        }
        final IntArrayList departed;
        synchronized (lock) // swapped, so the conductor's next report never waits for the frees
        {
            departed = reported;
            reported = freeing;
            freeing = departed;
            hasReported = false;
        }
        int freed = 0;
        try
        {
            for (int i = 0, size = departed.size(); i < size; i++)
            {
                final int sessionId = departed.getInt(i);
                if (null == ingress.imageBySessionId(sessionId) && assembler.freeSessionBuffer(sessionId))
                {
                    freed++;
                }
            }
        }
        finally
        {
            departed.clear(); // the list is the next swap's empty one
        }
        return freed;
    }
}
