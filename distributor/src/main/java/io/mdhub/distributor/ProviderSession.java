package io.mdhub.distributor;

import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * A non-interactive provider that connected to the distributor: the {@link ProviderLink} that logs the provider in
 * (Role must be provider), answers with a Login refresh or a rejecting status, and dispatches directory messages to
 * the {@link DirectoryFeed} and item messages to the {@link ItemFeed}. The provider pushes: every item it publishes is
 * cached and broadcast on the backbone.
 * <p>
 * Once logged in, its reading follows the {@link ProviderReadGate}: the backbone publisher pauses it (Netty autoRead
 * off, so the provider's TCP writes back up) while live data waits for the backbone, and a long pause gets one
 * keep-alive read per interval so the provider's pings still arrive.
 * <p>
 * A connection that has not sent its login request {@code mdhub.distributor.login.timeout} after the handshake is
 * closed: otherwise connections that handshake, ping and never log in would hold the provider slots for good.
 */
final class ProviderSession extends ProviderLink
{
    private static final int STATUS_CAPACITY = 512;
    private static final long REJECT_CLOSE_DELAY_MS = 500;
    private static final int LOGIN_CAPACITY = 2048;

    private final LoginRequestDecoder loginDecoder;
    private final LoginResponseEncoder loginEncoder;
    private final Buffer loginAcceptText;
    private final Buffer loginRejectText;
    private ScheduledFuture<?> loginDeadline;

    ProviderSession(final DistributorCore core)
    {
        super(core);
        this.loginDecoder = core.loginDecoder;
        this.loginEncoder = core.loginEncoder;
        this.loginAcceptText = core.loginAcceptText;
        this.loginRejectText = core.loginRejectText;
    }

    @Override
    String kind()
    {
        return "connected";
    }

    @Override
    void onActive()
    {
        loginDeadline = ctx.executor().schedule(this::loginOverdue, core.loginTimeoutNs, TimeUnit.NANOSECONDS);
    }

    @Override
    void onInactive()
    {
        cancelLoginDeadline();
    }

    private void loginOverdue()
    {
        loginDeadline = null;
        if (isActive && !isLoggedIn)
        {
            disconnect(ProviderDisconnectReason.LOGIN_TIMEOUT, "no login request within " +
                TimeUnit.NANOSECONDS.toMillis(core.loginTimeoutNs) + " ms (mdhub.distributor.login.timeout)");
        }
    }

    private void cancelLoginDeadline()
    {
        if (null != loginDeadline)
        {
            loginDeadline.cancel(false);
            loginDeadline = null;
        }
    }

    @Override
    void onMessage(final ByteBuf message, final DirectBuffer buffer)
    {
        final int domainType = core.msg.domainType();
        if (DomainTypes.LOGIN == domainType)
        {
            onLogin(message);
        }
        else if (!isLoggedIn)
        {
            disconnect(ProviderDisconnectReason.NOT_LOGGED_IN, "domain " + domainType + " before the login");
        }
        else if (DomainTypes.SOURCE == domainType)
        {
            core.directoryFeed.onMessage(this, message);
        }
        else
        {
            core.items.onMessage(this, message, buffer);
        }
    }

    private void onLogin(final ByteBuf message)
    {
        final int msgClass = core.msg.msgClass();
        if (MsgClasses.CLOSE == msgClass)
        {
            disconnect(ProviderDisconnectReason.LOGIN_CLOSED, "user " + userName);
            return;
        }
        if (MsgClasses.REQUEST != msgClass)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        if (CodecReturnCodes.SUCCESS != core.reader.read(message, message.readerIndex(), message.readableBytes()) ||
            CodecReturnCodes.SUCCESS != loginDecoder.decode(core.reader))
        {
            disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN, "login request");
            return;
        }
        final int streamId = loginDecoder.request().streamId();
        if (!loginDecoder.isProvider())
        {
            rejectLogin(streamId, StateCodes.USAGE_ERROR, loginRejectText, "role is not provider");
            return;
        }
        final String denial = core.entitlements.loginDenial(
            loginDecoder.request().userName().toString(), remoteHost(), System.nanoTime());
        if (null != denial)
        {
            final Buffer text = com.refinitiv.eta.codec.CodecFactory.createBuffer();
            text.data(denial);
            rejectLogin(streamId, StateCodes.NOT_ENTITLED, text, denial);
            return;
        }
        // the refresh echoes the request's attributes (application name, position ...): room for all of them
        final ByteBuf refresh =
            RipcFrameEncoder.newMessageBuffer(ctx.alloc(), LOGIN_CAPACITY + message.readableBytes());
        final int result = loginEncoder.encodeAccept(
            core.writer.begin(refresh, refresh.writerIndex(), refresh.writableBytes()),
            loginDecoder.request(), false, true, loginAcceptText);
        if (CodecReturnCodes.SUCCESS != result)
        {
            refresh.release();
            disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN, "login refresh: " +
                CodecReturnCodes.toString(result));
            return;
        }
        refresh.writerIndex(refresh.writerIndex() + core.writer.encodedLength());
        write(refresh);
        cancelLoginDeadline();
        loggedIn(loginDecoder.request().userName().toString());
    }

    private void rejectLogin(final int streamId, final int code, final Buffer text, final String why)
    {
        core.counters.loginsRejected().increment();
        final ByteBuf status = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), STATUS_CAPACITY);
        final int result = loginEncoder.encodeReject(
            core.writer.begin(status, status.writerIndex(), status.writableBytes()), streamId,
            code, text);
        if (CodecReturnCodes.SUCCESS != result)
        {
            status.release();
            disconnect(ProviderDisconnectReason.LOGIN_REJECTED, "consumer role (reject not encodable)");
            return;
        }
        status.writerIndex(status.writerIndex() + core.writer.encodedLength());
        record(ProviderDisconnectReason.LOGIN_REJECTED, why);
        // ETA drops data that arrives together with the connection close, so give the peer time to read the status
        ctx.writeAndFlush(status);
        ctx.executor().schedule(() -> channel.close(), REJECT_CLOSE_DELAY_MS, TimeUnit.MILLISECONDS);
    }
}
