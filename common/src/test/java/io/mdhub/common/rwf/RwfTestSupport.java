package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Msg;

/**
 * Small helpers for tests that use ETA as the oracle: hex vectors, ETA encode to bytes, ETA decode from bytes.
 */
public final class RwfTestSupport
{
    private RwfTestSupport()
    {
    }

    /**
     * @param hex bytes as hex pairs, whitespace and '|' ignored.
     * @return the bytes.
     */
    public static byte[] hex(final String hex)
    {
        final String clean = hex.replaceAll("[\\s|]", "");
        final byte[] out = new byte[clean.length() / 2];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = (byte)Integer.parseInt(clean.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /**
     * @param text ASCII text.
     * @return an ETA buffer over a fresh copy of the text.
     */
    public static Buffer etaBuffer(final String text)
    {
        return etaBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * @param bytes content.
     * @return an ETA buffer over a fresh copy of the bytes.
     */
    public static Buffer etaBuffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        final ByteBuffer data = ByteBuffer.allocate(bytes.length);
        data.put(bytes).flip();
        buffer.data(data, 0, bytes.length);
        return buffer;
    }

    /**
     * @param buffer an ETA buffer.
     * @return its bytes.
     */
    public static byte[] bytes(final Buffer buffer)
    {
        final byte[] out = new byte[buffer.length()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = buffer.data().get(buffer.position() + i);
        }
        return out;
    }

    /**
     * Encode a message with ETA.
     *
     * @param msg to encode.
     * @return the encoded bytes.
     */
    public static byte[] encode(final Msg msg)
    {
        final ByteBuffer data = ByteBuffer.allocate(8192);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(data);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, msg.encode(it), "ETA encode");
        final byte[] out = new byte[data.position()];
        data.flip();
        data.get(out);
        return out;
    }

    /**
     * @param bytes an encoded message.
     * @return a decode iterator over a copy of the bytes.
     */
    public static DecodeIterator decodeIterator(final byte[] bytes)
    {
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(etaBuffer(bytes), Codec.majorVersion(), Codec.minorVersion());
        return it;
    }

    /**
     * Decode a message with ETA, failing the test if ETA refuses it.
     *
     * @param bytes an encoded message.
     * @return the decoded message (its buffers point into a private copy of the bytes).
     */
    public static Msg decode(final byte[] bytes)
    {
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(decodeIterator(bytes)), "ETA decode");
        return msg;
    }
}
