package io.mdhub.benchmarks.client;

import io.mdhub.p2p.websocket.WebSocketListener;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.TimeUnit;


import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One consumer connection of the test client over the WebSocket API's JSON ({@code tr_json2}), as the public
 * examples speak it: logs in, opens its share of the universe by name on the client's service (item k of the mount
 * on stream {@link ConsumerMount#FIRST_ITEM_STREAM} + k, a thousand requests to a frame), answers the server's pings
 * and pings it every third of the login's {@code PingTimeout}, then counts what arrives as {@link ConsumerMount} does:
 * the same {@link ItemChecks}, the update counter and origin time read from the JSON fields by name. Frames are read
 * with Jackson's streaming parser, skipping every value it does not need. Runs entirely on its channel's event loop.
 */
final class JsonConsumerMount extends ChannelInboundHandlerAdapter
{
    /** The sub-protocol this mount asks for. */
    private static final int LOGIN_STREAM = 1;
    private static final int REQUESTS_PER_FRAME = 1000;
    private static final int MAX_FRAME_BYTES = 1 << 20;
    private static final int PING_TIMEOUT_DEFAULT_SECONDS = 30;
    private static final String UPDSEQ = "MDH_UPDSEQ";
    private static final String ORGTIM = "MDH_ORGTIM";

    private final TestClient.Context settings;
    private final MountStats stats;
    private final int[] itemIndexes;
    private final ItemChecks checks;
    private final JsonFactory json = new JsonFactory();
    private final Message message = new Message();
    private final FieldReader messageFields = this::messageField;
    private final FieldReader stateFields = this::stateField;
    private final FieldReader fieldListFields = this::fieldListField;
    private final FieldReader keyFields = this::keyField;
    private final FieldReader elementFields = this::elementField;
    private JsonParser parser;
    private byte[] frameBytes = new byte[64 * 1024];
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> pings;
    private int nextRequest;

    /**
     * What one JSON message said, reset for each.
     */
    private static final class Message
    {
        int id;
        String type;
        String domain;
        int streamState;
        int dataState;
        long sequence;
        long pingTimeoutSeconds;

        void reset()
        {
            id = Integer.MIN_VALUE;
            type = null;
            domain = null;
            streamState = StreamStates.UNSPECIFIED;
            dataState = DataStates.NO_CHANGE;
            sequence = -1;
            pingTimeoutSeconds = PING_TIMEOUT_DEFAULT_SECONDS;
        }
    }

    /**
     * @param settings the client's settings.
     * @param stats    the mount's counters.
     * @param items    the mount's items.
     */
    JsonConsumerMount(final TestClient.Context settings, final MountStats stats, final MountItems items)
    {
        this.settings = settings;
        this.stats = stats;
        this.itemIndexes = items.indexes;
        this.checks = new ItemChecks(stats, items);
    }

    /**
     * The WebSocket client pipeline this mount sits at the end of.
     *
     * @param pipeline a new connection's pipeline.
     * @param uri      {@code ws://host:port/WebSocket}.
     * @param mount    the mount's handler.
     */
    static void initPipeline(final ChannelPipeline pipeline, final URI uri, final JsonConsumerMount mount)
    {
        pipeline.addLast("http", new HttpClientCodec());
        pipeline.addLast("http-aggregator", new HttpObjectAggregator(64 * 1024));
        pipeline.addLast("websocket", new WebSocketClientProtocolHandler(WebSocketClientProtocolConfig.newBuilder()
            .webSocketUri(uri)
            .subprotocol(WebSocketListener.JSON)
            .maxFramePayloadLength(MAX_FRAME_BYTES)
            .build()));
        pipeline.addLast("frames", new WebSocketFrameAggregator(MAX_FRAME_BYTES));
        pipeline.addLast("mount", mount);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE == evt)
        {
            send((out) ->
            {
                out.writeStartObject();
                out.writeNumberField("ID", LOGIN_STREAM);
                out.writeStringField("Domain", "Login");
                out.writeObjectFieldStart("Key");
                out.writeStringField("Name", settings.userName());
                out.writeObjectFieldStart("Elements");
                out.writeStringField("ApplicationId", "256");
                out.writeStringField("Position", "127.0.0.1");
                out.writeEndObject();
                out.writeEndObject();
                out.writeEndObject();
            });
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (!(msg instanceof TextWebSocketFrame))
        {
            ctx.fireChannelRead(msg);
            return;
        }
        final TextWebSocketFrame frame = (TextWebSocketFrame)msg;
        try
        {
            onFrame(frame.content());
        }
        catch (final IOException | RuntimeException ex)
        {
            MountStats.increment(stats.malformed);
        }
        finally
        {
            frame.release();
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        stats.isReady = false;
        if (null != pings)
        {
            pings.cancel(false);
        }
        if (null == stats.failure)
        {
            stats.failure = "connection closed";
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (null == stats.failure)
        {
            stats.failure = "WebSocket: " + cause;
        }
        ctx.close();
    }

    private void onFrame(final ByteBuf content) throws IOException
    {
        final int length = content.readableBytes();
        if (frameBytes.length < length)
        {
            frameBytes = new byte[Math.max(length, frameBytes.length * 2)];
        }
        content.getBytes(content.readerIndex(), frameBytes, 0, length);
        try (JsonParser parser = json.createParser(frameBytes, 0, length))
        {
            // every frame the server sends is an array of messages; a bare object is taken too
            JsonToken token = parser.nextToken();
            if (JsonToken.START_ARRAY == token)
            {
                while (JsonToken.START_OBJECT == (token = parser.nextToken()))
                {
                    onMessage(parser);
                }
            }
            else if (JsonToken.START_OBJECT == token)
            {
                onMessage(parser);
            }
        }
    }

    private void onMessage(final JsonParser parser) throws IOException
    {
        message.reset();
        this.parser = parser;
        readObject(messageFields);
        dispatch(message);
    }

    /**
     * Give each field of the object the parser is at to the reader; what it does not take is skipped.
     */
    private void readObject(final FieldReader reader) throws IOException
    {
        if (JsonToken.START_OBJECT != parser.currentToken())
        {
            parser.skipChildren();
            return;
        }
        while (JsonToken.FIELD_NAME == parser.nextToken())
        {
            final String name = parser.currentName();
            if (!reader.read(name, parser.nextToken()))
            {
                parser.skipChildren();
            }
        }
    }

    private boolean messageField(final String name, final JsonToken value) throws IOException
    {
        switch (name)
        {
            case "ID" -> message.id = JsonToken.VALUE_NUMBER_INT == value ? parser.getIntValue() : Integer.MIN_VALUE;
            case "Type" -> message.type = parser.getText();
            case "Domain" -> message.domain = parser.getText();
            case "State" -> readObject(stateFields);
            case "Fields" -> readObject(fieldListFields);
            case "Key" -> readObject(keyFields);
            default ->
            {
                return false;
            }
        }
        return true;
    }

    private boolean stateField(final String name, final JsonToken value) throws IOException
    {
        switch (name)
        {
            case "Stream" -> message.streamState = streamState(parser.getText());
            case "Data" -> message.dataState = dataState(parser.getText());
            default ->
            {
                return false;
            }
        }
        return true;
    }

    private boolean fieldListField(final String name, final JsonToken value) throws IOException
    {
        if (JsonToken.VALUE_NUMBER_INT == value && UPDSEQ.equals(name))
        {
            message.sequence = parser.getLongValue();
            return true;
        }
        if (JsonToken.VALUE_NUMBER_INT == value && ORGTIM.equals(name))
        {
            stats.latency.record(System.nanoTime() - parser.getLongValue());
            return true;
        }
        return false;
    }

    /**
     * The Login refresh's key carries the server's {@code PingTimeout} among its Elements.
     */
    private boolean keyField(final String name, final JsonToken value) throws IOException
    {
        if ("Elements".equals(name))
        {
            readObject(elementFields);
            return true;
        }
        return false;
    }

    private boolean elementField(final String name, final JsonToken value) throws IOException
    {
        if ("PingTimeout".equals(name) && JsonToken.VALUE_NUMBER_INT == value)
        {
            message.pingTimeoutSeconds = parser.getLongValue();
            return true;
        }
        return false;
    }

    private void dispatch(final Message msg)
    {
        if ("Ping".equals(msg.type))
        {
            send((out) ->
            {
                out.writeStartObject();
                out.writeStringField("Type", "Pong");
                out.writeEndObject();
            });
            return;
        }
        final int k = msg.id - ConsumerMount.FIRST_ITEM_STREAM;
        if (k >= 0 && k < itemIndexes.length)
        {
            onItemMessage(k, msg);
        }
        else if (LOGIN_STREAM == msg.id && "Login".equals(msg.domain))
        {
            onLogin(msg);
        }
    }

    private void onItemMessage(final int k, final Message msg)
    {
        switch (null == msg.type ? "" : msg.type)
        {
            case "Update" ->
            {
                MountStats.increment(stats.updates);
                checks.onSequence(k, msg.sequence);
            }
            case "Refresh" ->
            {
                checks.onRefresh(k, msg.sequence);
                checks.onState(k, msg.streamState, msg.dataState);
            }
            case "Status" ->
            {
                checks.onStatus(k, msg.streamState);
                checks.onState(k, msg.streamState, msg.dataState);
            }
            default -> MountStats.increment(stats.malformed);
        }
    }

    private void onLogin(final Message msg)
    {
        if ("Refresh".equals(msg.type) && StreamStates.OPEN == msg.streamState)
        {
            final long everyMs = TimeUnit.SECONDS.toMillis(Math.max(1, msg.pingTimeoutSeconds)) / 3;
            pings = ctx.executor().scheduleAtFixedRate(this::ping, everyMs, everyMs, TimeUnit.MILLISECONDS);
            sendRequests();
        }
        else if (StreamStates.UNSPECIFIED != msg.streamState && StreamStates.OPEN != msg.streamState)
        {
            stats.failure = "login refused";
            ctx.close();
        }
    }

    private void ping()
    {
        send((out) ->
        {
            out.writeStartObject();
            out.writeStringField("Type", "Ping");
            out.writeEndObject();
        });
    }

    private void sendRequests()
    {
        final int end = Math.min(itemIndexes.length, nextRequest + REQUESTS_PER_FRAME);
        final int first = nextRequest;
        send((out) ->
        {
            for (int k = first; k < end; k++)
            {
                out.writeStartObject();
                out.writeNumberField("ID", ConsumerMount.FIRST_ITEM_STREAM + k);
                out.writeObjectFieldStart("Key");
                out.writeStringField("Name", settings.items().nameString(itemIndexes[k]));
                out.writeStringField("Service", settings.serviceName());
                out.writeEndObject();
                out.writeEndObject();
            }
        });
        nextRequest = end;
        if (nextRequest < itemIndexes.length)
        {
            ctx.executor().schedule(this::sendRequests, 1, TimeUnit.MILLISECONDS);
        }
        else
        {
            stats.isReady = true;
        }
    }

    static int streamState(final String text)
    {
        return switch (text)
        {
            case "Open" -> StreamStates.OPEN;
            case "NonStreaming" -> StreamStates.NON_STREAMING;
            case "ClosedRecover" -> StreamStates.CLOSED_RECOVER;
            case "Closed" -> StreamStates.CLOSED;
            case "Redirected" -> StreamStates.REDIRECTED;
            default -> StreamStates.UNSPECIFIED;
        };
    }

    static int dataState(final String text)
    {
        return switch (text)
        {
            case "Ok" -> DataStates.OK;
            case "Suspect" -> DataStates.SUSPECT;
            default -> DataStates.NO_CHANGE;
        };
    }

    /**
     * Takes one field of a JSON object, the parser at its value.
     */
    @FunctionalInterface
    private interface FieldReader
    {
        /**
         * @return false when the field is not one it reads (its value is then skipped).
         */
        boolean read(String name, JsonToken value) throws IOException;
    }

    /**
     * Writes the messages of one frame.
     */
    @FunctionalInterface
    private interface Messages
    {
        void write(JsonGenerator out) throws IOException;
    }

    /**
     * One text frame holding an array of the messages {@code messages} writes.
     */
    private void send(final Messages messages)
    {
        final ByteBuf buf = ctx.alloc().buffer(256);
        try (OutputStream stream = new ByteBufOutputStream(buf);
            JsonGenerator out = json.createGenerator(stream, JsonEncoding.UTF8))
        {
            out.writeStartArray();
            messages.write(out);
            out.writeEndArray();
        }
        catch (final IOException ex)
        {
            buf.release();
            throw new IllegalStateException("cannot write a JSON request", ex);
        }
        ctx.writeAndFlush(new TextWebSocketFrame(buf), ctx.voidPromise());
    }
}
