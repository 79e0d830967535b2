package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import org.agrona.MutableDirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.EncodeIterator;

import io.netty.buffer.ByteBuf;

/**
 * A reusable ETA {@link EncodeIterator} over caller memory. Call one of the {@code begin} methods, hand the iterator
 * to an encoder, then read {@link #encodedLength()}.
 */
public final class EtaMsgWriter
{
    private final EtaBufferView view = new EtaBufferView();
    private final EncodeIterator iterator = CodecFactory.createEncodeIterator();

    /**
     * @param buffer   to encode into.
     * @param offset   first byte.
     * @param capacity bytes available.
     * @return the iterator, ready for one message.
     */
    public EncodeIterator begin(final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        return begin(view.wrap(buffer, offset, capacity));
    }

    /**
     * @param buffer   to encode into (absolute indices; its position and limit are not changed).
     * @param offset   first byte.
     * @param capacity bytes available.
     * @return the iterator, ready for one message.
     */
    public EncodeIterator begin(final ByteBuffer buffer, final int offset, final int capacity)
    {
        return begin(view.wrap(buffer, offset, capacity));
    }

    /**
     * @param buffer   to encode into; the writer index is not moved (add {@link #encodedLength()} yourself).
     * @param index    first byte.
     * @param capacity bytes available.
     * @return the iterator, ready for one message.
     */
    public EncodeIterator begin(final ByteBuf buffer, final int index, final int capacity)
    {
        return begin(view.wrap(buffer, index, capacity));
    }

    private EncodeIterator begin(final Buffer buffer)
    {
        iterator.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        return iterator;
    }

    /**
     * @return the iterator of the current message.
     */
    public EncodeIterator iterator()
    {
        return iterator;
    }

    /**
     * @return bytes encoded since the last begin.
     */
    public int encodedLength()
    {
        return view.encodedLength();
    }
}
