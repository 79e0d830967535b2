package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;

import io.netty.buffer.ByteBuf;

/**
 * One reusable ETA {@link Buffer} pointed at a region of caller memory: a {@link ByteBuffer}, an Agrona
 * {@link DirectBuffer} (backed by a ByteBuffer or a byte array) or a Netty {@link ByteBuf} with a single NIO buffer.
 * <p>
 * ETA moves the position of the ByteBuffer it encodes into, so the view works on its own duplicate of the caller's
 * ByteBuffer (made once per distinct ByteBuffer, then reused) and the caller's position and limit stay untouched.
 * For a Netty buffer it uses {@link ByteBuf#internalNioBuffer(int, int)}, which Netty keeps for exactly this purpose.
 */
public final class EtaBufferView
{
    private final Buffer buffer = CodecFactory.createBuffer();
    private ByteBuffer source;
    private ByteBuffer view;
    private byte[] sourceArray;
    private ByteBuffer arrayView;
    private int offset;
    private int length;

    /**
     * Point at [offset, offset + length) of a ByteBuffer (absolute indices).
     *
     * @param byteBuffer the memory.
     * @param offset     first byte.
     * @param length     number of bytes: the message to decode, or the space available to encode into.
     * @return the ETA buffer.
     */
    public Buffer wrap(final ByteBuffer byteBuffer, final int offset, final int length)
    {
        if (byteBuffer != source)
        {
            source = byteBuffer;
            view = byteBuffer.duplicate();
        }
        return point(view, offset, length);
    }

    /**
     * Point at [offset, offset + length) of an Agrona buffer.
     *
     * @param directBuffer the memory; must be backed by a ByteBuffer or a byte array.
     * @param offset       first byte, as an index of directBuffer.
     * @param length       number of bytes.
     * @return the ETA buffer.
     */
    public Buffer wrap(final DirectBuffer directBuffer, final int offset, final int length)
    {
        final int adjusted = directBuffer.wrapAdjustment() + offset;
        if (null != directBuffer.byteBuffer())
        {
            return wrap(directBuffer.byteBuffer(), adjusted, length);
        }
        final byte[] array = directBuffer.byteArray();
        if (null == array)
        {
            throw new IllegalArgumentException("Agrona buffer over raw memory: wrap a ByteBuffer instead");
        }
        if (array != sourceArray)
        {
            sourceArray = array;
            arrayView = ByteBuffer.wrap(array);
        }
        return point(arrayView, adjusted, length);
    }

    /**
     * Point at [index, index + length) of a Netty buffer.
     *
     * @param byteBuf the memory; must expose exactly one NIO buffer (not a composite).
     * @param index   first byte.
     * @param length  number of bytes.
     * @return the ETA buffer.
     */
    public Buffer wrap(final ByteBuf byteBuf, final int index, final int length)
    {
        if (1 != byteBuf.nioBufferCount())
        {
            throw new IllegalArgumentException("ByteBuf must have exactly one NIO buffer");
        }
        final ByteBuffer nio = byteBuf.internalNioBuffer(index, length);
        source = null;
        return point(nio, nio.position(), length);
    }

    private Buffer point(final ByteBuffer memory, final int offset, final int length)
    {
        this.offset = offset;
        this.length = length;
        memory.limit(memory.capacity());
        // ETA's Buffer.length() shrinks to (position - offset) once the position moves past offset, which is how
        // the encoded length is reported; start with the position at the region's first byte.
        memory.position(offset);
        buffer.data(memory, offset, length);
        return buffer;
    }

    /**
     * @return the ETA buffer as last wrapped.
     */
    public Buffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the region in the underlying memory.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the region as wrapped.
     */
    public int capacity()
    {
        return length;
    }

    /**
     * @return bytes ETA has encoded into the region since it was wrapped.
     */
    public int encodedLength()
    {
        return buffer.data().position() - offset;
    }
}
