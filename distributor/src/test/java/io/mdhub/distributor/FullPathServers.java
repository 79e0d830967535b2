package io.mdhub.distributor;

import java.nio.file.Path;

import org.agrona.CloseHelper;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * The whole path in one JVM for the full-path tests: an embedded backbone daemon (media driver), a distributor whose
 * provider port and a p2p-server whose consumer port are free ports, the p2p-server fed by the backbone. Closed in
 * reverse order of launch.
 */
final class FullPathServers implements AutoCloseable
{
    private final BackboneNode node;
    private final Aeron aeron;
    private final Distributor distributor;
    private final P2pServer p2p;

    private FullPathServers(final BackboneNode node, final Aeron aeron, final Distributor distributor,
        final P2pServer p2p)
    {
        this.node = node;
        this.aeron = aeron;
        this.distributor = distributor;
        this.p2p = p2p;
    }

    /**
     * @param dir  where the Aeron directory goes.
     * @param name prefix of the components' names.
     * @return the running servers.
     */
    static FullPathServers launch(final Path dir, final String name)
    {
        BackboneNode node = null;
        Aeron aeron = null;
        Distributor distributor = null;
        try
        {
            node = BackboneNode.launch(new BackboneNode.Context()
                .aeronDirectoryName(dir.resolve("aeron").toString())
                .termBufferLength(64 * 1024)
                .ipcTermBufferLength(1024 * 1024)
                .dirDeleteOnShutdown(true));
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
            final Distributor.Context distributorContext = new Distributor.Context()
                .providerPort(0)
                .componentName(name + "-distributor");
            distributorContext.backbone().aeron(aeron);
            distributor = Distributor.launch(distributorContext);
            final P2pServer p2p = P2pServer.launch(new P2pServer.Context()
                .port(0)
                .componentName(name + "-p2p")
                .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings())));
            return new FullPathServers(node, aeron, distributor, p2p);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(distributor, aeron, node);
            throw ex;
        }
    }

    Distributor distributor()
    {
        return distributor;
    }

    P2pServer p2p()
    {
        return p2p;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(p2p, distributor, aeron, node);
    }
}
