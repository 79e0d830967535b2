package io.mdhub.benchmarks.peers;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.Qos;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * An ETA non-interactive provider publishing the peers' updates to a distributor, as ETA's NIProvider example
 * publishes: a provider-role login, a directory refresh of one MarketPrice service on stream -1, an unsolicited
 * refresh per item on stream {@code -(item + 2)}, then updates written as they come and flushed once per burst.
 * Between bursts it reads what the distributor sent (pings, statuses) and pings when due. Single-threaded.
 */
final class EtaNiPublisher implements PeerPublisher
{
    /** The service it publishes, as consumers ask for it. */
    static final String SERVICE_NAME = "ETA_FEED";
    private static final int SERVICE_ID = 1;
    private static final int LOGIN_STREAM_ID = 1;
    private static final int DIRECTORY_STREAM_ID = -1;
    private static final int DIRECTORY_BYTES = 1024;
    private static final int REFRESHES_PER_FLUSH = 256;
    private static final long LOGIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private final EtaEndpoint endpoint;
    private final EtaMarketPrice marketPrice = new EtaMarketPrice();
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private final Msg msg = CodecFactory.createMsg();
    private final EtaEndpoint.Reader reader = this::onMessage; // made once: it is passed on every read
    private final EtaEndpoint.Encoder updateEncoder = this::encodeUpdate;
    private int updateStreamId;
    private long updateSequence;
    private long updateOriginNs;
    private boolean isLoggedIn;

    EtaNiPublisher(final int port, final String[] names)
    {
        endpoint = EtaEndpoint.connect(port, "mdhub-bench-eta-niprovider");
        try
        {
            logIn();
            endpoint.write(DIRECTORY_BYTES, directoryRefresh()::encode);
            for (int item = 0; item < names.length; item++)
            {
                final String name = names[item];
                final int streamId = streamId(item);
                endpoint.write(EtaMarketPrice.MAX_BYTES,
                    (it) -> marketPrice.encodeRefresh(it, streamId, SERVICE_ID, name));
                if (0 == (item + 1) % REFRESHES_PER_FLUSH)
                {
                    endpoint.flush();
                    endpoint.readAvailable(reader);
                }
            }
            endpoint.flush();
        }
        catch (final RuntimeException ex)
        {
            endpoint.close();
            throw ex;
        }
    }

    private void logIn()
    {
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(LOGIN_STREAM_ID);
        login.userName().data("mdhub-bench");
        login.applyHasRole();
        login.role(Login.RoleTypes.PROV);
        login.applyHasAttrib();
        login.attrib().applyHasApplicationName();
        login.attrib().applicationName().data("mdhub-bench-eta-niprovider");
        endpoint.write(DIRECTORY_BYTES, login::encode);
        endpoint.flush();
        final long deadlineNs = System.nanoTime() + LOGIN_TIMEOUT_NS;
        while (!isLoggedIn)
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException("the distributor did not answer the provider login");
            }
            endpoint.awaitReadable(100);
            endpoint.readAvailable(reader);
        }
    }

    private void onMessage(final DecodeIterator it)
    {
        msg.clear();
        if (CodecReturnCodes.SUCCESS != msg.decode(it) ||
            DomainTypes.LOGIN != msg.domainType())
        {
            return; // item statuses and the like: a provider that publishes regardless has nothing to do with them
        }
        if (MsgClasses.REFRESH == msg.msgClass() && StreamStates.OPEN == ((RefreshMsg)msg).state().streamState())
        {
            isLoggedIn = true;
        }
        else if (MsgClasses.STATUS == msg.msgClass() || MsgClasses.REFRESH == msg.msgClass())
        {
            throw new IllegalStateException("the distributor refused the provider login");
        }
    }

    private static DirectoryRefresh directoryRefresh()
    {
        final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        refresh.streamId(DIRECTORY_STREAM_ID);
        refresh.filter(Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        refresh.applyClearCache();
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(SERVICE_ID);
        service.action(MapEntryActions.ADD);
        service.applyHasInfo();
        service.info().serviceName().data(SERVICE_NAME);
        service.info().capabilitiesList(List.of((long)DomainTypes.MARKET_PRICE));
        service.info().applyHasQos();
        final Qos qos = CodecFactory.createQos();
        qos.timeliness(QosTimeliness.REALTIME);
        qos.rate(QosRates.TICK_BY_TICK);
        service.info().qosList().add(qos);
        service.applyHasState();
        service.state().serviceState(1);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(1);
        refresh.serviceList().add(service);
        return refresh;
    }

    @Override
    public void publish(final int item, final byte[] payload)
    {
        view.wrap(payload);
        updateStreamId = streamId(item);
        updateSequence = PeerUpdate.sequence(view);
        updateOriginNs = PeerUpdate.originNs(view);
        endpoint.write(EtaMarketPrice.MAX_BYTES, updateEncoder);
    }

    private int encodeUpdate(final EncodeIterator it)
    {
        return marketPrice.encodeUpdate(it, updateStreamId, updateSequence, updateOriginNs);
    }

    @Override
    public void flush()
    {
        endpoint.flush();
        endpoint.readAvailable(reader);
        endpoint.pingIfDue();
    }

    @Override
    public void close()
    {
        endpoint.close();
    }

    private static int streamId(final int item)
    {
        return -(item + 2); // -1 is the directory's
    }
}
