package io.mdhub.p2p.websocket;

import java.io.IOException;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.json.converter.ConverterFactory;
import com.refinitiv.eta.json.converter.DecodeJsonMsgOptions;
import com.refinitiv.eta.json.converter.GetJsonMsgOptions;
import com.refinitiv.eta.json.converter.JsonConverter;
import com.refinitiv.eta.json.converter.JsonConverterError;
import com.refinitiv.eta.json.converter.JsonConverterProperties;
import com.refinitiv.eta.json.converter.JsonMsg;
import com.refinitiv.eta.json.converter.JsonMsgClasses;
import com.refinitiv.eta.json.converter.JsonProtocol;
import com.refinitiv.eta.json.converter.ParseJsonOptions;
import com.refinitiv.eta.json.converter.RWFToJsonOptions;
import com.refinitiv.eta.json.converter.ServiceNameIdConverter;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.transport.ConnectionTypes;

import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.source.ServiceNames;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

/**
 * Converts between the WebSocket API's JSON (protocol version 2) and RWF with ETA's converter, for the connections
 * of one worker: JSON text frames, each one message or an array of them, become RWF messages; RWF messages become
 * JSON messages, which the connection packs into array frames ({@link JsonFramePacker}) as the WebSocket API's
 * clients expect. Not thread safe: used on the worker's event loop only, one frame or message at a time.
 */
public final class JsonMessages
{
    /** What {@link #next()} found. */
    public static final int END = 0;
    /** An OMM message, to be encoded as RWF with {@link #encodeRwf}. */
    public static final int RWF_MESSAGE = 1;
    /** A ping from the client, to be answered with a pong. */
    public static final int PING = 2;
    /** A pong from the client. */
    public static final int PONG = 3;
    /** A message the converter could not read; {@link #errorText()} says why. */
    public static final int ERROR = 4;

    /** Conversions kept for sharing: an update and its view cuts (most items have none or a few). */
    public static final int SHARED_ENTRIES = 4;

    private static final String PONG_JSON = "[{\"Type\":\"Pong\"}]";
    private static final String PING_JSON = "[{\"Type\":\"Ping\"}]";

    private final DataDictionary dictionary;
    private final String pingTimeoutElement;
    private final int pingTimeoutSeconds;
    private final ServiceNames services;
    private final ServiceNameIdConverter serviceConverter;
    private JsonConverter converter;
    private int defaultServiceId = -1;
    private final JsonConverterError error = ConverterFactory.createJsonConverterError();
    private final ParseJsonOptions parseOptions = ConverterFactory.createParseJsonOptions();
    private final DecodeJsonMsgOptions decodeOptions = ConverterFactory.createDecodeJsonMsgOptions();
    private final RWFToJsonOptions toJsonOptions = ConverterFactory.createRWFToJsonOptions();
    private final GetJsonMsgOptions getJsonOptions = ConverterFactory.createGetJsonMsgOptions();
    private final JsonMsg jsonMsg = ConverterFactory.createJsonMsg();
    private final Buffer json = CodecFactory.createBuffer();
    private java.nio.ByteBuffer jsonBytes = java.nio.ByteBuffer.allocate(4096);
    private final JsonFrame frame = new JsonFrame();
    private boolean isMessageParsed;
    private java.nio.ByteBuffer rwfCopy = java.nio.ByteBuffer.allocate(4096);
    private final java.nio.ByteBuffer noPayload = java.nio.ByteBuffer.allocate(8);
    private final EtaMsgReader reader = new EtaMsgReader();
    private final SharedJson[] sharedEntries = new SharedJson[SHARED_ENTRIES];
    private int nextShared;
    private SharedJson lastShared;
    private long sharedConversions;
    private String errorText = "";
    private byte[] loginRefresh;
    private final KnownFieldsOnly knownFieldsOnly;
    private final RwfMsgFlyweight rwfHeader = new RwfMsgFlyweight();
    private final UnsafeBuffer rwfView = new UnsafeBuffer(0, 0);
    private long fieldsLeftOut;

    /**
     * @param dictionary         the field dictionary that names the fields in JSON.
     * @param services           the worker's services by name and id.
     * @param pingTimeoutSeconds the ping timeout the Login refresh tells a client, as an ADS's does.
     */
    public JsonMessages(final DataDictionary dictionary, final ServiceNames services, final int pingTimeoutSeconds)
    {
        this.pingTimeoutElement = "\"PingTimeout\":" + pingTimeoutSeconds;
        this.pingTimeoutSeconds = pingTimeoutSeconds;
        this.dictionary = dictionary;
        this.knownFieldsOnly = new KnownFieldsOnly(dictionary);
        this.services = services;
        this.serviceConverter = new ServiceNameIdConverter()
        {
            @Override
            public int serviceNameToId(final String name, final JsonConverterError ignored)
            {
                return services.serviceId(name);
            }

            @Override
            public String serviceIdToName(final int serviceId, final JsonConverterError ignored)
            {
                return services.serviceName(serviceId);
            }
        };
        converter = build(-1);
        for (int i = 0; i < SHARED_ENTRIES; i++)
        {
            sharedEntries[i] = new SharedJson();
        }
        parseOptions.setProtocolType(JsonProtocol.JSON_JPT_JSON2);
        decodeOptions.setJsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        toJsonOptions.setJsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        getJsonOptions.jsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        getJsonOptions.transportProtocolType(ConnectionTypes.WEBSOCKET);
    }

