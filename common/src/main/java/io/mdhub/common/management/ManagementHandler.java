package io.mdhub.common.management;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;

/**
 * One management connection: answers each complete request through {@link ManagementRequests}; a request that does
 * not decode gets 400 and the connection is closed; an idle connection is closed.
 */
final class ManagementHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    private final ManagementRequests requests;

    ManagementHandler(final ManagementRequests requests)
    {
        this.requests = requests;
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        if (request.decoderResult().isFailure())
        {
            final Throwable cause = request.decoderResult().cause();
            requests.malformed(ctx.channel(), String.valueOf(cause));
            final HttpResponseStatus status = cause instanceof TooLongFrameException ?
                HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE : HttpResponseStatus.BAD_REQUEST;
            respond(ctx, status, ManagementRequests.TEXT_TYPE, "bad request: " + cause.getMessage() + "\n", false);
            return;
        }
        final ManagementRequests.Answer answer =
            requests.answer(request.method(), request.uri(), request.headers().get(HttpHeaderNames.ACCEPT));
        respond(ctx, answer.status(), answer.contentType(), answer.body(), HttpUtil.isKeepAlive(request));
    }

    private static void respond(
        final ChannelHandlerContext ctx,
        final HttpResponseStatus status,
        final String contentType,
        final String body,
        final boolean isKeepAlive)
    {
        final ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
            .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        if (isKeepAlive)
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
        else
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event)
    {
        if (event instanceof IdleStateEvent)
        {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        requests.malformed(ctx.channel(), String.valueOf(cause));
        ctx.close();
    }
}
