package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.entitlement.UserRights;
import io.mdhub.common.ripc.MessageCopyWriter;
import io.mdhub.common.ripc.RipcMessageHandler;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.p2p.DisconnectReason;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer connection: the application handler at the end of its RIPC pipeline, and its state in the fan-out
 * worker that owns it (login, directory stream, watchlist of item streams, output accounting). Every method runs on
 * the worker's event loop. It releases every inbound message after the worker has handled it, and writes pooled
 * buffers the RIPC encoder then owns.
 */
public final class ConsumerSession extends RipcMessageHandler
{
    /**
     * How long a connection whose login was rejected stays open for the consumer to read the status.
     */
    static final long REJECT_LINGER_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerSession.class);

    final long connectionId;
    final boolean isLatencyProfile;
    final Int2ObjectHashMap<ItemWatch> watches = new Int2ObjectHashMap<>();
    /**
     * Streams that missed updates (conflate policy), in no order: a stream goes on when it misses its first. One a
     * refresh brought up to date before its turn, or closed, stays on (its turn sends nothing), so a stream that
     * misses updates again after such a refresh can be on twice.
     */
    final ArrayList<ItemWatch> conflated = new ArrayList<>();
    private final FanOutWorker worker;
    private ChannelHandlerContext ctx;
    private MessageCopyWriter encoder;
    private RipcSession ripcSession;
    boolean isLoggedIn;
    int loginStreamId;
    String userName = "";
    /** What the user may see and do, as the entitlements stood at the login or their last change. */
    UserRights rights = UserRights.ALL;
    /** The login's application id and position ("" when it gave none): kept for re-checks and usage records. */
    String application = "";
    String position = "";
    /**
     * The token the user logged in with (null for a login by name): a change of the entitlements checks it again, so
     * a token revoked in the file ends the session it opened.
     */
    String loginToken;
    int directoryStreamId;
    long directoryFilter;
    int directoryServiceId = -1;
    boolean isDirty;
    boolean isClosing;
    /** A message was ignored on this connection already (logged once, counted always). */
    boolean hasIgnoredMessage;
    private boolean isRejected;
    private long unwritableSinceNs;
    private long lastPendingBytes;
    private long stalledSinceNs;
    /** Output the socket had not taken right after the last flush. */
    private long pendingAtFlush;
    private long loginClockNs;
    private final Runnable caughtUpTask = this::caughtUp;
    private boolean isCaughtUpScheduled;
    /** What waited for the consumer when the server closed its connection (released with the connection). */
    private long outputBytesAtClose;

    ConsumerSession(final FanOutWorker worker, final long connectionId, final boolean isLatencyProfile)
    {
        this.worker = worker;
        this.connectionId = connectionId;
        this.isLatencyProfile = isLatencyProfile;
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        worker.onSessionOpened(this);
    }

    /**
     * The connection has no login from now on (handshake done, or the consumer logged off) and must send one within
     * the login timeout.
     */
    void startLoginClock(final long nowNs)
    {
        loginClockNs = nowNs;
    }

    /**
     * @return true if the handshake is done, no login is in force, and the timeout has passed since the handshake or
     *         the logoff.
     */
    boolean isLoginOverdue(final long nowNs, final long loginTimeoutNs)
    {
        return null != ripcSession && !isLoggedIn && !isRejected && nowNs - loginClockNs >= loginTimeoutNs;
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        isClosing = true;
        worker.onSessionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof RipcSession)
        {
            ripcSession = (RipcSession)evt;
            startLoginClock(System.nanoTime());
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    protected boolean isTakingMessages()
    {
        return !isClosing && !isRejected;
    }

    @Override
    protected void onMessage(final ByteBuf message)
    {
        worker.onConsumerMessage(this, message);
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        worker.onReadComplete();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        final boolean isWritable = ctx.channel().isWritable();
        unwritableSinceNs = isWritable ? 0 : Math.max(1, System.nanoTime());
        if (isWritable && !conflated.isEmpty() && !isCaughtUpScheduled)
        {
            // Netty tells of writability from inside a flush (the worker's flush loop among others): what the
            // consumer missed is written from a task of its own, never from inside someone else's flush
            isCaughtUpScheduled = true;
            ctx.executor().execute(caughtUpTask);
        }
        ctx.fireChannelWritabilityChanged();
    }

    ByteBufAllocator alloc()
    {
        return ctx.alloc();
    }

    /**
     * @return the largest message the consumer takes unfragmented (6144 before the handshake completed).
     */
    int maxUserMsgSize()
    {
        return null != ripcSession ? ripcSession.maxUserMsgSize() : 6144;
    }

    /**
     * Queue a message for this consumer (flushed by the worker's flush profile); the encoder owns the buffer. A
     * consumer whose pending output passes the limit is disconnected here, so fan-out never waits for it.
     */
    void write(final ByteBuf message)
    {
        if (isClosing || !hasOutputRoom())
        {
            message.release();
            return;
        }
        ctx.write(message, ctx.voidPromise());
        written();
    }

    /**
     * Fan out a source message (update, status) to this consumer: a copy with the consumer's streamId through the
     * connection's {@link MessageCopyWriter} (packed straight into the RIPC encoder's frame, or the WebSocket API's
     * JSON converted once for all its consumers) or, when it declines, written as a message buffer from
     * {@code messages}.
     */
    void writeCopy(
        final DirectBuffer source, final int offset, final int length, final int streamId, final ItemMessages messages)
    {
        if (isClosing || !hasOutputRoom())
        {
            return;
        }
        if (null == encoder)
        {
            encoder = ctx.pipeline().get(MessageCopyWriter.class);
        }
        if (null != encoder &&
            encoder.writePackedCopy(source, offset, length, RwfMsgDescriptor.STREAM_ID_OFFSET, streamId))
        {
            written();
            return;
        }
        write(messages.copyWithStreamId(ctx.alloc(), source, offset, length, streamId));
    }

    /**
     * Conflate policy: whether an update for a stream is held back. It is while the stream already missed updates
     * (its conflated update brings them), and from the moment the connection is unwritable (its output passed the
     * guaranteed output): the stream is then listed, once, and only counts what it misses. Allocates nothing but the
     * list's growth.
     *
     * @return true if the update is not to be written to this stream.
     */
    boolean holdsBackUpdate(final ItemWatch watch)
    {
        if (0 != watch.conflatedUpdates)
        {
            if (Integer.MAX_VALUE != watch.conflatedUpdates)
            {
                watch.conflatedUpdates++;
            }
            return true;
        }
        if (ctx.channel().isWritable())
        {
            return false;
        }
        watch.conflatedUpdates = 1;
        watch.conflatedSinceNs = System.nanoTime();
        conflated.add(watch);
        return true;
    }

    private void caughtUp()
    {
        isCaughtUpScheduled = false;
        if (!isClosing)
        {
            worker.onCaughtUp(this);
        }
    }

    boolean isWritable()
    {
        return ctx.channel().isWritable();
    }

    /**
     * @return false after disconnecting a consumer whose pending output passed the limit, so fan-out never waits.
     */
    private boolean hasOutputRoom()
    {
        if (!ctx.channel().isWritable() && pendingOutputBytes() > worker.maxOutputBytes())
        {
            disconnect(DisconnectReason.SLOW_CONSUMER, "pending output " + pendingOutputBytes() +
                " bytes above the limit " + worker.maxOutputBytes());
            return false;
        }
        return true;
    }

    private void written()
    {
        worker.messageWritten();
        if (!isDirty)
        {
            isDirty = true;
            worker.markDirty(this);
        }
    }

    void flush()
    {
        isDirty = false;
        if (!isClosing)
        {
            ctx.flush();
            pendingAtFlush = pendingOutputBytes();
        }
    }

    long pendingOutputBytes()
    {
        final ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        return null == outbound ? 0 : outbound.totalPendingWriteBytes();
    }

    /**
     * A consumer that stops reading with less queued than makes its channel unwritable would otherwise be held until
     * its ping timeout: its output is stalled when what waits for it has not shrunk between two checks, for longer
     * than the timeout. While writes wait for the next flush (a throughput connection between its flush ticks), what
     * they add says nothing of the consumer, so the check reads what the socket left waiting after the last flush.
     *
     * @param nowNs     now (housekeeping calls this a few times a second).
     * @param timeoutNs how long the output may stay stalled.
     * @return true if output has waited without draining for longer than the timeout.
     */
    boolean isStalledLongerThan(final long nowNs, final long timeoutNs)
    {
        final long pending = isDirty ? pendingAtFlush : pendingOutputBytes();
        final boolean isDraining = 0 == pending || pending < lastPendingBytes;
        lastPendingBytes = pending;
        if (isDraining)
        {
            stalledSinceNs = 0;
            return false;
        }
        if (0 == stalledSinceNs)
        {
            stalledSinceNs = nowNs;
            return false;
        }
        return nowNs - stalledSinceNs > timeoutNs;
    }

    boolean isUnwritableLongerThan(final long nowNs, final long timeoutNs)
    {
        return 0 != unwritableSinceNs && nowNs - unwritableSinceNs > timeoutNs;
    }

    /**
     * Close this consumer's connection for a reason (counted and logged once).
     */
    void disconnect(final DisconnectReason reason, final String detail)
    {
        if (isClosing)
        {
            return;
        }
        isClosing = true;
        outputBytesAtClose = pendingOutputBytes();
        worker.countDisconnect(reason);
        if (worker.isDisconnectLogged(reason, "connection " + connectionId + " (" + remoteAddress() + " user=" +
            userName + ") " + detail))
        {
            LOG.warn("consumer connection {} ({} user={}) disconnected: {}: {}", connectionId, remoteAddress(),
                userName, reason.label(), detail);
        }
        ctx.channel().close();
    }

    /**
     * Flush what was written (a rejected login's status), ignore all further input, and close a little later: an
     * ETA client that reads the status and the connection's end in one read drops the status, so the close waits
     * {@link #REJECT_LINGER_MS} unless the consumer closes first.
     */
    void closeAfterLinger(final DisconnectReason reason, final String detail)
    {
        if (isClosing || isRejected)
        {
            return;
        }
        isRejected = true;
        ctx.flush();
        worker.countDisconnect(reason);
        LOG.warn("consumer connection {} ({} user={}) disconnected: {}: {}", connectionId, remoteAddress(), userName,
            reason.label(), detail);
        ctx.executor().schedule(this::closeNow, REJECT_LINGER_MS, TimeUnit.MILLISECONDS);
    }

    private void closeNow()
    {
        isClosing = true;
        ctx.channel().close();
    }

    /**
     * @return output that waited for the consumer when the server closed the connection (0 if it closed otherwise).
     */
    long outputBytesAtClose()
    {
        return outputBytesAtClose;
    }

    /**
     * @return the remote host's address (no port): what failed logins are throttled by.
     */
    String remoteHost()
    {
        final java.net.SocketAddress remote = ctx.channel().remoteAddress();
        return remote instanceof java.net.InetSocketAddress ?
            ((java.net.InetSocketAddress)remote).getAddress().getHostAddress() : String.valueOf(remote);
    }

    String remoteAddress()
    {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    String describe()
    {
        return "id=" + connectionId + " remote=" + remoteAddress() + " user=" + userName + " watchlist=" +
            watches.size() + " outputBytes=" + pendingOutputBytes() + " writable=" + ctx.channel().isWritable();
    }
}
