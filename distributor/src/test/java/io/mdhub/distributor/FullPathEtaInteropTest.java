package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * Real ETA 3.9.1.0 applications at both ends of the whole path: an ETA non-interactive provider publishes into the
 * distributor, the distributor publishes onto the Aeron backbone (embedded driver), the p2p-server serves an ETA
 * consumer that finds the service in its directory, opens the item, and receives exactly the provider's field
 * values — the image, then every update in order.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class FullPathEtaInteropTest
{
    private static final int SERVICE_ID = 1;

    @TempDir
    Path dir;

    private BackboneNode node;
    private Aeron aeron;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private EtaConsumer consumer;

    @AfterEach
    void close()
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != provider)
        {
            provider.close();
        }
        org.agrona.CloseHelper.closeAll(p2p, distributor, aeron, node);
    }

    @Test
    void etaProviderToEtaConsumerThroughDistributorBackboneAndP2pServer()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        final Distributor.Context distributorContext = new Distributor.Context()
            .providerPort(0)
            .componentName("full-path-distributor");
        distributorContext.backbone().aeron(aeron);
        distributor = Distributor.launch(distributorContext);
        p2p = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("full-path-p2p")
            .itemSourceFactory(new BackboneItemSourceFactory(aeron, new BackboneItemSourceFactory.Settings())));

        final EtaFieldLists fields = new EtaFieldLists();
        provider = EtaNiProvider.connect(distributor.port());
        provider.login("eta-nip");
        provider.publishDirectory(SERVICE_ID, "NI_PUB");
        provider.refresh(-2, SERVICE_ID, "TRI.N",
            fields.begin(1, 0).real(22, 12344, 12).real(25, 12346, 12).end());

        consumer = EtaConsumer.connect(p2p.port());
        assertEquals(StreamStates.OPEN, consumer.login("eta-consumer").state().streamState());
        int directoryStream = 2;
        EtaMessage directory;
        do
        {
            // the p2p-server learns services from the distributor's announcements: ask until NI_PUB is there
            provider.service();
            consumer.requestDirectory(directoryStream,
                Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
            directory = consumer.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass());
            directoryStream++;
        }
        while (!directory.serviceNames().contains("NI_PUB"));

        consumer.requestItem(100, SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(100);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(StreamStates.OPEN, refresh.streamState());
        assertEquals(DataStates.OK, refresh.dataState());
        assertEquals(12344, refresh.mantissa(FieldIds.BID));
        assertEquals(12346, refresh.mantissa(FieldIds.ASK));

        for (int i = 1; i <= 100; i++)
        {
            provider.update(-2, fields.begin(0, 0).real(22, 12344 + i, 12).end());
        }
        for (int i = 1; i <= 100; i++)
        {
            final EtaMessage update = consumer.awaitMessage(100);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(12344 + i, update.mantissa(FieldIds.BID), "exact values, in order, none lost");
        }
        assertTrue(provider.service(), "the provider stayed connected");
    }
}
