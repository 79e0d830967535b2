package io.mdhub.common.order.client;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.ClientHelloEncoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.net.FrameConnection;

/**
 * Encodes ClientHello and SubmitOrder for one server and queues them on its connection; they go out with the
 * client's next flush (one write for every order of a poll). A connection that cannot take a message — its send
 * limit reached because the server reads slower than the client sends — says {@link #BACK_PRESSURED}, and the caller
 * keeps the order and tries again later; one that is not open says {@link #NOT_CONNECTED}. Not thread safe.
 */
final class OrderIngressPublisher
{
    /** The message was queued. */
    static final long SENT = 1;
    /** The connection is not open (connecting, or lost). */
    static final long NOT_CONNECTED = -1;
    /** The connection's send limit is reached: try again after the server has read. */
    static final long BACK_PRESSURED = -2;

    private static final int HELLO_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH +
        ClientHelloEncoder.BLOCK_LENGTH + ClientHelloEncoder.responseChannelHeaderLength();
    private static final int SUBMIT_FIXED_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH +
        SubmitOrderEncoder.BLOCK_LENGTH + SubmitOrderEncoder.fixHeaderLength();

    private final UnsafeBuffer scratch;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ClientHelloEncoder hello = new ClientHelloEncoder();
    private final SubmitOrderEncoder submit = new SubmitOrderEncoder();
    private FrameConnection connection;
    private long backPressureEvents;

    /**
     * @param maxOrderLength longest FIX message to be sent.
     */
    OrderIngressPublisher(final int maxOrderLength)
    {
        this.scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(SUBMIT_FIXED_LENGTH + Math.max(maxOrderLength, 4096), 64), 64));
    }

    /**
     * @param connection the server's connection now (a new one after each reconnect).
     */
    void connection(final FrameConnection connection)
    {
        this.connection = connection;
    }

    /**
     * @param clientId this client: the server answers it on this connection.
     * @return {@link #SENT}, {@link #NOT_CONNECTED} or {@link #BACK_PRESSURED}.
     */
    long sendHello(final long clientId)
    {
        hello.wrapAndApplyHeader(scratch, 0, header)
            .clientId(clientId)
            .responseStreamId(0)
            .putResponseChannel(scratch, 0, 0); // answers come back on the connection: no channel to name
        return offer(HELLO_LENGTH);
    }

    /**
     * @param clientId        this client.
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param sendTimestampNs echoed in the answer.
     * @param fix             the FIX message.
     * @param offset          where it starts.
     * @param length          its length.
     * @return {@link #SENT}, {@link #NOT_CONNECTED} or {@link #BACK_PRESSURED}.
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
        submit.wrapAndApplyHeader(scratch, 0, header)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .sendTimestampNs(sendTimestampNs)
            .putFix(fix, offset, length);
        return offer(SUBMIT_FIXED_LENGTH + length);
    }

    /**
     * @return true while the server's connection is open.
     */
    boolean isConnected()
    {
        return null != connection && connection.isOpen();
    }

    /**
     * @return sends refused by a full connection so far.
     */
    long backPressureEvents()
    {
        return backPressureEvents;
    }

    private long offer(final int length)
    {
        if (!isConnected())
        {
            return NOT_CONNECTED;
        }
        if (connection.offer(scratch, 0, length))
        {
            return SENT;
        }
        backPressureEvents++;
        return BACK_PRESSURED;
    }
}
