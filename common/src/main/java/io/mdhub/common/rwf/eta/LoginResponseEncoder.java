package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginStatus;

/**
 * Encodes the server's answers on the Login stream: a refresh that accepts the login and announces the features the
 * server supports, and a status that rejects or closes it. The features are fixed at construction (they come from the
 * server's configuration); the refresh echoes the user name and application attributes of the request.
 */
public final class LoginResponseEncoder
{
    private static final long BATCH_REQUESTS = 1;
    private static final long BATCH_REISSUES = 2;
    private static final long BATCH_CLOSES = 4;

    private final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
    private final LoginStatus status = (LoginStatus)LoginMsgFactory.createMsg();
    private final Buffer applicationName;
    private final long supportBatchRequests;
    private final long supportViewRequests;
    private final long supportOmmPost;
    private final long supportOptimizedPauseResume;

    /**
     * @param applicationName             announced as ApplicationName (e.g. "MDHub").
     * @param supportBatchRequests        SupportBatchRequests bitmask (1 requests, 2 reissues, 4 closes; 0 = none).
     * @param supportViewRequests         1 if views are supported.
     * @param supportOmmPost              1 if posting is supported.
     * @param supportOptimizedPauseResume 1 if pausing the login stream pauses everything.
     */
    public LoginResponseEncoder(
        final String applicationName,
        final long supportBatchRequests,
        final long supportViewRequests,
        final long supportOmmPost,
        final long supportOptimizedPauseResume)
    {
        this.applicationName = CodecFactory.createBuffer();
        this.applicationName.data(applicationName);
        this.supportBatchRequests = supportBatchRequests;
        this.supportViewRequests = supportViewRequests;
        this.supportOmmPost = supportOmmPost;
        this.supportOptimizedPauseResume = supportOptimizedPauseResume;
    }

    /**
     * Encode a LoginRefresh Open/Ok answering the request.
     *
     * @param iterator    to encode into.
     * @param request     the decoded request (its buffers must still be valid).
     * @param singleOpen  the SingleOpen value the server grants.
     * @param allowSuspect the AllowSuspectData value the server grants.
     * @param text        state text, e.g. "Login accepted by MDHub".
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeAccept(
        final EncodeIterator iterator,
        final LoginRequest request,
        final boolean singleOpen,
        final boolean allowSuspect,
        final Buffer text)
    {
        refresh.clear();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        refresh.streamId(request.streamId());
        refresh.applySolicited();
        refresh.applyHasUserName();
        refresh.userName(request.userName());
        if (request.checkHasUserNameType())
        {
            refresh.applyHasUserNameType();
            refresh.userNameType(request.userNameType());
        }
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.state().text(text);

        refresh.applyHasAttrib();
        if (request.checkHasAttrib() && request.attrib().checkHasApplicationId())
        {
            refresh.attrib().applyHasApplicationId();
            refresh.attrib().applicationId(request.attrib().applicationId());
        }
        if (request.checkHasAttrib() && request.attrib().checkHasPosition())
        {
            refresh.attrib().applyHasPosition();
            refresh.attrib().position(request.attrib().position());
        }
        refresh.attrib().applyHasApplicationName();
        refresh.attrib().applicationName(applicationName);
        refresh.attrib().applyHasSingleOpen();
        refresh.attrib().singleOpen(singleOpen ? 1 : 0);
        refresh.attrib().applyHasAllowSuspectData();
        refresh.attrib().allowSuspectData(allowSuspect ? 1 : 0);

        refresh.applyHasFeatures();
        // ETA keeps the SupportBatchRequests bitmask as three values and ORs them back together on the wire.
        refresh.features().applyHasSupportBatchRequests();
        refresh.features().supportBatchRequests(supportBatchRequests & BATCH_REQUESTS);
        refresh.features().applyHasSupportBatchReissues();
        refresh.features().supportBatchReissues((supportBatchRequests & BATCH_REISSUES) >> 1);
        refresh.features().applyHasSupportBatchCloses();
        refresh.features().supportBatchCloses((supportBatchRequests & BATCH_CLOSES) >> 2);
        refresh.features().applyHasSupportViewRequests();
        refresh.features().supportViewRequests(supportViewRequests);
        refresh.features().applyHasSupportPost();
        refresh.features().supportOMMPost(supportOmmPost);
        refresh.features().applyHasSupportOptimizedPauseResume();
        refresh.features().supportOptimizedPauseResume(supportOptimizedPauseResume);
        return refresh.encode(iterator);
    }

    /**
     * Encode a LoginStatus that rejects a login: Closed/Suspect with the given code (e.g. NOT_ENTITLED).
     *
     * @param iterator to encode into.
     * @param streamId of the login stream.
     * @param code     a {@code StateCodes} value.
     * @param text     state text.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeReject(final EncodeIterator iterator, final int streamId, final int code, final Buffer text)
    {
        return encodeStatus(iterator, streamId, StreamStates.CLOSED, DataStates.SUSPECT, code, text);
    }

    /**
     * Encode a LoginStatus that closes an accepted login (which closes every stream of that user).
     *
     * @param iterator to encode into.
     * @param streamId of the login stream.
     * @param text     state text.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeClose(final EncodeIterator iterator, final int streamId, final Buffer text)
    {
        return encodeStatus(iterator, streamId, StreamStates.CLOSED, DataStates.SUSPECT, StateCodes.NONE, text);
    }

    private int encodeStatus(
        final EncodeIterator iterator,
        final int streamId,
        final int streamState,
        final int dataState,
        final int code,
        final Buffer text)
    {
        status.clear();
        status.rdmMsgType(LoginMsgType.STATUS);
        status.streamId(streamId);
        status.applyHasState();
        status.state().streamState(streamState);
        status.state().dataState(dataState);
        status.state().code(code);
        status.state().text(text);
        return status.encode(iterator);
    }
}
