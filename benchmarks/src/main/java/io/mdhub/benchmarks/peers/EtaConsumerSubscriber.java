package io.mdhub.benchmarks.peers;

import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsg;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * An ETA consumer of every item of {@link EtaNiPublisher}'s service, as ETA's Consumer example consumes: a login, a
 * directory request to learn the service's id, a streaming MarketPrice request per item, then a thread that sleeps in
 * the selector until data arrives, reads all of it and hands each update's sequence number and origin time to the
 * listener in the peers' update layout. An item counts as subscribed from its refresh until a
 * status closes it.
 */
final class EtaConsumerSubscriber extends AbstractPeerSubscriber
{
    private static final int LOGIN_STREAM_ID = 1;
    private static final int DIRECTORY_STREAM_ID = 2;
    private static final int FIRST_ITEM_STREAM_ID = 3;
    private static final int REQUEST_BYTES = 256;
    private static final int DIRECTORY_REQUEST_BYTES = 1024;
    private static final int REQUESTS_PER_FLUSH = 256;
    private static final long SERVICE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final int port;
    private final String[] names;
    private final Msg msg = CodecFactory.createMsg();
    private final EtaEndpoint.Reader reader = this::onMessage; // made once: it is passed on every read
    private final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
    private final DirectoryRefresh directoryRefresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
    private final DirectoryUpdate directoryUpdate = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
    private final EtaMarketPrice marketPrice = new EtaMarketPrice();
    private final BitSet refreshed = new BitSet();
    private final byte[] update = new byte[PeerUpdate.LENGTH];
    private final UnsafeBuffer updateView = new UnsafeBuffer(update);
    private final Thread thread;
    private Listener listener;
    private int serviceId = -1;
    private volatile EtaEndpoint endpoint;
    private volatile boolean isStopped;

    EtaConsumerSubscriber(final int port, final String[] names)
    {
        this.port = port;
        this.names = names;
        thread = new Thread(this::run, "eta-consumer");
    }

    @Override
    public void start(final Listener listener)
    {
        this.listener = listener;
        thread.start();
    }

    private void run()
    {
        try (EtaEndpoint endpoint = EtaEndpoint.connect(port, "mdhub-bench-eta-consumer"))
        {
            this.endpoint = endpoint;
            endpoint.write(DIRECTORY_REQUEST_BYTES, this::encodeLogin);
            endpoint.write(DIRECTORY_REQUEST_BYTES, EtaConsumerSubscriber::encodeDirectoryRequest);
            endpoint.flush();
            final long deadlineNs = System.nanoTime() + SERVICE_TIMEOUT_NS;
            while (serviceId < 0 && !isStopped)
            {
                if (System.nanoTime() > deadlineNs)
                {
                    throw new IllegalStateException("no service " + EtaNiPublisher.SERVICE_NAME + " in the directory");
                }
                endpoint.awaitReadable(100);
                endpoint.readAvailable(reader);
            }
            requestItems(endpoint);
            while (!isStopped)
            {
                endpoint.awaitReadable(endpoint.pingIntervalMs());
                endpoint.readAvailable(reader);
                endpoint.pingIfDue();
            }
        }
        catch (final RuntimeException ex)
        {
            if (!isStopped)
            {
                fail(ex);
            }
        }
    }

    private int encodeLogin(final EncodeIterator it)
    {
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(LOGIN_STREAM_ID);
        login.userName().data("mdhub-bench");
        login.applyHasAttrib();
        login.attrib().applyHasApplicationName();
        login.attrib().applicationName().data("mdhub-bench-eta-consumer");
        return login.encode(it);
    }

    private static int encodeDirectoryRequest(final EncodeIterator it)
    {
        final DirectoryRequest request = (DirectoryRequest)DirectoryMsgFactory.createMsg();
        request.rdmMsgType(DirectoryMsgType.REQUEST);
        request.streamId(DIRECTORY_STREAM_ID);
        request.applyStreaming();
        request.filter(Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        return request.encode(it);
    }

    private void requestItems(final EtaEndpoint endpoint)
    {
        for (int item = 0; item < names.length && !isStopped; item++)
        {
            final int streamId = FIRST_ITEM_STREAM_ID + item;
            final String name = names[item];
            endpoint.write(REQUEST_BYTES, (it) -> encodeItemRequest(it, streamId, name));
            if (0 == (item + 1) % REQUESTS_PER_FLUSH)
            {
                endpoint.flush();
                endpoint.readAvailable(reader); // the refreshes coming back must not fill the socket
            }
        }
        endpoint.flush();
    }

    private int encodeItemRequest(final EncodeIterator it, final int streamId, final String name)
    {
        request.clear();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(DomainTypes.MARKET_PRICE);
        request.streamId(streamId);
        request.containerType(DataTypes.NO_DATA);
        request.flags(RequestMsgFlags.STREAMING);
        request.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        request.msgKey().serviceId(serviceId);
        request.msgKey().name().data(name);
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        return request.encode(it);
    }

    private void onMessage(final DecodeIterator it)
    {
        msg.clear();
        if (CodecReturnCodes.SUCCESS != msg.decode(it))
        {
            return;
        }
        final int item = msg.streamId() - FIRST_ITEM_STREAM_ID;
        if (item < 0 || item >= names.length)
        {
            if (DIRECTORY_STREAM_ID == msg.streamId() &&
                (MsgClasses.REFRESH == msg.msgClass() || MsgClasses.UPDATE == msg.msgClass()))
            {
                onDirectory(it);
            }
            return;
        }
        switch (msg.msgClass())
        {
            case MsgClasses.UPDATE:
                if (marketPrice.decodeUpdateFields(it))
                {
                    PeerUpdate.encode(updateView, marketPrice.sequence(), item, marketPrice.originNs());
                    listener.onUpdate(update);
                }
                break;
            case MsgClasses.REFRESH:
                onState(item, ((RefreshMsg)msg).state().streamState());
                break;
            case MsgClasses.STATUS:
                final StatusMsg status = (StatusMsg)msg;
                if (status.checkHasState() && StreamStates.OPEN != status.state().streamState())
                {
                    onState(item, status.state().streamState()); // an Open status (Suspect) leaves it subscribed
                }
                break;
            default:
                break;
        }
    }

    private void onState(final int item, final int streamState)
    {
        if (StreamStates.OPEN == streamState)
        {
            if (!refreshed.get(item))
            {
                refreshed.set(item);
                subscribed(subscribed() + 1);
            }
        }
        else if (refreshed.get(item))
        {
            refreshed.clear(item);
            subscribed(subscribed() - 1);
        }
    }

    private void onDirectory(final DecodeIterator it)
    {
        final boolean isRefresh = MsgClasses.REFRESH == msg.msgClass();
        final DirectoryMsg directory = isRefresh ? directoryRefresh : directoryUpdate;
        directory.clear();
        directory.rdmMsgType(isRefresh ? DirectoryMsgType.REFRESH : DirectoryMsgType.UPDATE);
        if (CodecReturnCodes.SUCCESS != directory.decode(it, msg))
        {
            return;
        }
        for (final Service service : isRefresh ? directoryRefresh.serviceList() : directoryUpdate.serviceList())
        {
            if (service.checkHasInfo() &&
                EtaNiPublisher.SERVICE_NAME.equals(service.info().serviceName().toString()))
            {
                serviceId = service.serviceId();
            }
        }
    }

    @Override
    public void close()
    {
        isStopped = true;
        final EtaEndpoint awake = endpoint;
        if (null != awake)
        {
            awake.wakeUp();
        }
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
