package io.mdhub.benchmarks.demo;

import java.io.File;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneAttachment;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.benchmarks.source.Source;
import io.mdhub.benchmarks.source.SourceStats;
import io.mdhub.distributor.Distributor;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * The market data path in one process: an embedded backbone media driver, a distributor publishing onto it, a
 * p2p-server fed by it, the source publishing an item universe into the distributor as a non-interactive provider,
 * and the test client opening every item on the p2p-server — over real loopback RSSL connections and the Aeron
 * backbone (IPC), exactly as separate processes would talk.
 */
public final class Demo implements AutoCloseable
{
    private final BackboneNode node;
    private final Aeron aeron;
    private final Distributor distributor;
    private final P2pServer p2p;
    private final Source source;
    private final TestClient client;

    private Demo(final Settings settings)
    {
        BackboneNode node = null;
        Aeron aeron = null;
        Distributor distributor = null;
        P2pServer p2p = null;
        Source source = null;
        try
        {
            node = BackboneNode.launch(new BackboneNode.Context()
                .aeronDirectoryName(settings.aeronDirectory)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
            aeron = Aeron.connect(BackboneAttachment.clientContext(node.aeronDirectoryName()));

            final Distributor.Context distributorContext = new Distributor.Context()
                .providerPort(0)
                .componentName("demo-distributor");
            distributorContext.backbone().aeron(aeron);
            final BackboneItemSourceFactory.Settings p2pBackbone = new BackboneItemSourceFactory.Settings();
            if (null != settings.distributorData)
            {
                distributorContext.backbone().channel(settings.distributorData)
                    .controlChannel(settings.distributorControl);
                p2pBackbone.channel(settings.p2pData).controlChannel(settings.p2pControl);
            }
            distributor = Distributor.launch(distributorContext);

            p2p = P2pServer.launch(new P2pServer.Context()
                .port(0)
                .componentName("demo-p2p")
                .maxItems(Math.max(settings.items, 1))
                .maxItemsPerConsumer(Math.max(settings.items, 1))
                .webSocketPort(settings.webSocketPort)
                .itemSourceFactory(new BackboneItemSourceFactory(aeron, p2pBackbone)));

            source = Source.launch(new Source.Context()
                .port(distributor.port())
                .itemCount(settings.items)
                .rate(settings.rate));
            awaitImages(source.stats(), distributor, settings.items);

            this.client = TestClient.launch(new TestClient.Context()
                .port(p2p.port())
                .itemCount(settings.items)
                .mounts(settings.mounts)
                .fraction(settings.fraction)
                .jsonMounts(settings.jsonMounts)
                .webSocketPort(p2p.webSocketPort()));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(source, p2p, distributor, aeron, node);
            throw ex;
        }
        this.node = node;
        this.aeron = aeron;
        this.distributor = distributor;
        this.p2p = p2p;
        this.source = source;
    }

    /**
     * Start everything and begin publishing.
     *
     * @param settings universe, rate, mounts.
     * @return the running demo.
     */
    public static Demo launch(final Settings settings)
    {
        return new Demo(settings);
    }

    /**
     * Waits until the distributor's cache holds every image, not merely until the source has written them: a
     * request reaching the distributor before the image does is refused NOT_FOUND (a non-interactive provider has not
     * published the item), and the client would see a Closed status instead of a refresh.
     */
    private static void awaitImages(final SourceStats stats, final Distributor distributor, final int items)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (stats.refreshesSent() < items || distributor.mxBean().getItemCount() < items)
        {
            if (System.nanoTime() > deadlineNs || stats.isLoginRefused())
            {
                throw new IllegalStateException("the source did not publish its " + items + " images: sent " +
                    stats.refreshesSent() + ", distributor cache holds " + distributor.mxBean().getItemCount());
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /**
     * @return the source.
     */
    public Source source()
    {
        return source;
    }

    /**
     * @return the test client.
     */
    public TestClient client()
    {
        return client;
    }

    /**
     * @return the p2p-server.
     */
    public P2pServer p2p()
    {
        return p2p;
    }

    /**
     * @return the distributor.
     */
    public Distributor distributor()
    {
        return distributor;
    }

    /**
     * Stop everything, consumers first.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(client, source, p2p, distributor, aeron, node);
    }

    /**
     * What the demo runs.
     */
    public static final class Settings
    {
        int items = 100_000;
        long rate = 10_000;
        int mounts = 1;
        double fraction = 1.0;
        int jsonMounts;
        int webSocketPort = -1;
        String distributorData;
        String distributorControl;
        String p2pData;
        String p2pControl;
        String aeronDirectory = System.getProperty("java.io.tmpdir") + File.separator + "mdhub-demo-" +
            ProcessHandle.current().pid();

        /**
         * @param items universe size.
         * @return this.
         */
        public Settings items(final int items)
        {
            this.items = items;
            return this;
        }

        /**
         * @param rate updates per second over the universe.
         * @return this.
         */
        public Settings rate(final long rate)
        {
            this.rate = rate;
            return this;
        }

        /**
         * @param jsonMounts how many of the client's mounts speak the WebSocket API's JSON (needs a WebSocket port).
         * @return this.
         */
        public Settings jsonMounts(final int jsonMounts)
        {
            this.jsonMounts = jsonMounts;
            return this;
        }

        /**
         * @param webSocketPort the p2p-server's WebSocket API port (and quote page), 0 for an ephemeral one, -1 off.
         * @return this.
         */
        public Settings webSocketPort(final int webSocketPort)
        {
            this.webSocketPort = webSocketPort;
            return this;
        }

        /**
         * @param mounts client connections.
         * @return this.
         */
        public Settings mounts(final int mounts)
        {
            this.mounts = mounts;
            return this;
        }

        /**
         * @param fraction share of the universe each mount watches.
         * @return this.
         */
        public Settings fraction(final double fraction)
        {
            this.fraction = fraction;
            return this;
        }

        /**
         * @param aeronDirectory where the embedded driver lives (deleted on close).
         * @return this.
         */
        public Settings aeronDirectory(final String aeronDirectory)
        {
            this.aeronDirectory = aeronDirectory;
            return this;
        }

        /**
         * Carry the backbone over other channels than IPC (UDP unicast, multicast, multi-destination-cast): the
         * distributor publishes data on {@code distributorData} and reads control on {@code distributorControl};
         * the p2p-server reads data on {@code p2pData} and publishes control on {@code p2pControl}.
         *
         * @param distributorData    the distributor's data publication channel.
         * @param distributorControl the distributor's control subscription channel.
         * @param p2pData            the p2p-server's data subscription channel.
         * @param p2pControl         the p2p-server's control publication channel.
         * @return this.
         */
        public Settings channels(
            final String distributorData,
            final String distributorControl,
            final String p2pData,
            final String p2pControl)
        {
            this.distributorData = distributorData;
            this.distributorControl = distributorControl;
            this.p2pData = p2pData;
            this.p2pControl = p2pControl;
            return this;
        }
    }
}