    /**
     * The converter for the next frame, built again when the default service changed: ETA's converter takes the
     * service of requests that name none only when it is built.
     */
    private JsonConverter converter()
    {
        final int serviceId = services.defaultServiceId();
        if (serviceId != defaultServiceId)
        {
            converter = build(serviceId);
            defaultServiceId = serviceId;
        }
        return converter;
    }

    private JsonConverter build(final int serviceId)
    {
        final JsonConverterError buildError = ConverterFactory.createJsonConverterError();
        final com.refinitiv.eta.json.converter.JsonConverterBuilder builder = ConverterFactory
            .createJsonConverterBuilder()
            .setProperty(JsonConverterProperties.JSON_CPC_PROTOCOL_VERSION, JsonProtocol.JSON_JPT_JSON2)
            .setProperty(JsonConverterProperties.JSON_CPC_EXPAND_ENUM_FIELDS, false)
            .setServiceConverter(serviceConverter)
            .setDictionary(dictionary);
        if (serviceId >= 0)
        {
            builder.setProperty(JsonConverterProperties.JSON_CPC_DEFAULT_SERVICE_ID, serviceId);
        }
        final JsonConverter built = builder.build(buildError);
        if (null == built)
        {
            throw new IllegalStateException("the JSON converter could not be built: " + buildError.getText());
        }
        return built;
    }

    /**
     * Take one text frame; then call {@link #next()} until it returns {@link #END}.
     *
     * @param frame   the frame's UTF-8 bytes.
     * @param index   first byte.
     * @param length  bytes.
     * @return false when the frame is not JSON ({@link #errorText()} says why).
     */
    public boolean parse(final ByteBuf frame, final int index, final int length)
    {
        error.clear();
        try
        {
            this.frame.wrap(frame, index, length);
        }
        catch (final IOException ex)
        {
            errorText = "JSON not read: " + ex.getMessage();
            return false;
        }
        // the converter copies each message into this buffer and takes it as it is once it has a length: it must
        // hold the longest message the frame can have, with the padding the frame gives each
        final Buffer messageCopy = jsonMsg.jsonMsgData();
        if (messageCopy.length() < length + JsonFrame.PADDING)
        {
            messageCopy.data(java.nio.ByteBuffer.allocate(
                Math.max(length + JsonFrame.PADDING, 2 * messageCopy.length())));
        }
        isMessageParsed = false;
        return true;
    }

    /**
     * @return what the next message of the parsed frame is: {@link #RWF_MESSAGE}, {@link #PING}, {@link #PONG},
     * {@link #ERROR} (the rest of the frame may still be read), or {@link #END}.
     */
    public int next()
    {
        // ETA's codec checks its own encoding with Java assertions: with them on (-ea), a client's message it cannot
        // encode ends in an AssertionError instead of an error code, which is that message's error all the same
        error.clear();
        if (!isMessageParsed)
        {
            if (!frame.next())
            {
                return END;
            }
            isMessageParsed = true;
            if (!parseMessage())
            {
                return ERROR;
            }
        }
        final int result;
        try
        {
            result = converter.decodeJsonMsg(jsonMsg, decodeOptions, error);
        }
        catch (final RuntimeException | AssertionError ex)
        {
            isMessageParsed = false;
            errorText = "JSON message not read: " + ex;
            return ERROR;
        }
        if (CodecReturnCodes.END_OF_CONTAINER == result)
        {
            isMessageParsed = false;
            return next();
        }
        if (CodecReturnCodes.SUCCESS != result)
        {
            errorText = null == error.getText() ? CodecReturnCodes.toString(result) : error.getText();
            // an object is one message, so the next is in the frame's next span; only an array within the frame's
            // array has more for the converter to read
            isMessageParsed = frame.isArray();
            return ERROR;
        }
        switch (jsonMsg.jsonMsgClass())
        {
            case JsonMsgClasses.RSSL_MESSAGE:
                return RWF_MESSAGE;
            case JsonMsgClasses.PING:
                return PING;
            case JsonMsgClasses.PONG:
                return PONG;
            default:
                errorText = "unknown message type " + jsonMsg.jsonMsgClass();
                return ERROR;
        }
    }

