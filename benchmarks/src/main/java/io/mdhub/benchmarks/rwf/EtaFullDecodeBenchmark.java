package io.mdhub.benchmarks.rwf;

import java.nio.ByteBuffer;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.Time;
import com.refinitiv.eta.codec.UInt;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.common.dictionary.DictionaryLoader;

/**
 * What a full decode of the same level-1 update costs with ETA: Msg.decode, FieldList.decode and every FieldEntry
 * decoded by its dictionary type, with reused ETA objects (the way an ETA application does it).
 */
public class EtaFullDecodeBenchmark extends AbstractMdBenchmark
{
    private final DecodeIterator iterator = CodecFactory.createDecodeIterator();
    private final Msg msg = CodecFactory.createMsg();
    private final FieldList fieldList = CodecFactory.createFieldList();
    private final FieldEntry entry = CodecFactory.createFieldEntry();
    private final Real real = CodecFactory.createReal();
    private final UInt uint = CodecFactory.createUInt();
    private final Enum enumValue = CodecFactory.createEnum();
    private final Time time = CodecFactory.createTime();
    private final Buffer buffer = CodecFactory.createBuffer();
    private DataDictionary dictionary;
    private ByteBuffer update;

    @Setup
    public void setup()
    {
        dictionary = DictionaryLoader.loadBundled();
        update = ByteBuffer.allocateDirect(BenchmarkMessages.LEVEL1_UPDATE.length);
        update.put(0, BenchmarkMessages.LEVEL1_UPDATE);
    }

    @Benchmark
    public long level1UpdateFullDecode()
    {
        update.position(0);
        buffer.data(update, 0, BenchmarkMessages.LEVEL1_UPDATE.length);
        iterator.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        if (CodecReturnCodes.SUCCESS != msg.decode(iterator) || DataTypes.FIELD_LIST != msg.containerType()
            || CodecReturnCodes.SUCCESS != fieldList.decode(iterator, null))
        {
            return -1;
        }
        long sum = msg.streamId();
        while (CodecReturnCodes.END_OF_CONTAINER != entry.decode(iterator))
        {
            final DictionaryEntry definition = dictionary.entry(entry.fieldId());
            switch (null == definition ? DataTypes.UNKNOWN : definition.rwfType())
            {
                case DataTypes.REAL:
                    real.decode(iterator);
                    sum += real.toLong() + real.hint();
                    break;
                case DataTypes.UINT:
                    uint.decode(iterator);
                    sum += uint.toLong();
                    break;
                case DataTypes.ENUM:
                    enumValue.decode(iterator);
                    sum += enumValue.toInt();
                    break;
                case DataTypes.TIME:
                    time.decode(iterator);
                    sum += time.millisecond();
                    break;
                default:
                    sum += entry.encodedData().length();
                    break;
            }
        }
        return sum;
    }
}
