package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRequestFlags;

import io.mdhub.common.dictionary.DictionaryLoader;

/**
 * Decodes a Dictionary request: which dictionary (RWFFld or RWFEnum), for which service, at which verbosity.
 */
public final class DictionaryRequestDecoder
{
    private final DictionaryRequest request = (DictionaryRequest)DictionaryMsgFactory.createMsg();

    /**
     * @param reader holding a decoded RequestMsg.
     * @return an ETA {@code CodecReturnCodes} value; FAILURE if the message is not a dictionary request or is
     * malformed in a way ETA throws at.
     */
    public int decode(final EtaMsgReader reader)
    {
        request.clear();
        request.rdmMsgType(DictionaryMsgType.REQUEST);
        if (DomainTypes.DICTIONARY != reader.msg().domainType())
        {
            return CodecReturnCodes.FAILURE;
        }
        try
        {
            return request.decode(reader.iterator(), reader.msg());
        }
        catch (final RuntimeException ex)
        {
            return EtaDecoding.malformed();
        }
    }

    /**
     * @return the decoded request.
     */
    public DictionaryRequest request()
    {
        return request;
    }

    /**
     * @return true if the field dictionary (RWFFld) was asked for.
     */
    public boolean isFieldDictionary()
    {
        return nameEquals(DictionaryLoader.FIELD_DICTIONARY_NAME);
    }

    /**
     * @return true if the enumerated types (RWFEnum) were asked for.
     */
    public boolean isEnumTypeDictionary()
    {
        return nameEquals(DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
    }

    /**
     * @return true if the request is streaming.
     */
    public boolean streaming()
    {
        return 0 != (request.flags() & DictionaryRequestFlags.STREAMING);
    }

    private boolean nameEquals(final String name)
    {
        final com.refinitiv.eta.codec.Buffer requested = request.dictionaryName();
        if (requested.length() != name.length())
        {
            return false;
        }
        for (int i = 0; i < name.length(); i++)
        {
            if (requested.data().get(requested.position() + i) != name.charAt(i))
            {
                return false;
            }
        }
        return true;
    }
}
