package io.mdhub.common.test.ema;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import com.refinitiv.ema.access.ElementList;
import com.refinitiv.ema.access.EmaFactory;
import com.refinitiv.ema.access.FieldList;
import com.refinitiv.ema.access.GenericMsg;
import com.refinitiv.ema.access.MapEntry;
import com.refinitiv.ema.access.Msg;
import com.refinitiv.ema.access.OmmArray;
import com.refinitiv.ema.access.OmmException;
import com.refinitiv.ema.access.OmmNiProviderConfig;
import com.refinitiv.ema.access.OmmProvider;
import com.refinitiv.ema.access.OmmProviderClient;
import com.refinitiv.ema.access.OmmProviderEvent;
import com.refinitiv.ema.access.OmmState;
import com.refinitiv.ema.access.PostMsg;
import com.refinitiv.ema.access.RefreshMsg;
import com.refinitiv.ema.access.ReqMsg;
import com.refinitiv.ema.access.Series;
import com.refinitiv.ema.access.StatusMsg;
import com.refinitiv.ema.rdm.EmaRdm;

/**
 * A real EMA 3.9.1.0 non-interactive provider for tests: an {@link OmmProvider} built from an
 * {@link OmmNiProviderConfig} configured programmatically with one RSSL_SOCKET channel to the server under test and
 * one source directory of one MarketPrice service, EMA's defaults for everything else: EMA logs in (provider role),
 * publishes the directory itself ({@code AdminControl::ApiControl}), and dispatches on its own thread. Items are
 * published on handles this class chooses: {@link #refresh(String, FieldList)} sends an unsolicited refresh (Open/Ok,
 * complete, clear cache) and returns the item's handle, {@link #update(long, FieldList)} an update with the item's
 * key, {@link #closeItem(long, String)} a Closed status. Field lists are built with EMA
 * ({@code EmaFactory.createFieldList()}, typed {@code FieldEntry}s).
 * <p>
 * Login messages from the server are kept ({@link #loginMessages()}), so a test can see why a login failed.
 * {@link #close()} uninitialises EMA within a bounded time.
 */
public final class EmaTestNiProvider implements AutoCloseable
{
    /** Login and reconnection timeouts: EMA's initialisation waits this long for the login refresh. */
    public static final int INIT_TIMEOUT_MS = 10_000;

    private static final String PROVIDER_NAME = "MDHubTestNiProvider";
    private static final String CHANNEL_NAME = "MDHubTestNiProviderChannel";
    private static final String DIRECTORY_NAME = "MDHubTestDirectory";
    private static final long UNINITIALIZE_TIMEOUT_MS = 10_000;

    private final String serviceName;
    private final int serviceId;
    private final OmmProvider provider;
    private final AtomicLong nextHandle = new AtomicLong(1_000);
    private final Map<Long, String> names = new ConcurrentHashMap<>();
    private final List<String> loginMessages = new CopyOnWriteArrayList<>();
    private boolean closed;

    private EmaTestNiProvider(final OmmNiProviderConfig config, final String serviceName, final int serviceId)
    {
        this.serviceName = serviceName;
        this.serviceId = serviceId;
        try
        {
            provider = EmaFactory.createOmmProvider(config);
        }
        catch (final OmmException ex)
        {
            throw new AssertionError("EMA could not initialise its non-interactive OmmProvider: " +
                ex.exceptionTypeAsString() + ": " + ex.getMessage(), ex);
        }
        provider.registerClient(EmaFactory.createReqMsg().domainType(EmaRdm.MMT_LOGIN), new LoginClient());
    }

    /**
     * Connect to a server on 127.0.0.1 as user "mdhub-ema-niprovider", log in and publish the directory.
     *
     * @param port        the server's (provider) port.
     * @param serviceName the one service's name.
     * @param serviceId   its id.
     * @return the provider, logged in.
     */
    public static EmaTestNiProvider connect(final int port, final String serviceName, final int serviceId)
    {
        return connect("127.0.0.1", port, "mdhub-ema-niprovider", serviceName, serviceId);
    }

    /**
     * Connect, log in and publish the directory.
     *
     * @param host        the server's address.
     * @param port        the server's (provider) port.
     * @param user        the login user name.
     * @param serviceName the one service's name.
     * @param serviceId   its id.
     * @return the provider, logged in.
     */
    public static EmaTestNiProvider connect(
        final String host, final int port, final String user, final String serviceName, final int serviceId)
    {
        final OmmNiProviderConfig config = EmaFactory.createOmmNiProviderConfig()
            .config(programmaticConfig(host, port, serviceName, serviceId))
            .username(user);
        return new EmaTestNiProvider(config, serviceName, serviceId);
    }

