package io.mdhub.p2p.fanout;

import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.EtaBufferView;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds what a consumer receives on an item stream, into pooled buffers ready for the RIPC encoder:
 * <ul>
 * <li>a copy of a source message with the consumer's streamId written over bytes 4..7 (updates, statuses);</li>
 * <li>a refresh for one watcher: patched in place when the source's msgKey already carries the consumer-facing
 * serviceId and name (SOLICITED and the stream-state bits never change a field's width, facts §3.1), otherwise the
 * header re-encoded with ETA around a copy of the payload;</li>
 * <li>a conflated UpdateMsg with an item's latest image;</li>
 * <li>a StatusMsg of any domain (rejections, the batch stream close);</li>
 * <li>an AckMsg answering a consumer's post.</li>
 * </ul>
 * Worker thread only: the ETA objects and scratch memory are reused.
 */
final class ItemMessages
{
    private static final int STATE_HEADROOM = 64;
    private static final int MAX_TEXT_LENGTH = 1024;
    /** UpdateMsg conflationCount is a u15rb. */
    private static final int MAX_CONFLATION_COUNT = 0x7FFF;
    /** UpdateMsg conflationTime is a uint16. */
    private static final int MAX_CONFLATION_TIME_MS = 0xFFFF;

    private final EtaMsgReader reader = new EtaMsgReader();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final StatusMsgEncoder status = new StatusMsgEncoder(MAX_TEXT_LENGTH);
    private final AckMsg ack = (AckMsg)CodecFactory.createMsg();
    private final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
    private final EtaBufferView payloadView = new EtaBufferView();
    private final Buffer text = CodecFactory.createBuffer();
    private final ByteBuffer textBytes = ByteBuffer.allocateDirect(MAX_TEXT_LENGTH);
    private final Buffer name = CodecFactory.createBuffer();
    private final ByteBuffer nameBytes = ByteBuffer.allocateDirect(256);
    private UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private final UnsafeBuffer addressView = new UnsafeBuffer(new byte[0]);
    private long reencodedRefreshes;

    /**
     * Copy a message and write the consumer's streamId over it.
     */
    ByteBuf copyWithStreamId(
        final ByteBufAllocator allocator,
        final DirectBuffer source,
        final int offset,
        final int length,
        final int streamId)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, length);
        final int start = out.writerIndex();
        copy(source, offset, length, out);
        out.setInt(start + RwfMsgDescriptor.STREAM_ID_OFFSET, streamId);
        return out;
    }

    /**
     * A refresh for one watcher, or null if the source's message cannot be re-encoded (logged by the caller).
     *
     * @param refresh   the flyweight wrapped over the source's RefreshMsg.
     * @param solicited whether the watcher asked for it.
     */
    ByteBuf refreshFor(final ByteBufAllocator allocator, final RwfMsgFlyweight refresh, final ItemWatch watch,
        final boolean solicited)
    {
        final int streamState = watch.isStreaming ? StreamStates.OPEN : StreamStates.NON_STREAMING;
        if (refresh.hasMsgKey() && refresh.key().hasServiceId() && refresh.key().serviceId() == watch.serviceId &&
            refresh.key().hasName() && refresh.key().nameEquals(watch.name, 0, watch.name.capacity()))
        {
            return patchedRefresh(allocator, refresh, watch.streamId, streamState, solicited);
        }
        return reencodedRefresh(allocator, refresh, watch, streamState, solicited);
    }

    private ByteBuf patchedRefresh(
        final ByteBufAllocator allocator,
        final RwfMsgFlyweight refresh,
        final int streamId,
        final int streamState,
        final boolean solicited)
    {
        final int length = refresh.length();
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, length);
        final int start = out.writerIndex();
        copy(refresh.buffer(), refresh.offset(), length, out);
        out.setInt(start + RwfMsgDescriptor.STREAM_ID_OFFSET, streamId);

        // flags are u15rb: SOLICITED (0x20) lives in the last flags byte whatever the width, and toggling it never
        // crosses the 0x80 boundary that decides the width.
        final int flagsOffset = start + RwfMsgDescriptor.FLAGS_OFFSET;
        final int flagsWidth = 0 != (out.getByte(flagsOffset) & 0x80) ? 2 : 1;
        final int lowFlagsOffset = flagsOffset + flagsWidth - 1;
        final int lowFlags = out.getByte(lowFlagsOffset) & 0xFF;
        out.setByte(lowFlagsOffset, solicited ? lowFlags | RwfMsgFlags.Refresh.SOLICITED :
            lowFlags & ~RwfMsgFlags.Refresh.SOLICITED);

        // REFRESH: containerType, [seqNum], then the state whose first byte is streamState << 3 | dataState
        final int stateOffset = flagsOffset + flagsWidth + 1 +
            (0 != (refresh.flags() & RwfMsgFlags.Refresh.HAS_SEQ_NUM) ? Integer.BYTES : 0);
        final int dataState = out.getByte(stateOffset) & 0x07;
        out.setByte(stateOffset, (streamState << 3) | dataState);
        return out;
    }

    private ByteBuf reencodedRefresh(
        final ByteBufAllocator allocator,
        final RwfMsgFlyweight source,
        final ItemWatch watch,
        final int streamState,
        final boolean solicited)
    {
        final int length = source.length();
        if (scratch.capacity() < length)
        {
            scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        }
        scratch.putBytes(0, source.buffer(), source.offset(), length);
        if (CodecReturnCodes.SUCCESS != reader.read(scratch, 0, length) ||
            MsgClasses.REFRESH != reader.msg().msgClass())
        {
            return null;
        }
        final RefreshMsg msg = (RefreshMsg)reader.msg();
        msg.streamId(watch.streamId);
        int flags = msg.flags() | RefreshMsgFlags.HAS_MSG_KEY;
        flags = solicited ? flags | RefreshMsgFlags.SOLICITED : flags & ~RefreshMsgFlags.SOLICITED;
        msg.flags(flags);
        nameBytes.clear();
        watch.name.getBytes(0, nameBytes, 0, watch.name.capacity());
        name.data(nameBytes, 0, watch.name.capacity());
        msg.msgKey().flags(msg.msgKey().flags() | MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME |
            MsgKeyFlags.HAS_NAME_TYPE);
        msg.msgKey().serviceId(watch.serviceId);
        msg.msgKey().name(name);
        msg.msgKey().nameType(watch.nameType);
        msg.state().streamState(streamState);

        final int capacity = length + watch.name.capacity() + STATE_HEADROOM;
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, capacity);
        final EncodeIterator iterator = writer.begin(out, out.writerIndex(), capacity);
        if (CodecReturnCodes.SUCCESS != msg.encode(iterator))
        {
            out.release();
            return null;
        }
        out.writerIndex(out.writerIndex() + writer.encodedLength());
        reencodedRefreshes++;
        return out;
    }

    /**
     * An UpdateMsg carrying an item's latest image for a consumer that missed updates (the conflate slow-consumer
     * policy), as an ADS sends a conflated update: the image's payload (every field, or the watcher's view of them),
     * HAS_CONF_INFO with how many updates it stands for and over how long, and DO_NOT_RIPPLE, since fields that did
     * not change are sent again and must not be rippled into their history fields.
     *
     * @param image        the image as a refresh, wrapped (its payload is copied).
     * @param streamId     the watcher's stream.
     * @param count        updates conflated (capped at the wire's 32767).
     * @param periodMs     time since the first of them, in ms (capped at 65535).
     * @return the message, or null if it cannot be encoded.
     */
    ByteBuf conflatedUpdate(
        final ByteBufAllocator allocator,
        final RwfMsgFlyweight image,
        final int streamId,
        final int count,
        final long periodMs)
    {
        update.clear();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(image.domainType());
        update.streamId(streamId);
        update.containerType(image.containerType());
        update.updateType(UpdateEventTypes.UNSPECIFIED);
        update.flags(UpdateMsgFlags.HAS_CONF_INFO | UpdateMsgFlags.DO_NOT_RIPPLE);
        update.conflationCount(Math.min(count, MAX_CONFLATION_COUNT));
        update.conflationTime((int)Math.min(Math.max(0, periodMs), MAX_CONFLATION_TIME_MS));
        update.encodedDataBody(payloadView.wrap(image.buffer(), image.payloadOffset(), image.payloadLength()));
        final int capacity = image.payloadLength() + STATE_HEADROOM;
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, capacity);
        if (CodecReturnCodes.SUCCESS != update.encode(writer.begin(out, out.writerIndex(), capacity)))
        {
            out.release();
            return null;
        }
        out.writerIndex(out.writerIndex() + writer.encodedLength());
        return out;
    }

    /**
     * An AckMsg answering a consumer's post: an ACK, or a NAK when nakCode is not 0.
     */
    ByteBuf ack(
        final ByteBufAllocator allocator,
        final int domainType,
        final int streamId,
        final long ackId,
        final int nakCode,
        final CharSequence reason,
        final boolean hasSeqNum,
        final long seqNum)
    {
        ack.clear();
        ack.msgClass(MsgClasses.ACK);
        ack.domainType(domainType);
        ack.streamId(streamId);
        ack.containerType(DataTypes.NO_DATA);
        ack.ackId(ackId);
        if (NakCodes.NONE != nakCode)
        {
            ack.applyHasNakCode();
            ack.nakCode(nakCode);
        }
        final int textLength = Math.min(reason.length(), MAX_TEXT_LENGTH);
        if (textLength > 0)
        {
            for (int i = 0; i < textLength; i++)
            {
                textBytes.put(i, (byte)reason.charAt(i));
            }
            text.data(textBytes, 0, textLength);
            ack.applyHasText();
            ack.text(text);
        }
        if (hasSeqNum)
        {
            ack.applyHasSeqNum();
            ack.seqNum(seqNum);
        }
        final int capacity = textLength + STATE_HEADROOM;
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, capacity);
        final int result = ack.encode(writer.begin(out, out.writerIndex(), capacity));
        if (CodecReturnCodes.SUCCESS != result)
        {
            out.release();
            throw new IllegalStateException("AckMsg encode failed: " + CodecReturnCodes.toString(result));
        }
        out.writerIndex(out.writerIndex() + writer.encodedLength());
        return out;
    }

    /**
     * A StatusMsg with a state on any domain.
     */
    ByteBuf status(
        final ByteBufAllocator allocator,
        final int domainType,
        final int streamId,
        final int streamState,
        final int dataState,
        final int code,
        final CharSequence stateText)
    {
        final int capacity = Math.min(stateText.length(), MAX_TEXT_LENGTH) + STATE_HEADROOM;
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(allocator, capacity);
        final int result = status.encode(
            writer.begin(out, out.writerIndex(), capacity),
            domainType, streamId, streamState, dataState, code, stateText);
        if (CodecReturnCodes.SUCCESS != result)
        {
            out.release();
            throw new IllegalStateException("StatusMsg encode failed: " + CodecReturnCodes.toString(result));
        }
        out.writerIndex(out.writerIndex() + writer.encodedLength());
        return out;
    }

    long reencodedRefreshes()
    {
        return reencodedRefreshes;
    }

    void copy(final DirectBuffer source, final int offset, final int length, final ByteBuf out)
    {
        final int writerIndex = out.writerIndex();
        out.ensureWritable(length);
        if (out.hasMemoryAddress())
        {
            addressView.wrap(out.memoryAddress() + writerIndex, length);
            source.getBytes(offset, addressView, 0, length);
        }
        else
        {
            final ByteBuffer nio = out.internalNioBuffer(writerIndex, length);
            source.getBytes(offset, nio, nio.position(), length);
        }
        out.writerIndex(writerIndex + length);
    }
}
