package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcFrameDescriptor.COMPRESSION;
import static io.mdhub.common.ripc.RipcFrameDescriptor.COMP_FRAGMENT;
import static io.mdhub.common.ripc.RipcFrameDescriptor.EXTENDED_FLAGS_OFFSET;
import static io.mdhub.common.ripc.RipcFrameDescriptor.EXT_FRAGMENT;
import static io.mdhub.common.ripc.RipcFrameDescriptor.EXT_FRAGMENT_HEADER;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FIRST_FRAGMENT_HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FIRST_FRAGMENT_ID_OFFSET;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FIRST_FRAGMENT_TOTAL_LENGTH_OFFSET;
import static io.mdhub.common.ripc.RipcFrameDescriptor.FLAGS_OFFSET;
import static io.mdhub.common.ripc.RipcFrameDescriptor.HAS_OPTIONAL_FLAGS;
import static io.mdhub.common.ripc.RipcFrameDescriptor.HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.KNOWN_FLAGS;
import static io.mdhub.common.ripc.RipcFrameDescriptor.MAX_HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.NEXT_FRAGMENT_HEADER_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.NEXT_FRAGMENT_ID_OFFSET;
import static io.mdhub.common.ripc.RipcFrameDescriptor.PACKED_LENGTH_FIELD_LENGTH;
import static io.mdhub.common.ripc.RipcFrameDescriptor.PACKING;
import static io.mdhub.common.ripc.RipcFrameDescriptor.PING_FRAME_LENGTH;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Data-phase RIPC decoder (RIPC13/14): turns the byte stream into one {@link ByteBuf} per RWF message.
 * <p>
 * <b>Message type and ownership.</b> Each message passed down the pipeline is a {@code ByteBuf} whose readable
 * bytes are exactly one RWF message (no RIPC header, no packed sub-length). Normal and packed messages are
 * {@link ByteBuf#retainedSlice(int, int) retained slices} of the socket buffer (no copy); a reassembled fragmented
 * message is a pooled buffer of exactly its total length. <b>The consumer owns it and must release it</b> (the last
 * handler to touch it, as Netty's {@code SimpleChannelInboundHandler} does). The bytes are writable, so a consumer
 * may rewrite the streamId (RWF bytes 4..7) in place; it may wrap them in an Agrona {@code UnsafeBuffer} via
 * {@code memoryAddress() + readerIndex()} when {@code hasMemoryAddress()} (pooled direct buffers, the default), else
 * via {@code nioBuffer()}. The wrap is valid only until release. An application handler that implements
 * {@link RipcMessageSink} (the first inbound handler behind the decoder) instead gets each message lent inside the
 * decoder's call, the socket buffer itself bounded to the message: no slice, no reference counting, no pipeline hop.
 * <p>
 * Pings ({@code len == 3}) are counted and not passed on; the liveness handler in front of this decoder already saw
 * the bytes arrive. Any malformed frame disconnects the peer with a specific {@link RipcDisconnectReason}, after
 * which all further input is discarded. A hot-path frame allocates nothing apart from the pooled slices.
 * <p>
 * <b>Reassembly memory</b> follows the bytes that actually arrived, never the total a first fragment announces: a
 * reassembly buffer starts at {@code min(total, 2 * maxUserMsgSize)} and doubles (up to the total) as fragments
 * need room. The capacity held by all reassemblies of the connection is capped (maxReassemblyBytes), and the
 * liveness handler disconnects a peer whose oldest reassembly stays open longer than the partial-frame timeout
 * ({@link #oldestReassemblyStartNs()}), so a few bytes of first fragments cannot pin memory.
 */
public final class RipcFrameDecoder extends ByteToMessageDecoder
{
    /**
     * Value of {@link #partialFrameStartNs()} when no frame is incomplete.
     */
    public static final long NO_PARTIAL_FRAME = Long.MIN_VALUE;

    /**
     * How many fragmented messages may be in reassembly at once on one connection. ETA interleaves fragments of
     * different messages only across priorities, so a handful is plenty; the bound caps memory per peer.
     */
    public static final int MAX_CONCURRENT_REASSEMBLIES = 16;

    private final RipcCounters counters;
    private final RipcDisconnects disconnects;
    private final int maxFrameLength;
    private final int maxReassembledMessageSize;
    private final int maxReassemblyBytes;
    private final int initialReassemblyCapacity;
    private final Int2ObjectHashMap<Reassembly> reassemblyByFragId = new Int2ObjectHashMap<>();
    private final Reassembly[] reassemblies = new Reassembly[MAX_CONCURRENT_REASSEMBLIES];
    private long reassemblyBytes;
    private long partialFrameStartNs = NO_PARTIAL_FRAME;
    private boolean isFailed;
    private boolean isSinkResolved;
    private RipcMessageSink sink;
    private boolean hasLentSinceReadComplete;
    private long framesIn;
    private long messagesIn;
    private long pingsIn;

    /**
     * @param session  the negotiated session: its maxUserMsgSize bounds inbound frames.
     * @param settings component settings (counters, reassembly cap).
     */
    public RipcFrameDecoder(final RipcSession session, final RipcChannelSettings settings)
    {
        this.counters = settings.counters();
        this.disconnects = settings.disconnects();
        this.maxFrameLength = Math.min(RipcFrameDescriptor.MAX_FRAME_LENGTH,
            session.maxUserMsgSize() + MAX_HEADER_LENGTH);
        this.maxReassembledMessageSize = settings.maxReassembledMessageSize();
        this.maxReassemblyBytes = settings.maxReassemblyBytes();
        this.initialReassemblyCapacity = 2 * session.maxUserMsgSize();
        for (int i = 0; i < reassemblies.length; i++)
        {
            reassemblies[i] = new Reassembly();
        }
    }

    /**
     * @return {@link System#nanoTime()} when the oldest incomplete frame started to arrive, or
     * {@link #NO_PARTIAL_FRAME}. Read by the liveness handler on the same event loop.
     */
    public long partialFrameStartNs()
    {
        return partialFrameStartNs;
    }

    /**
     * @return {@link System#nanoTime()} when the first fragment of the oldest incomplete fragmented message arrived,
     * or {@link #NO_PARTIAL_FRAME}. Read by the liveness handler on the same event loop.
     */
    public long oldestReassemblyStartNs()
    {
        long oldestNs = NO_PARTIAL_FRAME;
        if (!reassemblyByFragId.isEmpty())
        {
            for (final Reassembly reassembly : reassemblies)
            {
                if (null != reassembly.message && (NO_PARTIAL_FRAME == oldestNs || reassembly.startNs < oldestNs))
                {
                    oldestNs = reassembly.startNs;
                }
            }
        }
        return oldestNs;
    }

    /**
     * @return bytes currently held by reassembly buffers (their capacity).
     */
    public long reassemblyBytes()
    {
        return reassemblyBytes;
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (isFailed)
        {
            in.skipBytes(in.readableBytes());
            return;
        }

        // One frame per call: ByteToMessageDecoder passes a call's messages on before calling again, so a read of
        // many frames holds at most one frame's slices at a time. Decoding the whole read at once held thousands,
        // and Netty's slice pool, sized to that peak, kept spilling into newly allocated queue chunks.
        if (in.readableBytes() >= 2)
        {
            final int start = in.readerIndex();
            final int length = in.getUnsignedShort(start);
            if (length < HEADER_LENGTH)
            {
                fail(ctx, in, RipcDisconnectReason.FRAME_TOO_SHORT, "length=" + length);
                return;
            }
            if (length > maxFrameLength)
            {
                fail(ctx, in, RipcDisconnectReason.FRAME_TOO_LONG, "length=" + length + " max=" + maxFrameLength);
                return;
            }
            if (in.readableBytes() >= length)
            {
                framesIn++;
                if (decodeFrame(ctx, in, start, length, out))
                {
                    in.readerIndex(start + length);
                    partialFrameStartNs = NO_PARTIAL_FRAME; // whatever follows starts a frame of its own
                }
                return;
            }
        }

        // an incomplete frame: it started arriving now unless it is the one already seen
        if (NO_PARTIAL_FRAME == partialFrameStartNs)
        {
            partialFrameStartNs = System.nanoTime();
        }
    }

    private boolean decodeFrame(
        final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length, final List<Object> out)
    {
        if (PING_FRAME_LENGTH == length)
        {
            pingsIn++;
            return true;
        }

        final int flags = in.getUnsignedByte(start + FLAGS_OFFSET);
        if (0 != (flags & ~KNOWN_FLAGS) || 0 != (flags & (COMPRESSION | COMP_FRAGMENT)))
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_FLAGS, "flags=0x" + Integer.toHexString(flags) +
                " (compression is never negotiated)");
        }

        if (0 != (flags & PACKING))
        {
            if (0 != (flags & HAS_OPTIONAL_FLAGS))
            {
                return fail(ctx, in, RipcDisconnectReason.BAD_FLAGS, "packed frame with extended flags");
            }
            return decodePacked(ctx, in, start, length, out);
        }

        if (0 != (flags & HAS_OPTIONAL_FLAGS))
        {
            return decodeFragment(ctx, in, start, length, out);
        }

        emit(ctx, in, start + HEADER_LENGTH, length - HEADER_LENGTH, out);
        return true;
    }

    /**
     * Pass one message on: lent to the sink inside this call, or as a retained slice down the pipeline.
     */
    private void emit(
        final ChannelHandlerContext ctx, final ByteBuf in, final int index, final int length, final List<Object> out)
    {
        messagesIn++;
        final RipcMessageSink sink = sink(ctx);
        if (null == sink)
        {
            out.add(in.retainedSlice(index, length));
            return;
        }
        hasLentSinceReadComplete = true;
        final int readerIndex = in.readerIndex();
        final int writerIndex = in.writerIndex();
        in.setIndex(index, index + length);
        try
        {
            lend(ctx, sink, in);
        }
        finally
        {
            in.setIndex(readerIndex, writerIndex);
        }
    }

    /**
     * A sink's exception goes to exceptionCaught, as the pipeline does for a handler's channelRead: it costs this
     * message only.
     */
    private static void lend(final ChannelHandlerContext ctx, final RipcMessageSink sink, final ByteBuf message)
    {
        try
        {
            sink.onRipcMessage(message);
        }
        catch (final RuntimeException ex)
        {
            ctx.fireExceptionCaught(ex);
        }
    }

    /**
     * The application handler is in the pipeline before the handshake completes and the decoder is added, so the
     * first message finds it for good.
     */
    private RipcMessageSink sink(final ChannelHandlerContext ctx)
    {
        if (!isSinkResolved)
        {
            isSinkResolved = true;
            sink = findSink(ctx);
        }
        return sink;
    }

    private static RipcMessageSink findSink(final ChannelHandlerContext ctx)
    {
        final ChannelPipeline pipeline = ctx.pipeline();
        boolean isBehind = false;
        for (final String name : pipeline.names())
        {
            if (isBehind)
            {
                final ChannelHandler handler = pipeline.get(name);
                if (handler instanceof ChannelInboundHandler)
                {
                    return handler instanceof RipcMessageSink ? (RipcMessageSink)handler : null;
                }
            }
            isBehind |= name.equals(ctx.name());
        }
        return null;
    }

    private boolean decodePacked(
        final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length, final List<Object> out)
    {
        final int end = start + length;
        final int messagesEnd = packedMessagesEnd(in, start + HEADER_LENGTH, end);
        if (messagesEnd < 0)
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_PACKING,
                "sub-message lengths overrun frame length=" + length);
        }

        // validated first, so a bad frame delivers none of its messages
        int position = start + HEADER_LENGTH;
        while (position < messagesEnd)
        {
            final int subLength = in.getUnsignedShort(position);
            emit(ctx, in, position + PACKED_LENGTH_FIELD_LENGTH, subLength, out);
            position += PACKED_LENGTH_FIELD_LENGTH + subLength;
        }
        return true;
    }

    /**
     * @return where the last sub-message ends (before a zero sub-length, which ends the frame as in ETA), or -1
     * when a sub-length overruns the frame.
     */
    private static int packedMessagesEnd(final ByteBuf in, final int from, final int end)
    {
        int position = from;
        while (position < end)
        {
            if (end - position < PACKED_LENGTH_FIELD_LENGTH)
            {
                return -1;
            }
            final int subLength = in.getUnsignedShort(position);
            if (0 == subLength)
            {
                return position;
            }
            position += PACKED_LENGTH_FIELD_LENGTH + subLength;
            if (position > end)
            {
                return -1;
            }
        }
        return position;
    }

    private boolean decodeFragment(
        final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length, final List<Object> out)
    {
        if (length <= EXTENDED_FLAGS_OFFSET)
        {
            return fail(ctx, in, RipcDisconnectReason.FRAME_TOO_SHORT, "no extended flags, length=" + length);
        }
        final int extendedFlags = in.getUnsignedByte(start + EXTENDED_FLAGS_OFFSET);
        if (EXT_FRAGMENT_HEADER == extendedFlags)
        {
            return decodeFirstFragment(ctx, in, start, length, out);
        }
        if (EXT_FRAGMENT == extendedFlags)
        {
            return decodeNextFragment(ctx, in, start, length, out);
        }
        return fail(ctx, in, RipcDisconnectReason.BAD_FLAGS,
            "extended flags=0x" + Integer.toHexString(extendedFlags));
    }

    private boolean decodeFirstFragment(
        final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length, final List<Object> out)
    {
        if (length < FIRST_FRAGMENT_HEADER_LENGTH)
        {
            return fail(ctx, in, RipcDisconnectReason.FRAME_TOO_SHORT, "first fragment length=" + length);
        }
        final long totalLength = in.getUnsignedInt(start + FIRST_FRAGMENT_TOTAL_LENGTH_OFFSET);
        final int fragId = in.getUnsignedShort(start + FIRST_FRAGMENT_ID_OFFSET);
        final int dataLength = length - FIRST_FRAGMENT_HEADER_LENGTH;
        if (totalLength > maxReassembledMessageSize)
        {
            return fail(ctx, in, RipcDisconnectReason.REASSEMBLY_LIMIT,
                "total length=" + totalLength + " cap=" + maxReassembledMessageSize);
        }
        if (0 == totalLength || dataLength > totalLength)
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_FRAGMENT,
                "first fragment data=" + dataLength + " total length=" + totalLength);
        }
        if (reassemblyByFragId.containsKey(fragId))
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_FRAGMENT, "second first fragment for fragId=" + fragId);
        }
        if (reassemblyByFragId.size() >= MAX_CONCURRENT_REASSEMBLIES)
        {
            return fail(ctx, in, RipcDisconnectReason.REASSEMBLY_LIMIT,
                "more than " + MAX_CONCURRENT_REASSEMBLIES + " concurrent fragmented messages");
        }

        final int dataStart = start + FIRST_FRAGMENT_HEADER_LENGTH;
        if (dataLength == totalLength)
        {
            emit(ctx, in, dataStart, dataLength, out);
            return true;
        }

        // first fragments are cheap to send: hold memory for what arrives, not for what is announced
        final int capacity = (int)Math.min(totalLength, initialReassemblyCapacity);
        if (reassemblyBytes + capacity > maxReassemblyBytes)
        {
            return fail(ctx, in, RipcDisconnectReason.REASSEMBLY_LIMIT, "reassembly would hold " +
                (reassemblyBytes + capacity) + " bytes, cap=" + maxReassemblyBytes + " fragId=" + fragId);
        }
        final ByteBuf message = ctx.alloc().buffer(capacity, (int)totalLength);
        reassemblyBytes += capacity;
        final Reassembly reassembly = freeReassembly();
        reassembly.message = message;
        reassembly.startNs = System.nanoTime();
        reassemblyByFragId.put(fragId, reassembly);
        message.writeBytes(in, dataStart, dataLength);
        return true;
    }

    private Reassembly freeReassembly()
    {
        for (final Reassembly reassembly : reassemblies)
        {
            if (null == reassembly.message)
            {
                return reassembly;
            }
        }
        throw new IllegalStateException("no free reassembly slot"); // the concurrency check above prevents this
    }

    private boolean decodeNextFragment(
        final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length, final List<Object> out)
    {
        if (length < NEXT_FRAGMENT_HEADER_LENGTH)
        {
            return fail(ctx, in, RipcDisconnectReason.FRAME_TOO_SHORT, "fragment length=" + length);
        }
        final int fragId = in.getUnsignedShort(start + NEXT_FRAGMENT_ID_OFFSET);
        final Reassembly reassembly = reassemblyByFragId.get(fragId);
        if (null == reassembly)
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_FRAGMENT, "fragment without first fragment, fragId=" +
                fragId);
        }
        final ByteBuf message = reassembly.message;
        final int dataLength = length - NEXT_FRAGMENT_HEADER_LENGTH;
        if (dataLength > message.maxWritableBytes())
        {
            return fail(ctx, in, RipcDisconnectReason.BAD_FRAGMENT, "fragments exceed announced total length=" +
                message.maxCapacity() + " fragId=" + fragId);
        }
        if (dataLength > message.writableBytes() && !grow(ctx, in, message, dataLength, fragId))
        {
            return false;
        }
        message.writeBytes(in, start + NEXT_FRAGMENT_HEADER_LENGTH, dataLength);
        if (0 == message.maxWritableBytes())
        {
            reassemblyByFragId.remove(fragId);
            reassemblyBytes -= message.capacity();
            reassembly.message = null;
            deliverReassembled(ctx, message, out);
        }
        return true;
    }

    private void deliverReassembled(final ChannelHandlerContext ctx, final ByteBuf message, final List<Object> out)
    {
        messagesIn++;
        final RipcMessageSink sink = sink(ctx);
        if (null == sink)
        {
            out.add(message);
            return;
        }
        hasLentSinceReadComplete = true;
        try
        {
            lend(ctx, sink, message);
        }
        finally
        {
            message.release();
        }
    }

    /**
     * Double the buffer (at least to what this fragment needs, at most to the announced total) within the
     * connection's reassembly budget. Growing here rather than in writeBytes keeps {@link #reassemblyBytes} exact.
     */
    private boolean grow(
        final ChannelHandlerContext ctx,
        final ByteBuf in,
        final ByteBuf message,
        final int dataLength,
        final int fragId)
    {
        final int oldCapacity = message.capacity();
        final int newCapacity = (int)Math.min(message.maxCapacity(),
            Math.max((long)message.writerIndex() + dataLength, 2L * oldCapacity));
        final long held = reassemblyBytes - oldCapacity + newCapacity;
        if (held > maxReassemblyBytes)
        {
            return fail(ctx, in, RipcDisconnectReason.REASSEMBLY_LIMIT,
                "reassembly would hold " + held + " bytes, cap=" + maxReassemblyBytes + " fragId=" + fragId);
        }
        message.capacity(newCapacity);
        reassemblyBytes = held;
        return true;
    }

    private boolean fail(
        final ChannelHandlerContext ctx, final ByteBuf in, final RipcDisconnectReason reason, final String detail)
    {
        isFailed = true;
        in.skipBytes(in.readableBytes());
        partialFrameStartNs = NO_PARTIAL_FRAME;
        releaseReassemblies();
        disconnects.disconnect(ctx.channel(), reason, detail);
        return false;
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
    {
        flushCounters();
        if (hasLentSinceReadComplete)
        {
            // ByteToMessageDecoder reads again when autoRead is off and it passed nothing down the pipeline (a
            // decoder short of a whole message); messages lent to the sink are passed on all the same, and that
            // read would defeat a reader that paused reading, as the distributor does under backbone back-pressure
            hasLentSinceReadComplete = false;
            discardSomeReadBytes();
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    @Override
    protected void handlerRemoved0(final ChannelHandlerContext ctx)
    {
        flushCounters();
        releaseReassemblies();
    }

    private void flushCounters()
    {
        if (0 != framesIn)
        {
            counters.framesIn().getAndAdd(framesIn);
            framesIn = 0;
        }
        if (0 != messagesIn)
        {
            counters.messagesIn().getAndAdd(messagesIn);
            messagesIn = 0;
        }
        if (0 != pingsIn)
        {
            counters.pingsIn().getAndAdd(pingsIn);
            pingsIn = 0;
        }
    }

    private void releaseReassemblies()
    {
        if (!reassemblyByFragId.isEmpty())
        {
            for (final Reassembly reassembly : reassemblies)
            {
                if (null != reassembly.message)
                {
                    reassembly.message.release();
                    reassembly.message = null;
                }
            }
            reassemblyByFragId.clear();
            reassemblyBytes = 0;
        }
    }

    /**
     * One fragmented message being reassembled; the slots are allocated once per connection and reused.
     */
    private static final class Reassembly
    {
        ByteBuf message;
        long startNs;
    }
}