    /**
     * EMA's programmatic configuration of one non-interactive provider with one RSSL_SOCKET channel and a directory
     * of one service: MarketPrice capability, realtime tick-by-tick QoS, up and accepting requests.
     *
     * @param host        the server's address.
     * @param port        the server's port.
     * @param serviceName the service's name.
     * @param serviceId   its id.
     * @return the configuration for {@code OmmNiProviderConfig.config(Data)}.
     */
    public static com.refinitiv.ema.access.Map programmaticConfig(
        final String host, final int port, final String serviceName, final int serviceId)
    {
        final ElementList providerSettings = EmaFactory.createElementList();
        providerSettings.add(EmaFactory.createElementEntry().ascii("Channel", CHANNEL_NAME));
        providerSettings.add(EmaFactory.createElementEntry().ascii("Directory", DIRECTORY_NAME));
        providerSettings.add(EmaFactory.createElementEntry().intValue("LoginRequestTimeOut", INIT_TIMEOUT_MS));
        final com.refinitiv.ema.access.Map providers = EmaFactory.createMap();
        providers.add(EmaFactory.createMapEntry().keyAscii(PROVIDER_NAME, MapEntry.MapAction.ADD, providerSettings));
        final ElementList providerGroup = EmaFactory.createElementList();
        providerGroup.add(EmaFactory.createElementEntry().ascii("DefaultNiProvider", PROVIDER_NAME));
        providerGroup.add(EmaFactory.createElementEntry().map("NiProviderList", providers));

        final com.refinitiv.ema.access.Map config = EmaFactory.createMap();
        config.add(EmaFactory.createMapEntry().keyAscii("NiProviderGroup", MapEntry.MapAction.ADD, providerGroup));
        config.add(EmaFactory.createMapEntry().keyAscii("ChannelGroup", MapEntry.MapAction.ADD,
            EmaConfigs.socketChannelGroup(CHANNEL_NAME, host, port)));
        config.add(EmaFactory.createMapEntry().keyAscii("DirectoryGroup", MapEntry.MapAction.ADD,
            directoryGroup(serviceName, serviceId)));
        return config;
    }

    private static ElementList directoryGroup(final String serviceName, final int serviceId)
    {
        final ElementList info = EmaFactory.createElementList();
        info.add(EmaFactory.createElementEntry().intValue("ServiceId", serviceId));
        info.add(EmaFactory.createElementEntry().ascii("Vendor", "MDHub tests"));
        info.add(EmaFactory.createElementEntry().intValue("IsSource", 0));
        final OmmArray capabilities = EmaFactory.createOmmArray();
        capabilities.add(EmaFactory.createOmmArrayEntry().ascii("MMT_MARKET_PRICE"));
        info.add(EmaFactory.createElementEntry().array("Capabilities", capabilities));
        final ElementList realtime = EmaFactory.createElementList();
        realtime.add(EmaFactory.createElementEntry().ascii("Timeliness", "Timeliness::RealTime"));
        realtime.add(EmaFactory.createElementEntry().ascii("Rate", "Rate::TickByTick"));
        final Series qos = EmaFactory.createSeries();
        qos.add(EmaFactory.createSeriesEntry().elementList(realtime));
        info.add(EmaFactory.createElementEntry().series("QoS", qos));
        final ElementList state = EmaFactory.createElementList();
        state.add(EmaFactory.createElementEntry().intValue("ServiceState", 1));
        state.add(EmaFactory.createElementEntry().intValue("AcceptingRequests", 1));
        final ElementList service = EmaFactory.createElementList();
        service.add(EmaFactory.createElementEntry().elementList("InfoFilter", info));
        service.add(EmaFactory.createElementEntry().elementList("StateFilter", state));

        final com.refinitiv.ema.access.Map services = EmaFactory.createMap();
        services.add(EmaFactory.createMapEntry().keyAscii(serviceName, MapEntry.MapAction.ADD, service));
        final com.refinitiv.ema.access.Map directories = EmaFactory.createMap();
        directories.add(EmaFactory.createMapEntry().keyAscii(DIRECTORY_NAME, MapEntry.MapAction.ADD, services));
        final ElementList group = EmaFactory.createElementList();
        group.add(EmaFactory.createElementEntry().ascii("DefaultDirectory", DIRECTORY_NAME));
        group.add(EmaFactory.createElementEntry().map("DirectoryList", directories));
        return group;
    }

