package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsg;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * Login request/refresh encoded and decoded with ETA's own valueadd RDM helpers (the test oracle).
 */
final class EtaLogin
{
    private EtaLogin()
    {
    }

    static byte[] loginRequest(final int streamId, final String user)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(streamId);
        request.userName().data(user);
        return encode(request);
    }

    static byte[] loginRefresh(final int streamId, final String user)
    {
        final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        refresh.streamId(streamId);
        refresh.applySolicited();
        refresh.applyHasUserName();
        refresh.userName().data(user);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().text().data("Login accepted by " + user);
        return encode(refresh);
    }

    static boolean isLoginRequest(final byte[] rwf)
    {
        return rwf.length > 4 && MsgClasses.REQUEST == rwf[2] && DomainTypes.LOGIN == rwf[3];
    }

    static LoginRequest decodeLoginRequest(final byte[] rwf)
    {
        final DecodeIterator it = decodeIterator(rwf);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        assertEquals(CodecReturnCodes.SUCCESS, request.decode(it, msg));
        return request;
    }

    static LoginRefresh decodeLoginRefresh(final byte[] rwf)
    {
        final DecodeIterator it = decodeIterator(rwf);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, msg));
        return refresh;
    }

    private static DecodeIterator decodeIterator(final byte[] rwf)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(rwf));
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        return it;
    }

    private static byte[] encode(final LoginMsg msg)
    {
        final ByteBuffer data = ByteBuffer.allocate(4096);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(data);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, msg.encode(it));
        final byte[] bytes = new byte[data.position()];
        data.get(0, bytes);
        return bytes;
    }
}
