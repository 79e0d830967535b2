package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.rdm.Dictionary;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.TransportFactory;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.GeneratedDictionary;

/**
 * A full-size dictionary is sent in many parts of the consumer's message size: CLEAR_CACHE on the first,
 * REFRESH_COMPLETE on the last only, the version in the summary, and ETA loads the parts back into exactly the
 * dictionary it came from. An enum table larger than a part is sent in a larger part of its own.
 */
@InterruptAfter(30)
class DictionaryRefreshEncoderTest
{
    private static final int PART_SIZE = 6144;
    private static final int MAX_PART_SIZE = 1 << 20;

    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final DictionaryRefreshEncoder encoder = new DictionaryRefreshEncoder();
    private final Error error = TransportFactory.createError();

    @Test
    void aFullDictionaryGoesInManyPartsAndLoadsBackExactly(@TempDir final Path dir)
    {
        final GeneratedDictionary generated = GeneratedDictionary.write(dir, 6_000);
        final DataDictionary source = DictionaryLoader.load(generated.fieldFile(), generated.enumFile());
        final DataDictionary received = CodecFactory.createDataDictionary();

        encoder.begin(source, 3, 1, Dictionary.VerbosityValues.NORMAL, true, true);
        final List<byte[]> fieldParts = encodeAllParts();
        assertTrue(fieldParts.size() > 20, "parts: " + fieldParts.size());
        for (int i = 0; i < fieldParts.size(); i++)
        {
            assertTrue(fieldParts.get(i).length <= PART_SIZE, "part " + i + " fits the message size");
            final DecodeIterator it = decode(fieldParts.get(i), i, fieldParts.size(), "RWFFld");
            assertEquals(CodecReturnCodes.SUCCESS,
                received.decodeFieldDictionary(it, Dictionary.VerbosityValues.NORMAL, error), error::text);
        }

        encoder.begin(source, 4, 1, Dictionary.VerbosityValues.NORMAL, false, true);
        final List<byte[]> enumParts = encodeAllParts();
        assertTrue(enumParts.size() > 5, "parts: " + enumParts.size());
        assertTrue(enumParts.get(0).length > PART_SIZE, "the large table needs a larger part of its own");
        for (int i = 0; i < enumParts.size(); i++)
        {
            assertTrue(0 == i || enumParts.get(i).length <= PART_SIZE, "part " + i + " fits the message size");
            final DecodeIterator it = decode(enumParts.get(i), i, enumParts.size(), "RWFEnum");
            assertEquals(CodecReturnCodes.SUCCESS,
                received.decodeEnumTypeDictionary(it, Dictionary.VerbosityValues.NORMAL, error), error::text);
        }

        generated.assertSameAs(received, false); // ETA's multi-part enum encoding never sends meanings
    }

    /**
     * Encode every part as a server does: into a buffer of the message size, encoding a part again into a buffer
     * twice as large when what comes next does not fit at all.
     */
    private List<byte[]> encodeAllParts()
    {
        final List<byte[]> parts = new ArrayList<>();
        int result;
        do
        {
            int capacity = PART_SIZE;
            UnsafeBuffer out;
            while (true)
            {
                out = new UnsafeBuffer(new byte[capacity]);
                result = encoder.encodeNextPart(writer.begin(out, 0, capacity));
                if (CodecReturnCodes.BUFFER_TOO_SMALL != result || capacity == MAX_PART_SIZE)
                {
                    break;
                }
                capacity *= 2;
            }
            assertTrue(result >= CodecReturnCodes.SUCCESS, "part " + parts.size() + ": " + result);
            final byte[] bytes = new byte[writer.encodedLength()];
            out.getBytes(0, bytes);
            parts.add(bytes);
            assertTrue(parts.size() < 1_000);
        }
        while (CodecReturnCodes.DICT_PART_ENCODED == result);
        return parts;
    }

    private static DecodeIterator decode(final byte[] part, final int index, final int parts, final String name)
    {
        final DecodeIterator it = RwfTestSupport.decodeIterator(part);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final RefreshMsg refresh = (RefreshMsg)msg;
        assertEquals(DomainTypes.DICTIONARY, refresh.domainType());
        assertEquals(name, refresh.msgKey().name().toString());
        assertEquals(0 == index, 0 != (refresh.flags() & RefreshMsgFlags.CLEAR_CACHE), "clear cache, part " + index);
        assertEquals(parts - 1 == index, 0 != (refresh.flags() & RefreshMsgFlags.REFRESH_COMPLETE),
            "refresh complete on the last part only, part " + index);
        return it;
    }
}