    /**
     * @return EMA's provider, for calls this class does not wrap.
     */
    public OmmProvider ema()
    {
        return provider;
    }

    /**
     * @return the service's name.
     */
    public String serviceName()
    {
        return serviceName;
    }

    /**
     * @return the service's id in the provider's directory.
     */
    public int serviceId()
    {
        return serviceId;
    }

    /**
     * @return a description of each login refresh and status the server sent, in order.
     */
    public List<String> loginMessages()
    {
        return List.copyOf(loginMessages);
    }

    /**
     * Publish a new item: an unsolicited single-part refresh (Open/Ok, complete, clear cache) on a new handle.
     *
     * @param name   the item's name (RIC).
     * @param fields its image.
     * @return the item's handle.
     */
    public long refresh(final String name, final FieldList fields)
    {
        final long handle = nextHandle.getAndIncrement();
        refresh(handle, name, fields);
        return handle;
    }

    /**
     * Publish an unsolicited single-part refresh (Open/Ok, complete, clear cache) of an item on a handle.
     *
     * @param handle the item's handle (a new one opens the item).
     * @param name   the item's name (RIC).
     * @param fields its image.
     */
    public void refresh(final long handle, final String name, final FieldList fields)
    {
        names.put(handle, name);
        provider.submit(EmaFactory.createRefreshMsg()
            .serviceName(serviceName)
            .name(name)
            .state(OmmState.StreamState.OPEN, OmmState.DataState.OK, OmmState.StatusCode.NONE, "UnSolicited Refresh")
            .clearCache(true)
            .complete(true)
            .payload(fields), handle);
    }

    /**
     * Publish an update of an item, with its key (service name and name).
     *
     * @param handle the item's handle.
     * @param fields the changed fields.
     */
    public void update(final long handle, final FieldList fields)
    {
        provider.submit(EmaFactory.createUpdateMsg()
            .serviceName(serviceName)
            .name(name(handle))
            .payload(fields), handle);
    }

    /**
     * Drop an item: a Closed/Suspect status.
     *
     * @param handle the item's handle.
     * @param text   the state text.
     */
    public void closeItem(final long handle, final String text)
    {
        provider.submit(EmaFactory.createStatusMsg()
            .serviceName(serviceName)
            .name(name(handle))
            .state(OmmState.StreamState.CLOSED, OmmState.DataState.SUSPECT, OmmState.StatusCode.NONE, text), handle);
        names.remove(handle);
    }

    private String name(final long handle)
    {
        final String name = names.get(handle);
        if (null == name)
        {
            throw new IllegalArgumentException("no item published on handle " + handle);
        }
        return name;
    }

    /**
     * Uninitialise EMA (logging out and closing the channel), waiting at most {@value #UNINITIALIZE_TIMEOUT_MS} ms.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            EmaConfigs.uninitialize("OmmProvider", provider::uninitialize, UNINITIALIZE_TIMEOUT_MS);
        }
    }

    /**
     * The login stream's messages, on EMA's dispatch thread.
     */
    private final class LoginClient implements OmmProviderClient
    {
        @Override
        public void onRefreshMsg(final RefreshMsg msg, final OmmProviderEvent event)
        {
            loginMessages.add("refresh " + msg.state());
        }

        @Override
        public void onStatusMsg(final StatusMsg msg, final OmmProviderEvent event)
        {
            loginMessages.add("status " + (msg.hasState() ? msg.state().toString() : "(no state)"));
        }

        @Override
        public void onGenericMsg(final GenericMsg msg, final OmmProviderEvent event)
        {
        }

        @Override
        public void onPostMsg(final PostMsg msg, final OmmProviderEvent event)
        {
        }

        @Override
        public void onReqMsg(final ReqMsg msg, final OmmProviderEvent event)
        {
        }

        @Override
        public void onReissue(final ReqMsg msg, final OmmProviderEvent event)
        {
        }

        @Override
        public void onClose(final ReqMsg msg, final OmmProviderEvent event)
        {
        }

        @Override
        public void onAllMsg(final Msg msg, final OmmProviderEvent event)
        {
        }
    }
}
