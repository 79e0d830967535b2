package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.agrona.CloseHelper;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
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
        return launch(dir, name, (distributor) -> { }, (p2p) -> { });
    }

    /**
     * @param dir         where the Aeron directory goes.
     * @param name        prefix of the components' names.
     * @param distributor changes the distributor's Context before launch.
     * @param p2p         changes the p2p-server's Context before launch.
     * @return the running servers.
     */
    static FullPathServers launch(
        final Path dir,
        final String name,
        final java.util.function.Consumer<Distributor.Context> distributor,
        final java.util.function.Consumer<P2pServer.Context> p2p)
    {
        BackboneNode node = null;
        Aeron aeron = null;
        Distributor launched = null;
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
            distributor.accept(distributorContext);
            launched = Distributor.launch(distributorContext);
            final P2pServer.Context p2pContext = new P2pServer.Context()
                .port(0)
                .componentName(name + "-p2p")
                .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings()));
            p2p.accept(p2pContext);
            return new FullPathServers(node, aeron, launched, P2pServer.launch(p2pContext));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(launched, aeron, node);
            throw ex;
        }
    }

    /**
     * Ask a logged-in consumer's p2p-server for its source directory until the named service is there and up (the
     * p2p-server learns services from the distributors' announcements).
     *
     * @param eta         the consumer.
     * @param serviceName the service.
     * @return the service as the directory gives it.
     */
    static Service awaitService(final EtaConsumer eta, final String serviceName)
    {
        for (int directoryStream = 2; ; directoryStream++)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE, false, -1);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
            for (final Service service : directory.directoryRefresh().serviceList())
            {
                if (service.checkHasInfo() && serviceName.equals(service.info().serviceName().toString()) &&
                    service.checkHasState() && 1 == service.state().serviceState())
                {
                    return service;
                }
            }
            MdTests.idle(() -> "service " + serviceName + " up in the p2p-server's directory");
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
