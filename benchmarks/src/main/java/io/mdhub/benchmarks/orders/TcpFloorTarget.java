package io.mdhub.benchmarks.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

import io.mdhub.orderprobe.probe.OrderFailedException;
import io.mdhub.orderprobe.probe.OrderTarget;
import io.mdhub.orderprobe.probe.OrderTargets;

/**
 * The order probe's {@code tcp-floor} target: each publisher its own blocking socket to the floor's primary
 * ({@link TcpFloorPrimary}), TCP_NODELAY; an order is one frame written, and the publisher blocks reading its
 * answer. Options: {@code primary=HOST:PORT} (required), {@code timeout.ms} (how long an answer may take before the
 * order fails and the session with it; default 10,000).
 */
public final class TcpFloorTarget implements OrderTarget
{
    /** The name the probe's {@code --target} selects it by. */
    public static final String NAME = "tcp-floor";
    /** Option: the primary's address. */
    public static final String PRIMARY = "primary";
    /** Option: the answer timeout. */
    public static final String TIMEOUT_MS = "timeout.ms";
    private static final int TIMEOUT_MS_DEFAULT = 10_000;

    private final InetSocketAddress primary;
    private final int timeoutMs;

    /**
     * @param primary   the primary's address.
     * @param timeoutMs how long an answer may take.
     */
    public TcpFloorTarget(final InetSocketAddress primary, final int timeoutMs)
    {
        this.primary = primary;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Session connect(final int publisher, final long clientId)
    {
        final Socket socket = new Socket();
        try
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMs);
            socket.connect(primary, timeoutMs);
            return new FloorSession(socket, clientId);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(socket);
            throw new UncheckedIOException("cannot connect to the tcp floor primary at " + primary, ex);
        }
    }

    @Override
    public void close()
    {
        // every socket belongs to its session
    }

    private static final class FloorSession implements Session
    {
        private final Socket socket;
        private final long clientId;
        private final OutputStream out;
        private final TcpFloorFrame.Reader reader;
        private final TcpFloorFrame.Writer writer = new TcpFloorFrame.Writer();
        private boolean isBroken;

        FloorSession(final Socket socket, final long clientId) throws IOException
        {
            this.socket = socket;
            this.clientId = clientId;
            this.out = socket.getOutputStream();
            this.reader = new TcpFloorFrame.Reader(socket.getInputStream());
        }

        @Override
        public boolean isReady()
        {
            return true;
        }

        @Override
        public int poll()
        {
            return 0;
        }

        @Override
        public void submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
        {
            if (isBroken)
            {
                throw new IllegalStateException("an earlier answer never came: the connection is out of step");
            }
            try
            {
                writer.write(out, clientId, orderId, fix, offset, length);
                if (!reader.read())
                {
                    throw new UncheckedIOException(new IOException("the tcp floor primary closed the connection"));
                }
            }
            catch (final SocketTimeoutException ex)
            {
                isBroken = true;
                throw new OrderFailedException("no answer to order " + orderId + " within the timeout", ex);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("order " + orderId + " to the tcp floor", ex);
            }
            if (reader.orderId != orderId || reader.clientId != clientId)
            {
                throw new IllegalStateException("client " + clientId + " got the answer for order " +
                    reader.clientId + "/" + reader.orderId + " to its order " + orderId);
            }
        }

        @Override
        public void close()
        {
            CloseHelper.quietClose(socket);
        }
    }

    /**
     * Makes the target from the probe's options.
     */
    public static final class Factory implements OrderTarget.Factory
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public OrderTarget create(final Map<String, String> options)
        {
            return new TcpFloorTarget(
                TcpFloorServer.parse(OrderTargets.required(options, NAME, PRIMARY, "HOST:PORT")),
                OrderTargets.intOption(options, TIMEOUT_MS, TIMEOUT_MS_DEFAULT));
        }
    }
}
