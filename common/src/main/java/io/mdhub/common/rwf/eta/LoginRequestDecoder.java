package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * Decodes a Login request (user name, role, application id/name, position, SingleOpen, AllowSuspectData...) into a
 * reused ETA {@link LoginRequest}. Its buffers point into the message memory.
 */
public final class LoginRequestDecoder
{
    private final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();

    /**
     * @param reader holding a decoded RequestMsg.
     * @return an ETA {@code CodecReturnCodes} value; FAILURE if the message is not a Login request or is malformed
     * in a way ETA throws at.
     */
    public int decode(final EtaMsgReader reader)
    {
        request.clear();
        request.rdmMsgType(LoginMsgType.REQUEST);
        if (DomainTypes.LOGIN != reader.msg().domainType())
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
    public LoginRequest request()
    {
        return request;
    }

    /**
     * @return true if the peer logs in as a (non-interactive) provider.
     */
    public boolean isProvider()
    {
        return request.checkHasRole() && Login.RoleTypes.PROV == request.role();
    }

    /**
     * @return true if the peer wants SingleOpen behaviour (default 1 when absent, as ETA applies it).
     */
    public boolean singleOpen()
    {
        return !request.checkHasAttrib() || !request.attrib().checkHasSingleOpen()
            || 0 != request.attrib().singleOpen();
    }

    /**
     * @return true if the peer accepts suspect data (default 1 when absent).
     */
    public boolean allowSuspectData()
    {
        return !request.checkHasAttrib() || !request.attrib().checkHasAllowSuspectData()
            || 0 != request.attrib().allowSuspectData();
    }
}
