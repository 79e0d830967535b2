package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcFrameDescriptor.EXT_FRAGMENT;
import static io.mdhub.common.ripc.RipcFrameDescriptor.EXT_FRAGMENT_HEADER;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FIRST_FRAGMENT_HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FRAGMENT_FRAME_FLAGS;
import static io.mdhub.common.ripc.RipcFrameDescriptor.HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.NEXT_FRAGMENT_HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.NORMAL_FRAME_FLAGS;
import static io.mdhub.common.ripc.RipcFrameDescriptor.PACKED_FRAME_FLAGS;
import static io.mdhub.common.ripc.RipcFrameDescriptor.PACKED_LENGTH_FIELD_LENGTH;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseCombiner;
import io.netty.util.concurrent.PromiseNotifier;

/**
 * Data-phase RIPC encoder: each {@link ByteBuf} written is exactly one RWF message; it leaves as a normal frame,
 * as fragments when longer than maxUserMsgSize, or packed with the other messages written before the next flush.
 * <p>
 * <b>Ownership.</b> The encoder takes ownership of every written ByteBuf and releases it (directly or through the
 * socket write), also when framing fails. <b>Zero copy</b> applies only to a buffer made by
 * {@link #newMessageBuffer(ByteBufAllocator, int)} and written to one channel: the 3-byte header goes into its
 * reserved headroom and the buffer goes to the socket as it is. Any other buffer (including a duplicate or slice of a
 * message buffer, which shares memory with other messages or channels) is copied once into a framed pooled buffer,
 * so the encoder never writes outside the readable bytes of a buffer it does not own.
 * <p>
 * <b>Fan-out</b> (one message to many channels): encode once, then write {@code message.retainedDuplicate()} to
 * each channel and release the original; each channel's encoder copies the bytes once into its own frame (or its
 * pack, which copies anyway). Never write the same buffer object to two channels: readerIndex is per object.
 * <p>
 * <b>Packing</b> (when enabled): a message written alone before a flush still leaves as a normal frame (no copy, no
 * latency cost); two or more small messages between flushes are copied into one packed frame of at most
 * maxUserMsgSize payload bytes ({@code [len][0x12]([u16 subLen][msg])*}). Fan-out writes many then flushes once.
 * <p>
 * <b>Promises:</b> hot-path callers pass {@code voidPromise()}; a real promise completes when its frame (the pack,
 * or the last fragment) is written, at the cost of a small allocation.
 */
public final class RipcFrameEncoder extends ChannelOutboundHandlerAdapter implements MessageCopyWriter
{
    /**
     * Bytes to reserve before an outbound RWF message so the frame header is written in place.
     */
    public static final int HEADROOM = HEADER_LENGTH;

    private final int maxUserMsgSize;
    private final int maxFrameLength;
    private final boolean isPacking;
    private final RipcCounters counters;
    private final ArrayList<ChannelPromise> packPromises = new ArrayList<>();
    private final UnsafeBuffer packView = new UnsafeBuffer(0, 0);
    private ChannelHandlerContext ctx;
    private ByteBuf pending;
    private ChannelPromise pendingPromise;
    private ByteBuf pack;
    private int nextFragId = 1;
    private long framesOut;
    private long messagesOut;

    /**
     * @param session  the negotiated session (maxUserMsgSize).
     * @param settings component settings (packing, counters).
     */
    public RipcFrameEncoder(final RipcSession session, final RipcChannelSettings settings)
    {
        if (session.maxUserMsgSize() < ConnectAckDescriptor.MIN_MAX_USER_MSG_SIZE ||
            session.maxUserMsgSize() > ConnectAckDescriptor.MAX_MAX_USER_MSG_SIZE)
        {
            throw new IllegalArgumentException("maxUserMsgSize=" + session.maxUserMsgSize());
        }
        this.maxUserMsgSize = session.maxUserMsgSize();
        this.maxFrameLength = maxUserMsgSize + HEADER_LENGTH;
        this.isPacking = settings.packOutbound();
        this.counters = settings.counters();
    }