    /**
     * Give the converter the frame's current message (an array within the frame's array is taken whole, as the
     * converter reads arrays of arrays).
     */
    private boolean parseMessage()
    {
        try
        {
            if (CodecReturnCodes.SUCCESS != converter().parseJsonBuffer(frame, parseOptions, error))
            {
                isMessageParsed = false;
                errorText = "JSON not read: " + error.getText();
                return false;
            }
        }
        catch (final RuntimeException | AssertionError ex)
        {
            isMessageParsed = false;
            errorText = "JSON not read: " + ex;
            return false;
        }
        return true;
    }

    /**
     * The current {@link #RWF_MESSAGE} as RWF.
     *
     * @param allocator for the message's buffer, as long as the message.
     * @param capacity  the longest message taken.
     * @return the message, or null when it is too long or does not encode ({@link #errorText()}).
     */
    public ByteBuf encodeRwf(final ByteBufAllocator allocator, final int capacity)
    {
        // the converter has already encoded the message: its RWF bytes are the decoded message's buffer
        final Buffer rwf = jsonMsg.rwfMsg().encodedMsgBuffer();
        if (null == rwf || rwf.length() <= 0 || rwf.length() > capacity)
        {
            errorText = null == rwf || rwf.length() <= 0 ? "no RWF message made" :
                "message of " + rwf.length() + " bytes over the limit of " + capacity;
            return null;
        }
        // with ETA's assertions off, a message it could not encode may come out as bytes that are no message
        rwfView.wrap(rwf.data(), rwf.position(), rwf.length());
        if (!rwfHeader.wrap(rwfView, 0, rwf.length()))
        {
            errorText = "the message does not encode as RWF";
            return null;
        }
        return copy(rwf, allocator.buffer(rwf.length()));
    }

    private static ByteBuf copy(final Buffer from, final ByteBuf to)
    {
        final java.nio.ByteBuffer bytes = from.data();
        return bytes.hasArray() ? to.writeBytes(bytes.array(), bytes.arrayOffset() + from.position(), from.length()) :
            to.writeBytes(bytes.duplicate().limit(from.position() + from.length()).position(from.position()));
    }

    /**
     * Convert one RWF message to JSON, then {@link #writeJson} it.
     *
     * @param rwf    holding the message.
     * @param index  its first byte.
     * @param length its length.
     * @return false when it does not convert ({@link #errorText()}).
     */
    public boolean convertToJson(final ByteBuf rwf, final int index, final int length)
    {
        rwf.getBytes(index, heapCopy(length), 0, length);
        loginRefresh = null;
        if (!convert(length))
        {
            return false;
        }
        if (DomainTypes.LOGIN == reader.msg().domainType() && MsgClasses.REFRESH == reader.msg().msgClass())
        {
            loginRefresh = loginRefresh();
        }
        return true;
    }

    /**
     * @return the length of the message {@link #convertToJson} converted.
     */
    public int jsonLength()
    {
        return null != loginRefresh ? loginRefresh.length : json.length();
    }

    /**
     * Write the message {@link #convertToJson} converted.
     *
     * @param out where.
     */
    public void writeJson(final ByteBuf out)
    {
        if (null != loginRefresh)
        {
            out.writeBytes(loginRefresh);
        }
        else
        {
            copy(json, out);
        }
    }

