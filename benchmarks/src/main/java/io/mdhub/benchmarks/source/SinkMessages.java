package io.mdhub.benchmarks.source;

import java.nio.ByteBuffer;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.eta.DictionaryRefreshEncoder;
import io.mdhub.common.rwf.eta.DirectoryEncoder;
import io.mdhub.common.rwf.eta.DirectoryServices;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.FieldListWriter;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Everything an interactive source sends, encoded with reused ETA objects: login accept and refusal, the source
 * directory (one service), the dictionaries, item refreshes and updates in the non-interactive source's level-1
 * layout (per-item MDH_UPDSEQ, MDH_ORGTIM in selected updates) and status messages of any domain. One instance per
 * connection (the directory encoder briefly changes the service it encodes), used on that connection's event loop.
 * <p>
 * Updates are encoded into one reused buffer, which the session hands to the RIPC encoder to pack straight into its
 * frame ({@code RipcFrameEncoder.writeCopy}): no buffer, wrapper or pipeline trip per update. Admin messages and
 * refreshes use headroom buffers (framed in place).
 */
final class SinkMessages
{
    /**
     * SupportBatchRequests announced at login: batch requests (1), reissues (2) and closes (4).
     */
    static final long SUPPORT_BATCH = 7;
    static final int MAX_NAME_LENGTH = 255;

    private static final int ADMIN_CAPACITY = 2048;
    private static final int REFRESH_CAPACITY = 512 + MAX_NAME_LENGTH;
    private static final int UPDATE_CAPACITY = 128;
    private static final int STATUS_CAPACITY = 512;
    private static final int MAX_TEXT_LENGTH = 256;

    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final UnsafeBuffer update = new UnsafeBuffer(ByteBuffer.allocateDirect(UPDATE_CAPACITY));
    private final LoginResponseEncoder login;
    private final DirectoryEncoder directory = new DirectoryEncoder(1);
    private final MarketPriceEncoder marketPrice = new MarketPriceEncoder();
    private final DictionaryRefreshEncoder dictionaryEncoder = new DictionaryRefreshEncoder();
    private final StatusMsgEncoder status = new StatusMsgEncoder(MAX_TEXT_LENGTH);
    private final List<Service> services;
    private final int serviceId;
    private final int timestampEvery;
    private final Buffer loginText = CodecFactory.createBuffer();
    private final Buffer directoryText = CodecFactory.createBuffer();
    private final Buffer text = CodecFactory.createBuffer();
    private boolean isLastPart;

    SinkMessages(final InteractiveSource.Context settings)
    {
        serviceId = settings.serviceId();
        timestampEvery = settings.timestampEvery();
        login = new LoginResponseEncoder("MDHub interactive source", SUPPORT_BATCH, 0, 0, 0);
        loginText.data("Login accepted by " + settings.componentName());
        directoryText.data("Source directory refresh");
        services = List.of(service(settings));
    }

    private static Service service(final InteractiveSource.Context settings)
    {
        return DirectoryServices.service(settings.serviceId(), settings.serviceName(), "MDHub",
            new int[] {DomainTypes.MARKET_PRICE}, true, true, MapEntryActions.ADD);
    }

