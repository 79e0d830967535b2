package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Dictionary;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRefresh;

import io.mdhub.common.dictionary.DictionaryLoader;

/**
 * Encodes a field (RWFFld) or enumerated-type (RWFEnum) dictionary as a multi-part refresh. Call
 * {@link #begin(DataDictionary, int, int, int, boolean, boolean)}, then {@link #encodeNextPart(EncodeIterator)} into a
 * fresh buffer per part until it returns SUCCESS (last part); {@code CodecReturnCodes.DICT_PART_ENCODED} means more
 * parts follow. The part size is the buffer size: ETA fills a part with whole fields (or whole enum tables) and stops
 * before the first that does not fit. {@code CodecReturnCodes.BUFFER_TOO_SMALL} means not even one fits (an enum
 * table of thousands of values): encode the same part again into a larger buffer. CLEAR_CACHE goes on the first part,
 * ETA sets REFRESH_COMPLETE on the last only and puts the dictionary's version tags (Version; RT_Version and
 * DT_Version) in the summary data. One dictionary stream at a time per instance.
 */
public final class DictionaryRefreshEncoder
{
    private final DictionaryRefresh refresh = (DictionaryRefresh)DictionaryMsgFactory.createMsg();
    private final Buffer fieldName = CodecFactory.createBuffer();
    private final Buffer enumName = CodecFactory.createBuffer();
    private final Buffer text = CodecFactory.createBuffer();
    private DataDictionary dictionary;
    private int streamId;
    private int serviceId;
    private int verbosity;
    private boolean fields;
    private boolean streaming;
    private boolean firstPart;
    private int nextStart;

    /**
     * Create an encoder with its constant texts.
     */
    public DictionaryRefreshEncoder()
    {
        fieldName.data(DictionaryLoader.FIELD_DICTIONARY_NAME);
        enumName.data(DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        text.data("Dictionary refresh");
    }

    /**
     * Start a dictionary download.
     *
     * @param dictionary to send.
     * @param streamId   of the consumer's dictionary stream.
     * @param serviceId  the service the dictionary belongs to.
     * @param verbosity  {@code Dictionary.VerbosityValues} from the request.
     * @param fields     true for RWFFld, false for RWFEnum.
     * @param streaming  true if the request was streaming (stream state Open, else NonStreaming).
     */
    public void begin(
        final DataDictionary dictionary,
        final int streamId,
        final int serviceId,
        final int verbosity,
        final boolean fields,
        final boolean streaming)
    {
        this.dictionary = dictionary;
        this.streamId = streamId;
        this.serviceId = serviceId;
        this.verbosity = verbosity;
        this.fields = fields;
        this.streaming = streaming;
        this.firstPart = true;
        this.nextStart = fields ? dictionary.minFid() : 0;
    }

    /**
     * Encode the next part.
     *
     * @param iterator over a buffer for this part.
     * @return SUCCESS for the last part, DICT_PART_ENCODED if more follow, BUFFER_TOO_SMALL if the next entry does
     *         not fit the buffer (nothing advanced: encode this part again, larger), or another negative error.
     */
    public int encodeNextPart(final EncodeIterator iterator)
    {
        refresh.clear();
        refresh.rdmMsgType(DictionaryMsgType.REFRESH);
        refresh.streamId(streamId);
        refresh.serviceId(serviceId);
        refresh.verbosity(verbosity);
        refresh.dictionary(dictionary);
        refresh.dictionaryName(fields ? fieldName : enumName);
        refresh.dictionaryType(fields ? Dictionary.Types.FIELD_DEFINITIONS : Dictionary.Types.ENUM_TABLES);
        refresh.state().streamState(streaming ? StreamStates.OPEN : StreamStates.NON_STREAMING);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.state().text(text);
        refresh.applySolicited();
        if (firstPart)
        {
            refresh.applyClearCache();
        }
        if (fields)
        {
            refresh.startFid(nextStart);
        }
        else
        {
            refresh.startEnumTableCount(nextStart);
        }
        final int result = refresh.encode(iterator);
        if (CodecReturnCodes.DICT_PART_ENCODED == result)
        {
            firstPart = false;
            nextStart = fields ? refresh.startFid() : refresh.startEnumTableCount();
        }
        return result;
    }
}
