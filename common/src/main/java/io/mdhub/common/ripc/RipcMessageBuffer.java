package io.mdhub.common.ripc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DuplicatedByteBuf;

/**
 * The type of the buffers {@link RipcFrameEncoder#newMessageBuffer} hands out: a view of one freshly allocated pooled
 * buffer with {@link RipcFrameEncoder#HEADROOM} bytes reserved before the message, marked by its class so the
 * encoder can tell, with one {@code instanceof}, that the bytes before the readerIndex belong to this message alone
 * and may take the frame header. Anything derived from it ({@code duplicate}, {@code retainedDuplicate},
 * {@code slice}, ...) is a plain Netty buffer sharing memory with others, so the encoder copies that instead of
 * writing into a neighbour's bytes.
 * <p>
 * Netty 4.1 offers no public, non-deprecated ByteBuf to extend for such a marker (its {@code WrappedByteBuf} is
 * package-private); {@code DuplicatedByteBuf} shares the index space, reference count and memory address of the
 * pooled buffer it views, which is exactly what is needed. The price is one small, short-lived object per message.
 */
@SuppressWarnings("deprecation")
final class RipcMessageBuffer extends DuplicatedByteBuf
{
    RipcMessageBuffer(final ByteBuf buffer)
    {
        super(buffer);
    }

    // Derived views are taken from the pooled buffer itself (same index space), never from this view: Netty's
    // derived types expect to wrap a plain buffer, and under leak detection the pooled one is a leak-aware wrapper.

    @Override
    public ByteBuf duplicate()
    {
        return unwrap().duplicate().setIndex(readerIndex(), writerIndex());
    }

    @Override
    public ByteBuf retainedDuplicate()
    {
        return unwrap().retainedDuplicate().setIndex(readerIndex(), writerIndex());
    }

    @Override
    public ByteBuf slice(final int index, final int length)
    {
        return unwrap().slice(index, length);
    }

    @Override
    public ByteBuf retainedSlice()
    {
        return unwrap().retainedSlice(readerIndex(), readableBytes());
    }

    @Override
    public ByteBuf retainedSlice(final int index, final int length)
    {
        return unwrap().retainedSlice(index, length);
    }
}
