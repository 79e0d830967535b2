package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequestFlags;

/**
 * Decodes a Source Directory request: the filter (which service information is wanted), streaming or not, and the
 * optional serviceId or service name that narrows it to one service.
 */
public final class DirectoryRequestDecoder
{
    private final DirectoryRequest request = (DirectoryRequest)DirectoryMsgFactory.createMsg();
    private Buffer serviceName;

    /**
     * @param reader holding a decoded RequestMsg.
     * @return an ETA {@code CodecReturnCodes} value; FAILURE if the message is not a directory request or is
     * malformed in a way ETA throws at.
     */
    public int decode(final EtaMsgReader reader)
    {
        request.clear();
        request.rdmMsgType(DirectoryMsgType.REQUEST);
        serviceName = null;
        if (DomainTypes.SOURCE != reader.msg().domainType())
        {
            return CodecReturnCodes.FAILURE;
        }
        final int result;
        try
        {
            result = request.decode(reader.iterator(), reader.msg());
        }
        catch (final RuntimeException ex)
        {
            return EtaDecoding.malformed();
        }
        if (CodecReturnCodes.SUCCESS == result && 0 != (reader.msg().msgKey().flags() & MsgKeyFlags.HAS_NAME))
        {
            serviceName = reader.msg().msgKey().name();
        }
        return result;
    }

    /**
     * @return the decoded request.
     */
    public DirectoryRequest request()
    {
        return request;
    }

    /**
     * @return the requested filter ({@code Directory.ServiceFilterFlags} bits).
     */
    public long filter()
    {
        return request.filter();
    }

    /**
     * @return true if the request is streaming.
     */
    public boolean streaming()
    {
        return 0 != (request.flags() & DirectoryRequestFlags.STREAMING);
    }

    /**
     * @return the requested serviceId, or -1 for all services.
     */
    public int serviceId()
    {
        return 0 != (request.flags() & DirectoryRequestFlags.HAS_SERVICE_ID) ? request.serviceId() : -1;
    }

    /**
     * @return the requested service name, or null when the key has none.
     */
    public Buffer serviceName()
    {
        return serviceName;
    }
}
