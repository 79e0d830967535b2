package io.mdhub.p2p.order;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

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
    /** Departures that may wait for the agent; more at once (a mass disconnect) keep their buffers. */
    static final int CAPACITY = 4096;

    private final ManyToOneConcurrentArrayQueue<Integer> departed = new ManyToOneConcurrentArrayQueue<>(CAPACITY);

    @Override
    public void onUnavailableImage(final Image image)
    {
        departed(image.sessionId());
    }

    /**
     * A publisher session left the ingress (boxed: once per departure, never per message).
     *
     * @param sessionId its Aeron session id.
     */
    void departed(final int sessionId)
    {
        departed.offer(sessionId);
    }

    /**
     * Free the reassembly buffers of the sessions that left. Agent thread only.
     *
     * @param assembler the ingress's assembler.
     * @param ingress   the ingress subscription (is the session back?).
     * @return buffers freed (sessions that left without ever fragmenting had none).
     */
    int free(final FragmentAssembler assembler, final Subscription ingress)
    {
        int freed = 0;
        Integer sessionId;
        while (null != (sessionId = departed.poll()))
        {
            if (null == ingress.imageBySessionId(sessionId) && assembler.freeSessionBuffer(sessionId))
            {
                freed++;
            }
        }
        return freed;
    }
}
