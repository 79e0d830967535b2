package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.management.HealthChecks;
import io.mdhub.common.management.HealthStatus;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pHealth;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * The whole path in one JVM on a media driver of its own that is closed and launched again on the same directory,
 * the distributor and the p2p-server each with a {@link BackboneLink} of its own (as separate processes have): an ETA
 * consumer's item turns Open/Suspect when the driver goes and stays connected, the provider stays connected and its
 * update published meanwhile reaches the distributor's cache, and once the driver is back the consumer gets a fresh
 * Open/Ok refresh carrying that update, then the provider's next update. Both servers' {@code backbone} health check
 * reads DOWN while the driver is gone, saying how long it is waited for.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(90)
class BackboneRestartTest
{
    private static final long CLIENT_DRIVER_TIMEOUT_MS = 2_000;
    private static final int SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_PUB";
    private static final int PROVIDER_STREAM = -2;
    private static final int CONSUMER_STREAM = 5;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long LOOP_TIMEOUT_MS = 5_000;

    private String aeronDir;
    private MediaDriver driver;
    private BackboneLink distributorLink;
    private BackboneLink p2pLink;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private EtaConsumer consumer;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(consumer, provider, p2p, distributor, p2pLink, distributorLink, driver);
    }

    @Test
    void anItemTurnsSuspectWhileTheDriverIsGoneAndComesBackWithAFreshImage(@TempDir final Path dir)
    {
        aeronDir = dir.resolve("aeron").toString();
        driver = launchDriver();
        distributorLink = BackboneLink.connect(aeronDir, 60_000, CLIENT_DRIVER_TIMEOUT_MS);
        p2pLink = BackboneLink.connect(aeronDir, 60_000, CLIENT_DRIVER_TIMEOUT_MS);
        final Distributor.Context distributorContext = new Distributor.Context()
            .providerPort(0)
            .componentName("restart-distributor");
        distributorContext.backbone().link(distributorLink);
        distributor = Distributor.launch(distributorContext);
        p2p = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("restart-p2p")
            .itemSourceFactory(new BackboneItemSourceFactory(p2pLink, new BackboneItemSourceFactory.Settings())));

        provider = EtaNiProvider.connect(distributor.port());
        provider.login("eta-nip");
        provider.publishDirectory(SERVICE_ID, SERVICE_NAME);
        provider.refresh(PROVIDER_STREAM, SERVICE_ID, "R.N", fields(1));
        MdTests.await("the distributor to cache R.N", () -> 1 == distributor.onEventLoop(ServiceDirectory::itemCount));

        consumer = EtaConsumer.connect(p2p.port());
        consumer.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, consumer.login("restart").state().streamState());
        final int serviceId = FullPathServers.awaitService(consumer, SERVICE_NAME).serviceId();
        consumer.requestItem(CONSUMER_STREAM, serviceId, "R.N");
        assertImage(consumer.awaitMessage(CONSUMER_STREAM), 1);
        provider.update(PROVIDER_STREAM, fields(2));
        assertUpdate(consumer.awaitMessage(CONSUMER_STREAM), 2);
        final HealthChecks distributorHealth = DistributorHealth.of(distributor, LOOP_TIMEOUT_MS);
        final HealthChecks p2pHealth = P2pHealth.of("restart-p2p", p2p, p2pLink, null, LOOP_TIMEOUT_MS);
        assertTrue(backboneHealth(distributorHealth).isUp(), () -> backboneHealth(distributorHealth).toString());
        assertTrue(backboneHealth(p2pHealth).isUp(), () -> backboneHealth(p2pHealth).toString());

        CloseHelper.close(driver); // the clients see the driver shut down at their next keepalive check
        driver = null;
        final EtaMessage suspect = awaitItemMessage();
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(StreamStates.OPEN, suspect.streamState(), suspect::toString);
        assertEquals(DataStates.SUSPECT, suspect.dataState(), suspect::toString);
        MdTests.await("both links down", () -> !distributorLink.isUp() && !p2pLink.isUp());
        for (final HealthChecks health : new HealthChecks[]{distributorHealth, p2pHealth})
        {
            final HealthStatus down = backboneHealth(health);
            assertFalse(down.isUp(), down::toString);
            assertTrue(down.detail().contains(" lost ") && down.detail().contains("waiting up to 60 s"),
                down::toString);
        }

        provider.update(PROVIDER_STREAM, fields(3)); // the distributor caches it and cannot publish it
        assertTrue(provider.service(), "the provider stays connected");

        driver = launchDriver();
        final EtaMessage image = awaitItemMessage();
        assertImage(image, 3);
        assertFalse(image.isSolicited(), "a recovery's refresh goes to every watcher, unsolicited");
        provider.update(PROVIDER_STREAM, fields(4));
        assertUpdate(awaitItemMessage(), 4);
        assertEquals(1, distributorLink.reconnects());
        assertEquals(1, p2pLink.reconnects());
        final HealthStatus back = backboneHealth(distributorHealth);
        assertTrue(back.isUp() && back.detail().contains("(1 reconnect(s))"), back::toString);
        assertTrue(consumer.service(), "the consumer stays connected");
    }

    private static HealthStatus backboneHealth(final HealthChecks checks)
    {
        for (final HealthChecks.Result result : checks.evaluate(true).results())
        {
            if ("backbone".equals(result.name()))
            {
                return result.status();
            }
        }
        throw new AssertionError("no backbone check in " + checks.component());
    }

    private EtaMessage awaitItemMessage()
    {
        while (true)
        {
            final EtaMessage message = consumer.awaitMessage(CONSUMER_STREAM, WAIT);
            if (MsgClasses.STATUS != message.msgClass() || DataStates.SUSPECT == message.dataState() ||
                StreamStates.OPEN != message.streamState())
            {
                return message;
            }
            // an Open/Ok status on the way is not what is waited for
        }
    }

    private static void assertImage(final EtaMessage refresh, final long sequence)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertEquals(sequence, refresh.uint(FieldIds.MDH_UPDSEQ), refresh::toString);
    }

    private static void assertUpdate(final EtaMessage update, final long sequence)
    {
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(sequence, update.uint(FieldIds.MDH_UPDSEQ), update::toString);
    }

    private static byte[] fields(final long sequence)
    {
        return new EtaFieldLists().begin(0, 0).uint(FieldIds.MDH_UPDSEQ, sequence).end();
    }

    private MediaDriver launchDriver()
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(false));
    }
}
