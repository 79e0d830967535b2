package io.mdhub.p2p.websocket;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.CharsetUtil;

/**
 * Serves the quote page from the jar on the WebSocket API's port: {@code GET} or {@code HEAD} of {@code /} (the
 * page) or of one of the few files it names, all read once at start from {@value #FOLDER}. Only those exact names
 * are served, so no path (with {@code ..} or otherwise) reaches anything else; other paths get 404, other methods
 * 405. The page costs the workers nothing: no consumer session exists until a connection upgrades, and this handler
 * leaves the pipeline when it does.
 */
@ChannelHandler.Sharable
final class StaticPage extends ChannelInboundHandlerAdapter
{
    /** Where the page's files are on the class path. */
    static final String FOLDER = "/io/mdhub/p2p/web/";

    private static final String INDEX = "index.html";
    private static final String[][] FILES = {
        {INDEX, "text/html; charset=utf-8"},
        {"quote.js", "text/javascript; charset=utf-8"},
        {"quote.css", "text/css; charset=utf-8"},
    };
    private static final String ALLOW = "GET, HEAD";

    private final Map<String, File> files = new HashMap<>();

    private record File(ByteBuf content, String contentType)
    {
    }

    StaticPage()
    {
        for (final String[] file : FILES)
        {
            files.put("/" + file[0], new File(Unpooled.unreleasableBuffer(
                Unpooled.wrappedBuffer(read(file[0])).asReadOnly()), file[1]));
        }
        files.put("/", files.get("/" + INDEX));
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (!(msg instanceof FullHttpRequest))
        {
            ctx.fireChannelRead(msg);
            return;
        }
        final FullHttpRequest request = (FullHttpRequest)msg;
        try
        {
            final boolean isHead = HttpMethod.HEAD.equals(request.method());
            final FullHttpResponse response;
            if (!isHead && !HttpMethod.GET.equals(request.method()))
            {
                response = text(request, HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are served\n");
                response.headers().set(HttpHeaderNames.ALLOW, ALLOW);
            }
            else
            {
                final File file = files.get(new QueryStringDecoder(request.uri()).path());
                response = null == file ?
                    text(request, HttpResponseStatus.NOT_FOUND, "not found; the quote page is at /, the WebSocket " +
                        "API at " + WebSocketListener.PATH + "\n") :
                    file(request, file, isHead);
            }
            send(ctx, request, response);
        }
        finally
        {
            request.release();
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete)
        {
            ctx.pipeline().remove(ctx.name());
        }
        ctx.fireUserEventTriggered(evt);
    }

    private static FullHttpResponse file(final FullHttpRequest request, final File file, final boolean isHead)
    {
        final int length = file.content().readableBytes();
        final FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
            HttpResponseStatus.OK, isHead ? Unpooled.EMPTY_BUFFER : file.content().duplicate());
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, file.contentType())
            .setInt(HttpHeaderNames.CONTENT_LENGTH, length)
            .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
            .set("X-Content-Type-Options", "nosniff");
        return response;
    }

    private static FullHttpResponse text(
        final FullHttpRequest request, final HttpResponseStatus status, final String text)
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), status,
            Unpooled.copiedBuffer(text, CharsetUtil.US_ASCII));
        response.headers()
            .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=us-ascii")
            .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        return response;
    }

    /**
     * A browser fetches the page and its files over one kept-alive connection; a client that asks to close gets
     * its connection closed after the answer.
     */
    private static void send(final ChannelHandlerContext ctx, final FullHttpRequest request,
        final FullHttpResponse response)
    {
        final boolean isKeepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, isKeepAlive);
        if (isKeepAlive)
        {
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
        else
        {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static byte[] read(final String name)
    {
        try (InputStream in = StaticPage.class.getResourceAsStream(FOLDER + name))
        {
            if (null == in)
            {
                throw new IllegalStateException("the quote page's " + FOLDER + name + " is not in the jar");
            }
            return in.readAllBytes();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
