package io.mdhub.common.rwf.eta;

import java.util.List;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

/**
 * Decodes the directory refresh a non-interactive provider publishes after login into ETA {@link Service}
 * descriptions. Directory refreshes are rare admin messages: ETA creates the Service objects while decoding, which
 * is acceptable off the hot path. Copy what you keep ({@code Service.copy}) before the next decode.
 */
public final class DirectoryRefreshDecoder
{
    private final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();

    /**
     * @param reader holding a decoded RefreshMsg.
     * @return an ETA {@code CodecReturnCodes} value; FAILURE if the message is not a directory refresh or is
     * malformed in a way ETA throws at.
     */
    public int decode(final EtaMsgReader reader)
    {
        refresh.clear();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        if (DomainTypes.SOURCE != reader.msg().domainType())
        {
            return CodecReturnCodes.FAILURE;
        }
        try
        {
            return refresh.decode(reader.iterator(), reader.msg());
        }
        catch (final RuntimeException ex)
        {
            return EtaDecoding.malformed();
        }
    }

    /**
     * @return the decoded refresh.
     */
    public DirectoryRefresh refresh()
    {
        return refresh;
    }

    /**
     * @return the services of the decoded refresh.
     */
    public List<Service> services()
    {
        return refresh.serviceList();
    }
}
