package io.mdhub.common.order.client;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import io.mdhub.common.codecs.order.ClientHelloEncoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.concurrent.DoorbellRinger;

/**
 * Encodes ClientHello and SubmitOrder onto one server's ingress publication, with the back-pressure policy of
 * STYLE.md §2.6: a message that fits in one frame is encoded in place ({@code tryClaim}), a longer one into a scratch
 * buffer and offered; {@code BACK_PRESSURED} and {@code ADMIN_ACTION} are retried a bounded number of times and
 * counted, then the negative code goes back to the caller, who keeps the order and tries again later;
 * {@code NOT_CONNECTED} is returned at once; {@code CLOSED} and {@code MAX_POSITION_EXCEEDED} throw. Not thread safe.
 */
final class OrderIngressPublisher implements AutoCloseable
{
    private static final int HELLO_FIXED_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH +
        ClientHelloEncoder.BLOCK_LENGTH + ClientHelloEncoder.responseChannelHeaderLength();
    private static final int SUBMIT_FIXED_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH +
        SubmitOrderEncoder.BLOCK_LENGTH + SubmitOrderEncoder.fixHeaderLength();

    private final ExclusivePublication publication;
    private final DoorbellRinger ringer;
    private final int maxAttempts;
    private final BufferClaim claim = new BufferClaim();
    private final UnsafeBuffer scratch;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ClientHelloEncoder hello = new ClientHelloEncoder();
    private final SubmitOrderEncoder submit = new SubmitOrderEncoder();
    private long backPressureEvents;

    /**
     * @param publication    the server's ingress (exclusive: the client's thread alone publishes).
     * @param ringer         wakes the server's agent after each message (see DoorbellRinger).
     * @param maxAttempts    attempts per message while back-pressured, at least 1.
     * @param maxOrderLength longest FIX message to be sent.
     */
    OrderIngressPublisher(
        final ExclusivePublication publication,
        final DoorbellRinger ringer,
        final int maxAttempts,
        final int maxOrderLength)
    {
        this.publication = publication;
        this.ringer = ringer;
        this.maxAttempts = maxAttempts;
        this.scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(SUBMIT_FIXED_LENGTH + Math.max(maxOrderLength, 4096), 64), 64));
    }

    /**
     * @param clientId         this client.
     * @param responseStreamId where this server's pair answers.
     * @param responseChannel  the response channel as ASCII bytes.
     * @return the new position, or the negative {@link Publication} code after the bounded attempts.
     */
    long sendHello(final long clientId, final int responseStreamId, final byte[] responseChannel)
    {
        final int length = HELLO_FIXED_LENGTH + responseChannel.length;
        if (length <= publication.maxPayloadLength())
        {
            final long result = claim(length);
            if (result > 0)
            {
                encodeHello(claim.buffer(), claim.offset(), clientId, responseStreamId, responseChannel);
                commitAndRing();
            }
            return result;
        }
        encodeHello(scratch, 0, clientId, responseStreamId, responseChannel);
        return offer(length);
    }

    /**
     * @param clientId        this client.
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param sendTimestampNs echoed in the answer.
     * @param fix             the FIX message.
     * @param offset          where it starts.
     * @param length          its length.
     * @return the new position, or the negative {@link Publication} code after the bounded attempts.
     */
    long sendOrder(
        final long clientId,
        final long orderId,
        final int partition,
        final long sendTimestampNs,
        final DirectBuffer fix,
        final int offset,
        final int length)
    {
        final int messageLength = SUBMIT_FIXED_LENGTH + length;
        if (messageLength <= publication.maxPayloadLength())
        {
            final long result = claim(messageLength);
            if (result > 0)
            {
                encodeOrder(claim.buffer(), claim.offset(), clientId, orderId, partition, sendTimestampNs, fix,
                    offset, length);
                commitAndRing();
            }
            return result;
        }
        encodeOrder(scratch, 0, clientId, orderId, partition, sendTimestampNs, fix, offset, length);
        return offer(messageLength);
    }

    /**
     * @return true while the server's ingress subscription is connected.
     */
    boolean isConnected()
    {
        return publication.isConnected();
    }

    /**
     * @return back-pressured or admin-action attempts so far.
     */
    long backPressureEvents()
    {
        return backPressureEvents;
    }

    /**
     * Close the publication.
     */
    @Override
    public void close()
    {
        ringer.close();
        publication.close();
    }

    private void encodeHello(
        final MutableDirectBuffer buffer,
        final int offset,
        final long clientId,
        final int responseStreamId,
        final byte[] responseChannel)
    {
        hello.wrapAndApplyHeader(buffer, offset, header)
            .clientId(clientId)
            .responseStreamId(responseStreamId)
            .putResponseChannel(responseChannel, 0, responseChannel.length);
    }

    private void encodeOrder(
        final MutableDirectBuffer buffer,
        final int bufferOffset,
        final long clientId,
        final long orderId,
        final int partition,
        final long sendTimestampNs,
        final DirectBuffer fix,
        final int offset,
        final int length)
    {
        submit.wrapAndApplyHeader(buffer, bufferOffset, header)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .sendTimestampNs(sendTimestampNs)
            .putFix(fix, offset, length);
    }

    /**
     * Claim {@code length} bytes in the log, retrying while back-pressured; on success the caller encodes into
     * {@link #claim} and calls {@link #commitAndRing()}.
     */
    private long claim(final int length)
    {
        long result = 0;
        for (int attempt = 0; attempt < maxAttempts; attempt++)
        {
            result = publication.tryClaim(length, claim);
            if (result > 0 || !shouldRetry(result))
            {
                return result;
            }
        }
        return result;
    }

    private void commitAndRing()
    {
        claim.commit();
        ringer.ring(); // the server's agent may sleep on its doorbell
    }

    /**
     * Offer the scratch buffer's first {@code length} bytes, retrying while back-pressured, and ring once published.
     */
    private long offer(final int length)
    {
        long result = 0;
        for (int attempt = 0; attempt < maxAttempts; attempt++)
        {
            result = publication.offer(scratch, 0, length);
            if (result > 0 || !shouldRetry(result))
            {
                return ringer.ringIfPublished(result);
            }
        }
        return result;
    }

    private boolean shouldRetry(final long result)
    {
        if (Publication.BACK_PRESSURED == result || Publication.ADMIN_ACTION == result)
        {
            backPressureEvents++;
            return true;
        }
        if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
        {
            throw new IllegalStateException("order server ingress unusable (" + Publication.errorString(result) +
                "): " + publication.channel() + " stream " + publication.streamId());
        }
        return false; // NOT_CONNECTED: the server is not there (yet)
    }
}