    /**
     * A pooled buffer for one outbound RWF message, with {@link #HEADROOM} reserved so the encoder frames it without
     * copying. Encode the message from the writerIndex on, then write the buffer to one channel (for several
     * channels, write a {@code retainedDuplicate()} to each: those are copied).
     *
     * @param allocator      the channel's allocator.
     * @param messageCapacity room for the RWF message.
     * @return the buffer, readerIndex = writerIndex = HEADROOM.
     */
    public static ByteBuf newMessageBuffer(final ByteBufAllocator allocator, final int messageCapacity)
    {
        final ByteBuf buffer = allocator.buffer(messageCapacity + HEADROOM);
        buffer.writerIndex(HEADROOM).readerIndex(HEADROOM);
        // one small wrapper per message marks the headroom as this message's own (see RipcMessageBuffer)
        return new RipcMessageBuffer(buffer);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * Fan-out fast path: pack a copy of an RWF message straight into this channel's pack, with a 4-byte big-endian
     * int written over it at {@code patchOffset} (a consumer's streamId), ordered after everything written before.
     * It saves what {@code write} costs per message — a buffer to copy into, a trip through the pipeline and a second
     * copy into the pack — and allocates nothing but a fresh pack frame when one fills up. Channel's event loop only;
     * the caller flushes as usual.
     *
     * @param source      the message.
     * @param offset      where it starts.
     * @param length      its length.
     * @param patchOffset offset within the message of the int to write.
     * @param patchValue  the int.
     * @return false when the message cannot be packed (packing off, or too long for a packed frame): write it as
     * usual instead.
     */
    @Override
    public boolean writePackedCopy(
        final DirectBuffer source, final int offset, final int length, final int patchOffset, final int patchValue)
    {
        if (!isPacking || null == ctx || 0 == length || length + 2 * PACKED_LENGTH_FIELD_LENGTH > maxUserMsgSize)
        {
            return false;
        }
        messagesOut++;
        if (null != pack && pack.writableBytes() < length + PACKED_LENGTH_FIELD_LENGTH)
        {
            closeBatch(ctx);
        }
        if (null == pack)
        {
            final ByteBuf first = pending;
            if (null != first && first.readableBytes() + length + 2 * PACKED_LENGTH_FIELD_LENGTH > maxUserMsgSize)
            {
                closeBatch(ctx);
            }
            pack = ctx.alloc().buffer(maxFrameLength, maxFrameLength);
            pack.writerIndex(HEADER_LENGTH);
            if (null != pending)
            {
                final ChannelPromise firstPromise = pendingPromise;
                final ByteBuf held = pending;
                pending = null;
                pendingPromise = null;
                appendToPack(held, firstPromise);
            }
        }
        final ByteBuf pack = this.pack;
        pack.writeShort(length);
        final int start = pack.writerIndex();
        if (pack.hasMemoryAddress())
        {
            packView.wrap(pack.memoryAddress() + start, length);
            source.getBytes(offset, packView, 0, length);
        }
        else
        {
            final ByteBuffer nio = pack.internalNioBuffer(start, length);
            source.getBytes(offset, nio, nio.position(), length);
        }
        pack.setInt(start + patchOffset, patchValue);
        pack.writerIndex(start + length);
        return true;
    }

    /**
     * Write a copy of an RWF message with an int patched in: packed as {@link #writePackedCopy} does, or, when it
     * cannot be packed (packing off, or too long for a pack), copied into a message buffer of its own and framed like
     * any other write. For a producer that encodes each message into one reused buffer: it never holds a buffer of
     * the channel's. Channel's event loop only, once this encoder is in the pipeline; the caller flushes as usual.
     *
     * @param source      the message.
     * @param offset      where it starts.
     * @param length      its length.
     * @param patchOffset offset within the message of the int to write.
     * @param patchValue  the int.
     */
    public void writeCopy(
        final DirectBuffer source, final int offset, final int length, final int patchOffset, final int patchValue)
    {
        if (writePackedCopy(source, offset, length, patchOffset, patchValue))
        {
            return;
        }
        if (null == ctx)
        {
            throw new IllegalStateException("the encoder is not in a pipeline");
        }
        final ByteBuf copy = newMessageBuffer(ctx.alloc(), length);
        final int start = copy.writerIndex();
        source.getBytes(offset, copy.nioBuffer(start, length), length);
        copy.setInt(start + patchOffset, patchValue);
        write(ctx, copy.writerIndex(start + length), ctx.voidPromise());
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        if (!(msg instanceof ByteBuf))
        {
            ctx.write(msg, promise);
            return;
        }

        final ByteBuf message = (ByteBuf)msg;
        final int length = message.readableBytes();
        if (0 == length)
        {
            message.release();
            promise.tryFailure(new IllegalArgumentException("empty RWF message (would read as a ping)"));
            return;
        }

        messagesOut++;
        if (!isPacking || length + PACKED_LENGTH_FIELD_LENGTH > maxUserMsgSize)
        {
            closeBatch(ctx);
            writeSingle(ctx, message, promise);
        }
        else if (null != pack)
        {
            if (pack.writableBytes() < length + PACKED_LENGTH_FIELD_LENGTH)
            {
                closeBatch(ctx);
                holdPending(message, promise);
            }
            else
            {
                appendToPack(message, promise);
            }
        }
        else if (null == pending)
        {
            holdPending(message, promise);
        }
        else if (pending.readableBytes() + length + 2 * PACKED_LENGTH_FIELD_LENGTH > maxUserMsgSize)
        {
            closeBatch(ctx);
            holdPending(message, promise);
        }
        else
        {
            pack = allocateOrRelease(ctx, maxFrameLength, message);
            pack.writerIndex(HEADER_LENGTH);
            final ByteBuf first = pending;
            final ChannelPromise firstPromise = pendingPromise;
            pending = null;
            pendingPromise = null;
            appendToPack(first, firstPromise);
            appendToPack(message, promise);
        }
    }

    @Override
    public void flush(final ChannelHandlerContext ctx)
    {
        closeBatch(ctx);
        if (0 != framesOut)
        {
            counters.framesOut().getAndAdd(framesOut);
            framesOut = 0;
        }
        if (0 != messagesOut)
        {
            counters.messagesOut().getAndAdd(messagesOut);
            messagesOut = 0;
        }
        ctx.flush();
    }

    @Override
    public void close(final ChannelHandlerContext ctx, final ChannelPromise promise)
    {
        discardBatch();
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        this.ctx = null;
        discardBatch();
    }

    private void holdPending(final ByteBuf message, final ChannelPromise promise)
    {
        pending = message;
        pendingPromise = promise;
    }

    private void appendToPack(final ByteBuf message, final ChannelPromise promise)
    {
        try
        {
            final int length = message.readableBytes();
            pack.writeShort(length);
            pack.writeBytes(message, message.readerIndex(), length);
        }
        finally
        {
            message.release();
        }
        if (!promise.isVoid())
        {
            packPromises.add(promise);
        }
    }

    private void closeBatch(final ChannelHandlerContext ctx)
    {
        if (null != pack)
        {
            final ByteBuf frame = compactIfQueued(ctx, pack);
            pack = null;
            frame.setShort(0, frame.readableBytes());
            frame.setByte(2, PACKED_FRAME_FLAGS);
            framesOut++;
            if (packPromises.isEmpty())
            {
                ctx.write(frame, ctx.voidPromise());
            }
            else
            {
                final ChannelPromise[] promises = packPromises.toArray(new ChannelPromise[0]);
                packPromises.clear();
                ctx.write(frame).addListener(new PromiseNotifier<>(promises));
            }
        }
        else if (null != pending)
        {
            final ByteBuf message = pending;
            final ChannelPromise promise = pendingPromise;
            pending = null;
            pendingPromise = null;
            writeSingle(ctx, message, promise);
        }
    }

    /**
     * A pack is allocated for a whole frame (maxUserMsgSize) and is usually sent at the next flush, so its size costs
     * nothing. But a pack closed while earlier output still waits in the channel waits too, and a consumer that stopped
     * reading would then hold a frame-sized buffer per flush for a few hundred bytes each: the outbound buffer counts
     * readable bytes, so its limit would bound a tenth of the memory really held. Such a pack, when less than half
     * full, is copied into a buffer of its own size (one copy, only for output that queues).
     */
    private static ByteBuf compactIfQueued(final ChannelHandlerContext ctx, final ByteBuf pack)
    {
        final int length = pack.readableBytes();
        if (length >= pack.capacity() >> 1)
        {
            return pack;
        }
        final ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (null == outbound || 0 == outbound.totalPendingWriteBytes())
        {
            return pack;
        }
        final ByteBuf compact = ctx.alloc().buffer(length, length);
        compact.writeBytes(pack, pack.readerIndex(), length);
        pack.release();
        return compact;
    }

    private void writeSingle(final ChannelHandlerContext ctx, final ByteBuf message, final ChannelPromise promise)
    {
        final int length = message.readableBytes();
        if (length > maxUserMsgSize)
        {
            writeFragmented(ctx, message, promise);
            return;
        }

        framesOut++;
        final int readerIndex = message.readerIndex();
        if (message instanceof RipcMessageBuffer && readerIndex >= HEADROOM)
        {
            final int frameStart = readerIndex - HEADROOM;
            message.setShort(frameStart, length + HEADER_LENGTH);
            message.setByte(frameStart + 2, NORMAL_FRAME_FLAGS);
            message.readerIndex(frameStart);
            ctx.write(message, promise);
        }
        else
        {
            final ByteBuf frame;
            try
            {
                frame = ctx.alloc().buffer(length + HEADER_LENGTH);
                frame.writeShort(length + HEADER_LENGTH).writeByte(NORMAL_FRAME_FLAGS);
                frame.writeBytes(message, readerIndex, length);
            }
            finally
            {
                message.release();
            }
            ctx.write(frame, promise);
        }
    }

    /**
     * Allocate, or release {@code message} (which the caller owns) when the allocation fails, then rethrow.
     */
    private static ByteBuf allocateOrRelease(final ChannelHandlerContext ctx, final int capacity, final ByteBuf message)
    {
        try
        {
            return ctx.alloc().buffer(capacity, capacity);
        }
        catch (final Throwable ex)
        {
            message.release();
            throw ex;
        }
    }

    private void writeFragmented(final ChannelHandlerContext ctx, final ByteBuf message, final ChannelPromise promise)
    {
        final int fragId = nextFragId();
        final int totalLength = message.readableBytes();
        final PromiseCombiner combiner = promise.isVoid() ? null : new PromiseCombiner(ctx.executor());
        try
        {
            int position = message.readerIndex();
            final int end = position + totalLength;
            boolean isFirst = true;
            while (position < end)
            {
                final int headerLength = isFirst ? FIRST_FRAGMENT_HEADER_LENGTH : NEXT_FRAGMENT_HEADER_LENGTH;
                final int dataLength = Math.min(end - position, maxFrameLength - headerLength);
                final ByteBuf frame = fragment(ctx, message, position, dataLength, isFirst, totalLength, fragId);
                position += dataLength;
                isFirst = false;
                framesOut++;
                if (null == combiner)
                {
                    ctx.write(frame, ctx.voidPromise());
                }
                else
                {
                    combiner.add(ctx.write(frame));
                }
            }
        }
        finally
        {
            message.release();
        }
        if (null != combiner)
        {
            combiner.finish(promise);
        }
    }

    private static ByteBuf fragment(
        final ChannelHandlerContext ctx,
        final ByteBuf message,
        final int position,
        final int dataLength,
        final boolean isFirst,
        final int totalLength,
        final int fragId)
    {
        final int headerLength = isFirst ? FIRST_FRAGMENT_HEADER_LENGTH : NEXT_FRAGMENT_HEADER_LENGTH;
        final int frameLength = headerLength + dataLength;
        final ByteBuf frame = ctx.alloc().buffer(frameLength, frameLength);
        try
        {
            frame.writeShort(frameLength).writeByte(FRAGMENT_FRAME_FLAGS);
            if (isFirst)
            {
                frame.writeByte(EXT_FRAGMENT_HEADER).writeInt(totalLength).writeShort(fragId);
            }
            else
            {
                frame.writeByte(EXT_FRAGMENT).writeShort(fragId);
            }
            frame.writeBytes(message, position, dataLength);
            return frame;
        }
        catch (final Throwable ex)
        {
            frame.release();
            throw ex;
        }
    }

    private int nextFragId()
    {
        final int fragId = nextFragId;
        nextFragId = fragId == 0xFFFF ? 1 : fragId + 1; // 16-bit ids (RIPC13/14); 0 is never used, like ETA
        return fragId;
    }

    private void discardBatch()
    {
        if (null != pending)
        {
            pending.release();
            pending = null;
            if (!pendingPromise.isVoid())
            {
                pendingPromise.tryFailure(new ClosedChannelException());
            }
            pendingPromise = null;
        }
        if (null != pack)
        {
            pack.release();
            pack = null;
            for (int i = packPromises.size() - 1; i >= 0; i--)
            {
                packPromises.get(i).tryFailure(new ClosedChannelException());
            }
            packPromises.clear();
        }
    }
}
