package io.mdhub.backbone.protocol;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.Publication;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.BufferClaim;
import io.mdhub.common.concurrent.DoorbellRinger;

/**
 * One outbound backbone stream: the claim-encode-commit cycle shared by every publisher, with the back-pressure
 * policy of STYLE.md §2.6 in one place. Messages that fit in one frame are encoded in place in the log
 * ({@code tryClaim}); larger ones (item images) are encoded into a scratch buffer and offered, and Aeron fragments
 * them. {@code BACK_PRESSURED} and {@code ADMIN_ACTION} are retried a bounded number of times, each failed attempt
 * counted; {@code NOT_CONNECTED} is returned at once (nobody is listening, which is normal); {@code CLOSED} and
 * {@code MAX_POSITION_EXCEEDED} throw, because they need a restart. Not thread safe: one publishing thread.
 */
public final class BackbonePublication
{
    private final int maxAttempts;
    private final AtomicCounter backPressureEvents;
    private Publication publication;
    private DoorbellRinger ringer;
    private final BufferClaim claim = new BufferClaim();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(4096);
    private MutableDirectBuffer buffer;
    private int offset;
    private int length;
    private boolean isClaimed;

    /**
     * @param publication        the Aeron publication (exclusive: one publishing thread).
     * @param maxAttempts        attempts per message before giving up on back-pressure, at least 1.
     * @param backPressureEvents incremented on every back-pressured or admin-action attempt.
     */
    public BackbonePublication(
        final Publication publication, final int maxAttempts, final AtomicCounter backPressureEvents)
    {
        this(publication, maxAttempts, backPressureEvents, DoorbellRinger.NONE);
    }

    /**
     * @param publication        the Aeron publication (exclusive: one publishing thread).
     * @param maxAttempts        attempts per message before giving up on back-pressure, at least 1.
     * @param backPressureEvents incremented on every back-pressured or admin-action attempt.
     * @param ringer             told of every message published, to wake the stream's sleeping subscribers at
     *                           {@link #ringIfPublished()}; {@link DoorbellRinger#NONE} for none.
     */
    public BackbonePublication(
        final Publication publication,
        final int maxAttempts,
        final AtomicCounter backPressureEvents,
        final DoorbellRinger ringer)
    {
        if (maxAttempts < 1)
        {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        this.publication = publication;
        this.maxAttempts = maxAttempts;
        this.backPressureEvents = backPressureEvents;
        this.ringer = ringer;
    }

    /**
     * Publish on another publication of the same stream from now on: the one made on a new Aeron client after the
     * backbone daemon was lost. Call between messages, on the publishing thread.
     *
     * @param publication the new publication.
     * @param ringer      its ringer.
     */
    public void retarget(final Publication publication, final DoorbellRinger ringer)
    {
        isClaimed = false;
        this.publication = publication;
        this.ringer = ringer;
    }

    /**
     * Reserve room for a message of the given length.
     *
     * @param messageLength the encoded length.
     * @return a positive value on success (then encode into {@link #buffer()} at {@link #offset()} and call
     * {@link #commit()}), or the negative Publication code that stopped it.
     */
    public long claim(final int messageLength)
    {
        length = messageLength;
        if (messageLength <= publication.maxPayloadLength())
        {
            long result = 0;
            for (int attempt = 0; attempt < maxAttempts; attempt++)
            {
                result = publication.tryClaim(messageLength, claim);
                if (result > 0)
                {
                    buffer = claim.buffer();
                    offset = claim.offset();
                    isClaimed = true;
                    return result;
                }
                if (!shouldRetry(result))
                {
                    return result;
                }
            }
            return result;
        }

        scratch.checkLimit(messageLength);
        buffer = scratch;
        offset = 0;
        isClaimed = false;
        return 1;
    }

    /**
     * @return the buffer to encode into after a successful {@link #claim(int)}.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the offset to encode at after a successful {@link #claim(int)}.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * Publish what was encoded since the last successful {@link #claim(int)}.
     *
     * @return the new stream position, or the negative Publication code when an offered (large) message could not
     * be sent within the attempts.
     */
    public long commit()
    {
        if (isClaimed)
        {
            isClaimed = false;
            claim.commit();
            ringer.published();
            return publication.position();
        }
        return offer(scratch, 0, length);
    }

    /**
     * Publish what was encoded since the last successful {@link #claim(int)} without waking subscribers that sleep:
     * for a heartbeat, which waits for their tick, so an idle stream wakes nobody between ticks. A later message
     * that wakes them, or their tick, delivers it. New sleepers of the stream are still looked up and greeted, so
     * they know this publisher will ring for what matters.
     *
     * @return as {@link #commit()}.
     */
    public long commitQuietly()
    {
        if (isClaimed)
        {
            isClaimed = false;
            claim.commit();
            ringer.lookUpIfDue();
            return publication.position();
        }
        return offerQuietly(scratch, 0, length);
    }

    /**
     * Give back a claim without publishing (the space becomes padding).
     */
    public void abort()
    {
        if (isClaimed)
        {
            isClaimed = false;
            claim.abort();
        }
    }

    /**
     * Offer an already encoded message.
     *
     * @param source the message.
     * @param index  where it starts.
     * @param count  its length.
     * @return the new position, or the negative Publication code.
     */
    public long offer(final DirectBuffer source, final int index, final int count)
    {
        final long result = offerWithRetries(source, index, count);
        if (result > 0)
        {
            ringer.published();
        }
        return result;
    }

    /**
     * Offer an already encoded message without waking subscribers that sleep (see {@link #commitQuietly()}).
     *
     * @param source the message.
     * @param index  where it starts.
     * @param count  its length.
     * @return the new position, or the negative Publication code.
     */
    public long offerQuietly(final DirectBuffer source, final int index, final int count)
    {
        final long result = offerWithRetries(source, index, count);
        if (result > 0)
        {
            ringer.lookUpIfDue(); // the sleepers hear of this publisher before it has anything that rings
        }
        return result;
    }

    private long offerWithRetries(final DirectBuffer source, final int index, final int count)
    {
        long result = 0;
        for (int attempt = 0; attempt < maxAttempts; attempt++)
        {
            result = publication.offer(source, index, count);
            if (result > 0 || !shouldRetry(result))
            {
                return result;
            }
        }
        return result;
    }

    /**
     * Wake the stream's subscribers that sleep if anything was published since the last call: at the end of a burst,
     * so that a sleeper wakes once for all of it.
     *
     * @return true when it rang.
     */
    public boolean ringIfPublished()
    {
        return ringer.ringIfPublished();
    }

    /**
     * @return true when at least one subscriber is connected.
     */
    public boolean isConnected()
    {
        return publication.isConnected();
    }

    private boolean shouldRetry(final long result)
    {
        if (Publication.BACK_PRESSURED == result || Publication.ADMIN_ACTION == result)
        {
            backPressureEvents.increment();
            return true;
        }
        if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
        {
            throw new AeronException("backbone publication unusable (" + Publication.errorString(result) + "): " +
                publication.channel() + " stream " + publication.streamId());
        }
        return false; // NOT_CONNECTED: nobody listens yet, which is not an error
    }
}
