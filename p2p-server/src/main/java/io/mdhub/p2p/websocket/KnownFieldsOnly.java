package io.mdhub.p2p.websocket;

import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.FieldListFlags;
import com.refinitiv.eta.codec.Msg;

import io.mdhub.common.rwf.eta.EtaMsgWriter;

/**
 * An RWF message again without the field entries its dictionary lacks. ETA's converter refuses to turn a message
 * with any such field into JSON, so without this a provider's one field beyond the dictionary would cost a JSON
 * consumer the whole update, while RSSL consumers get all of it; with it they get every field the dictionary names.
 * Only a message the converter refused comes here. Not thread safe.
 */
final class KnownFieldsOnly
{
    private final DataDictionary dictionary;
    private final DecodeIterator decoder = CodecFactory.createDecodeIterator();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final Buffer body = CodecFactory.createBuffer();
    private final FieldList in = CodecFactory.createFieldList();
    private final FieldList out = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();
    private ByteBuffer bytes = ByteBuffer.allocate(1024);
    private int dropped;
    private int firstDroppedFid;

    KnownFieldsOnly(final DataDictionary dictionary)
    {
        this.dictionary = dictionary;
    }

    /**
     * Encode the message without its unknown fields; the result is {@link #bytes()} up to {@link #length()}.
     *
     * @param msg a decoded message (its body buffer is taken over by the encoding).
     * @return false when it has no field list, its field list does not decode, or every field is known.
     */
    boolean filter(final Msg msg)
    {
        dropped = 0;
        if (DataTypes.FIELD_LIST != msg.containerType())
        {
            return false;
        }
        body.data(msg.encodedDataBody().data(), msg.encodedDataBody().position(), msg.encodedDataBody().length());
        final int capacity = msg.encodedMsgBuffer().length() + 64;
        if (bytes.capacity() < capacity)
        {
            bytes = ByteBuffer.allocate(Math.max(capacity, 2 * bytes.capacity()));
        }
        final EncodeIterator encoder = writer.begin(bytes, 0, bytes.capacity());
        msg.encodedDataBody().clear();
        if (CodecReturnCodes.ENCODE_CONTAINER != msg.encodeInit(encoder, 0) || !encodeKnownFields(encoder))
        {
            return false;
        }
        return CodecReturnCodes.SUCCESS == msg.encodeComplete(encoder, true) && dropped > 0;
    }

    private boolean encodeKnownFields(final EncodeIterator encoder)
    {
        decoder.clear();
        decoder.setBufferAndRWFVersion(body, Codec.majorVersion(), Codec.minorVersion());
        if (CodecReturnCodes.SUCCESS != in.decode(decoder, null))
        {
            return false;
        }
        out.clear();
        out.flags(in.flags() & (FieldListFlags.HAS_FIELD_LIST_INFO | FieldListFlags.HAS_STANDARD_DATA));
        out.dictionaryId(in.dictionaryId());
        out.fieldListNum(in.fieldListNum());
        if (CodecReturnCodes.SUCCESS != out.encodeInit(encoder, null, 0))
        {
            return false;
        }
        int result;
        while (CodecReturnCodes.END_OF_CONTAINER != (result = entry.decode(decoder)))
        {
            if (CodecReturnCodes.SUCCESS != result)
            {
                return false;
            }
            if (null == dictionary.entry(entry.fieldId()))
            {
                firstDroppedFid = 0 == dropped ? entry.fieldId() : firstDroppedFid;
                dropped++;
            }
            else if (CodecReturnCodes.SUCCESS != entry.encode(encoder))
            {
                return false;
            }
        }
        return CodecReturnCodes.SUCCESS == out.encodeComplete(encoder, true);
    }

    /**
     * @return the filtered message's bytes, from 0.
     */
    ByteBuffer bytes()
    {
        return bytes;
    }

    /**
     * @return the filtered message's length.
     */
    int length()
    {
        return writer.encodedLength();
    }

    /**
     * @return fields left out of the last message filtered.
     */
    int dropped()
    {
        return dropped;
    }

    /**
     * @return the first of them.
     */
    int firstDroppedFid()
    {
        return firstDroppedFid;
    }
}
