package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
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
import com.refinitiv.eta.transport.ConnectionTypes;

import io.mdhub.common.test.eta.EtaChannel;

/**
 * The JSON side of an ETA WebSocket consumer, done as ETA's own example applications do it: ETA's transport hands
 * the application the JSON text of each frame and takes JSON text, and the application converts with ETA's
 * {@link JsonConverter} (one service, by name and id). Pings from the server are answered with a pong and counted.
 */
final class EtaJsonWire implements EtaChannel.Wire
{
    private static final byte[] PONG = "{\"Type\":\"Pong\"}".getBytes(StandardCharsets.US_ASCII);

    private final JsonConverter converter;
    private final JsonConverterError error = ConverterFactory.createJsonConverterError();
    private final ParseJsonOptions parseOptions = ConverterFactory.createParseJsonOptions();
    private final DecodeJsonMsgOptions decodeOptions = ConverterFactory.createDecodeJsonMsgOptions();
    private final RWFToJsonOptions toJsonOptions = ConverterFactory.createRWFToJsonOptions();
    private final GetJsonMsgOptions getOptions = ConverterFactory.createGetJsonMsgOptions();
    private final JsonMsg jsonMsg = ConverterFactory.createJsonMsg();
    private final Msg msg = CodecFactory.createMsg();
    private final DecodeIterator iterator = CodecFactory.createDecodeIterator();
    private final StringBuilder framesRead = new StringBuilder();
    private EtaChannel channel;

    EtaJsonWire(final DataDictionary dictionary, final int serviceId, final String serviceName)
    {
        converter = ConverterFactory.createJsonConverterBuilder()
            .setProperty(JsonConverterProperties.JSON_CPC_PROTOCOL_VERSION, JsonProtocol.JSON_JPT_JSON2)
            .setProperty(JsonConverterProperties.JSON_CPC_DEFAULT_SERVICE_ID, serviceId)
            .setServiceConverter(new ServiceNameIdConverter()
            {
                @Override
                public int serviceNameToId(final String name, final JsonConverterError ignored)
                {
                    return serviceName.equals(name) ? serviceId : -1;
                }

                @Override
                public String serviceIdToName(final int id, final JsonConverterError ignored)
                {
                    return serviceId == id ? serviceName : null;
                }
            })
            .setDictionary(dictionary)
            .build(error);
        if (null == converter)
        {
            throw new IllegalStateException("JSON converter: " + error.getText());
        }
        parseOptions.setProtocolType(JsonProtocol.JSON_JPT_JSON2);
        decodeOptions.setJsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        toJsonOptions.setJsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        getOptions.jsonProtocolType(JsonProtocol.JSON_JPT_JSON2);
        getOptions.transportProtocolType(ConnectionTypes.WEBSOCKET);
    }

    /**
     * @param channel where pongs go.
     * @return this.
     */
    EtaJsonWire channel(final EtaChannel channel)
    {
        this.channel = channel;
        return this;
    }

    /**
     * @return every frame read so far, one per line.
     */
    String framesRead()
    {
        return framesRead.toString();
    }

    @Override
    public byte[] toWire(final byte[] rwf)
    {
        if (PONG == rwf)
        {
            return rwf;
        }
        final Buffer in = CodecFactory.createBuffer();
        in.data(ByteBuffer.wrap(rwf));
        iterator.clear();
        iterator.setBufferAndRWFVersion(in, Codec.majorVersion(), Codec.minorVersion());
        msg.clear();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(iterator), "an RWF message to convert");
        if (null == msg.encodedDataBody().data())
        {
            msg.encodedDataBody().data(ByteBuffer.allocate(0), 0, 0); // no payload: the converter wants a buffer
        }
        assertEquals(CodecReturnCodes.SUCCESS, converter.convertRWFToJson(msg, toJsonOptions, error),
            error::getText);
        final Buffer json = CodecFactory.createBuffer();
        assertEquals(CodecReturnCodes.SUCCESS, converter.getJsonBuffer(json, getOptions, error), error::getText);
        final byte[] bytes = new byte[json.length()];
        json.data().duplicate().position(json.position()).get(bytes);
        return bytes;
    }

    @Override
    public void fromWire(final byte[] wire, final Consumer<byte[]> rwf)
    {
        framesRead.append(new String(wire, StandardCharsets.UTF_8)).append('\n');
        final Buffer in = CodecFactory.createBuffer();
        in.data(ByteBuffer.wrap(wire));
        assertEquals(CodecReturnCodes.SUCCESS, converter.parseJsonBuffer(in, parseOptions, error),
            () -> "not JSON: " + error.getText());
        int ret;
        while (CodecReturnCodes.END_OF_CONTAINER != (ret = converter.decodeJsonMsg(jsonMsg, decodeOptions, error)))
        {
            assertEquals(CodecReturnCodes.SUCCESS, ret, error::getText);
            if (JsonMsgClasses.PING == jsonMsg.jsonMsgClass())
            {
                channel.write(PONG);
            }
            else if (JsonMsgClasses.RSSL_MESSAGE == jsonMsg.jsonMsgClass())
            {
                final Buffer encoded = jsonMsg.rwfMsg().encodedMsgBuffer();
                final ByteBuffer data = encoded.data();
                rwf.accept(Arrays.copyOfRange(data.array(), data.arrayOffset() + encoded.position(),
                    data.arrayOffset() + encoded.position() + encoded.length()));
            }
        }
    }
}