    /**
     * The Login refresh with the ping timeout in its key's Elements, where the WebSocket API's clients read how often
     * to expect pings. Once per connection, so a string is fine here.
     */
    private byte[] loginRefresh()
    {
        final byte[] bytes = new byte[json.length()];
        json.data().duplicate().position(json.position()).get(bytes);
        final StringBuilder text = new StringBuilder(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        final int key = text.indexOf("\"Key\":{");
        if (key >= 0)
        {
            final int keyBody = key + "\"Key\":{".length();
            final int elements = text.indexOf("\"Elements\":{", keyBody);
            if (elements >= 0)
            {
                final int at = elements + "\"Elements\":{".length();
                text.insert(at, '}' == text.charAt(at) ? pingTimeoutElement : pingTimeoutElement + ",");
            }
            else
            {
                text.insert(keyBody, "\"Elements\":{" + pingTimeoutElement + "}" +
                    ('}' == text.charAt(keyBody) ? "" : ","));
            }
        }
        return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * @return the heap array the next conversion reads its RWF message from: the converter reads field data through
     * a buffer's backing array.
     */
    private byte[] heapCopy(final int length)
    {
        if (rwfCopy.capacity() < length)
        {
            rwfCopy = java.nio.ByteBuffer.allocate(Math.max(length, rwfCopy.capacity() * 2));
        }
        rwfCopy.clear();
        return rwfCopy.array();
    }

    /**
     * Convert the RWF message in the heap copy; the JSON is then in {@link #json}.
     */
    private boolean convert(final int length)
    {
        error.clear();
        if (CodecReturnCodes.SUCCESS != reader.read(rwfCopy, 0, length))
        {
            errorText = "RWF message not decoded";
            return false;
        }
        json.clear();
        final com.refinitiv.eta.codec.Msg msg = reader.msg();
        if (null == msg.encodedDataBody().data())
        {
            // a message without payload (a login refresh, a status) decodes with no body buffer, which the
            // converter takes for an uninitialised message
            msg.encodedDataBody().data(noPayload, 0, 0);
        }
        if (toJson(msg))
        {
            return true;
        }
        errorText = "not converted to JSON: " + error.getText();
        // a field the dictionary lacks fails the whole message: convert the others
        if (knownFieldsOnly.filter(msg) &&
            CodecReturnCodes.SUCCESS == reader.read(knownFieldsOnly.bytes(), 0, knownFieldsOnly.length()) &&
            toJson(reader.msg()))
        {
            fieldsLeftOut += knownFieldsOnly.dropped();
            errorText = "field " + knownFieldsOnly.firstDroppedFid() + " is not in the dictionary: left out";
            return true;
        }
        return false;
    }

    private boolean toJson(final com.refinitiv.eta.codec.Msg msg)
    {
        error.clear();
        // the converter copies the JSON into the buffer given when it is longer than the JSON, else into a new array
        jsonBytes.clear();
        json.data(jsonBytes, 0, jsonBytes.capacity());
        // the converter of the frame being read, if any: a rebuild here would drop that frame's parsed messages
        if (CodecReturnCodes.SUCCESS != converter.convertRWFToJson(msg, toJsonOptions, error) ||
            CodecReturnCodes.SUCCESS != converter.getJsonBuffer(json, getJsonOptions, error))
        {
            return false;
        }
        if (json.data() == jsonBytes)
        {
            json.data(jsonBytes, 0, jsonBytes.position());
        }
        else
        {
            jsonBytes = java.nio.ByteBuffer.allocate(Math.max(json.length() + 1, 2 * jsonBytes.capacity()));
        }
        return true;
    }

    /**
     * @return the ping timeout the Login refresh tells a client, seconds.
     */
    public int pingTimeoutSeconds()
    {
        return pingTimeoutSeconds;
    }

    /**
     * @return fields left out of converted messages so far because the dictionary lacks them.
     */
    public long fieldsLeftOut()
    {
        return fieldsLeftOut;
    }

    /**
     * The JSON of one RWF message without its stream id, for every JSON consumer of it: converted once, then each
     * consumer's message is {@code {"ID":<its stream>} followed by this. The last {@value #SHARED_ENTRIES}
     * conversions are kept by the message's bytes (a stream id aside), so the consumers of an update and of its view
     * cuts share theirs; equal bytes convert to equal JSON, so nothing needs telling when a message is new.
     *
     * @param source holding the message.
     * @param offset its first byte.
     * @param length its length.
     * @return the JSON after the stream id (from the comma that follows it), or null when it does not convert.
     */
    public SharedJson shared(final DirectBuffer source, final int offset, final int length)
    {
        // an update goes to its watchers one after another: the entry of the last call first
        if (null != lastShared && lastShared.isFor(source, offset, length))
        {
            return lastShared;
        }
        for (final SharedJson entry : sharedEntries)
        {
            if (entry != lastShared && entry.isFor(source, offset, length))
            {
                lastShared = entry;
                return entry;
            }
        }
        lastShared = null;
        source.getBytes(offset, heapCopy(length), 0, length);
        if (length >= RwfMsgDescriptor.STREAM_ID_OFFSET + 4)
        {
            rwfCopy.putInt(RwfMsgDescriptor.STREAM_ID_OFFSET, 0); // the stream id, written per consumer
        }
        if (!convert(length))
        {
            return null;
        }
        sharedConversions++;
        final SharedJson entry = sharedEntries[nextShared];
        nextShared = (nextShared + 1) % SHARED_ENTRIES;
        if (!entry.set(source, offset, length, json.data(), json.position(), json.length()))
        {
            return null;
        }
        lastShared = entry;
        return entry;
    }

    /**
     * @return RWF messages converted once for all their JSON consumers so far.
     */
    public long sharedConversions()
    {
        return sharedConversions;
    }

    /**
     * @param allocator for the bytes.
     * @return the server's ping.
     */
    public static ByteBuf ping(final ByteBufAllocator allocator)
    {
        return ByteBufUtil.writeAscii(allocator, PING_JSON);
    }

    /**
     * @param allocator for the bytes.
     * @return the answer to a ping.
     */
    public static ByteBuf pong(final ByteBufAllocator allocator)
    {
        return ByteBufUtil.writeAscii(allocator, PONG_JSON);
    }

    /**
     * @return why the last call failed.
     */
    public String errorText()
    {
        return errorText;
    }
}
