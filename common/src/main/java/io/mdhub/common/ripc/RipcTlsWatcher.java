package io.mdhub.common.ripc;

import javax.net.ssl.SSLException;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * Sits right behind the {@code SslHandler} of a TLS connection until its TLS handshake ends: a success is counted
 * and the watcher leaves the pipeline; a failure (a plain-TCP peer, an untrusted or missing certificate, no common
 * protocol) is counted once, and the connection ends with reason {@link RipcDisconnectReason#TLS_HANDSHAKE} unless
 * it already ended for another (e.g. the handshake timeout, which covers TLS and RIPC handshakes together). The
 * exception the {@code SslHandler} raises for the same failure is swallowed here, so the connection gets one
 * summarised log line from {@link RipcDisconnects}, not a stack trace. Per channel, not shareable. Public for a
 * listener that carries RIPC inside another protocol on a TLS socket of its own (the WebSocket API's port): its TLS
 * handshakes count with the RIPC counters of its {@link RipcServerPhases}.
 */
public final class RipcTlsWatcher extends ChannelInboundHandlerAdapter
{
    private final RipcCounters counters;
    private final RipcDisconnects disconnects;
    private boolean isFailed;

    /**
     * @param settings where the handshakes are counted ({@link RipcCounters}) and a failure ends the connection
     *                 ({@link RipcDisconnects}).
     */
    public RipcTlsWatcher(final RipcChannelSettings settings)
    {
        this.counters = settings.counters();
        this.disconnects = settings.disconnects();
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof SslHandshakeCompletionEvent)
        {
            final SslHandshakeCompletionEvent completion = (SslHandshakeCompletionEvent)event;
            if (completion.isSuccess())
            {
                counters.tlsHandshakesCompleted().increment();
                ctx.pipeline().remove(this);
            }
            else
            {
                fail(ctx, completion.cause());
            }
            return; // TLS is this layer's business: the RIPC handlers behind never see its events
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) throws Exception
    {
        if (isFailed || isTlsFailure(cause))
        {
            fail(ctx, cause);
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    private void fail(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (!isFailed)
        {
            isFailed = true;
            counters.tlsHandshakeFailures().increment();
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.TLS_HANDSHAKE, describe(cause));
        }
    }

    private static boolean isTlsFailure(final Throwable cause)
    {
        return cause instanceof SSLException ||
            (cause instanceof DecoderException && cause.getCause() instanceof SSLException);
    }

    private static String describe(final Throwable cause)
    {
        final Throwable root = cause instanceof DecoderException && null != cause.getCause() ?
            cause.getCause() : cause;
        if (root instanceof NotSslRecordException)
        {
            return "not a TLS record (a plain-TCP client?)"; // its message is a hex dump of the bytes
        }
        final String text = String.valueOf(root.getMessage());
        return root.getClass().getSimpleName() + ": " + (text.length() > 120 ? text.substring(0, 120) + "..." : text);
    }
}