    ByteBuf loginAccept(final ByteBufAllocator alloc, final LoginRequest request)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, ADMIN_CAPACITY);
        return finish(out, login.encodeAccept(begin(out), request, true, true, loginText));
    }

    ByteBuf loginReject(final ByteBufAllocator alloc, final int streamId, final int code, final String reason)
    {
        text.data(reason);
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, ADMIN_CAPACITY);
        return finish(out, login.encodeReject(begin(out), streamId, code, text));
    }

    ByteBuf directoryRefresh(final ByteBufAllocator alloc, final int streamId, final long filter)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, ADMIN_CAPACITY);
        return finish(out, directory.encodeRefresh(begin(out), streamId, filter, -1, true, services, directoryText));
    }

    /**
     * Start a dictionary download; then call {@link #nextDictionaryPart} until it returns a last part.
     */
    void beginDictionary(
        final DataDictionary dictionary,
        final int streamId,
        final int verbosity,
        final boolean isFieldDictionary,
        final boolean isStreaming)
    {
        dictionaryEncoder.begin(dictionary, streamId, serviceId, verbosity, isFieldDictionary, isStreaming);
    }

    /**
     * @param capacity size of the part (the consumer's maxUserMsgSize, so no part needs fragmenting).
     * @return the part's buffer; {@link #isLastPart()} says whether more follow.
     */
    ByteBuf nextDictionaryPart(final ByteBufAllocator alloc, final int capacity)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, capacity);
        final int result = dictionaryEncoder.encodeNextPart(begin(out));
        isLastPart = CodecReturnCodes.SUCCESS == result;
        return finish(out, CodecReturnCodes.DICT_PART_ENCODED == result ? CodecReturnCodes.SUCCESS : result);
    }

    /**
     * @return true when the part last encoded completed the dictionary.
     */
    boolean isLastPart()
    {
        return isLastPart;
    }

    /**
     * A MarketPrice refresh of an open item in the level-1 layout, its counter at the stream's current value.
     */
    ByteBuf refresh(
        final ByteBufAllocator alloc, final SinkStream stream, final long updateCount, final boolean isStreaming)
    {
        final DirectBuffer name = stream.name;
        final int nameLength = stream.nameLength;
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, REFRESH_CAPACITY);
        final FieldListWriter fields = marketPrice.beginRefresh(begin(out), stream.streamId, serviceId, name, 0,
            nameLength, isStreaming ? com.refinitiv.eta.codec.StreamStates.OPEN :
            com.refinitiv.eta.codec.StreamStates.NON_STREAMING, DataStates.OK, true, 1);
        Level1Layout.refresh(fields, name, nameLength, stream.basePrice, updateCount);
        return finish(out, marketPrice.complete());
    }

    /**
     * Encode an update of an open item, its counter already counted up, into {@link #lastUpdate()} from offset 0;
     * every n-th update of the connection (by {@code sequence}) carries System.nanoTime() for latency, as the
     * non-interactive source does.
     *
     * @param sequence the connection's update number, from 1.
     * @return the update's length.
     */
    int encodeUpdate(final int streamId, final long basePrice, final long updateCount, final long sequence)
    {
        final FieldListWriter fields = marketPrice.beginUpdate(
            writer.begin(update, 0, update.capacity()), streamId, UpdateEventTypes.QUOTE);
        Level1Layout.update(fields, basePrice, updateCount, 0 == sequence % timestampEvery ? System.nanoTime() : 0);
        final int result = marketPrice.complete();
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("encoding failed: " + CodecReturnCodes.toString(result));
        }
        return writer.encodedLength();
    }

    /**
     * @return the buffer {@link #encodeUpdate} encodes into, reused by the next update.
     */
    DirectBuffer lastUpdate()
    {
        return update;
    }

    /**
     * A StatusMsg with a state, on any domain.
     */
    ByteBuf status(
        final ByteBufAllocator alloc,
        final int domainType,
        final int streamId,
        final int streamState,
        final int dataState,
        final int code,
        final String reason)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(alloc, STATUS_CAPACITY + MAX_TEXT_LENGTH);
        return finish(out, status.encode(begin(out), domainType, streamId, streamState, dataState, code, reason));
    }

    private EncodeIterator begin(final ByteBuf out)
    {
        return writer.begin(out, out.writerIndex(), out.writableBytes());
    }

    private ByteBuf finish(final ByteBuf out, final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            out.release();
            throw new IllegalStateException("encoding failed: " + CodecReturnCodes.toString(result));
        }
        return out.writerIndex(out.writerIndex() + writer.encodedLength());
    }
}
