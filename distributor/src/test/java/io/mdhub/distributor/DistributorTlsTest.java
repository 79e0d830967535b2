package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.transport.TransportReturnCodes;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.common.tls.TlsClientAuth;

/**
 * ETA 3.9.1.0's own non-interactive provider over ENCRYPTED (TLS, then RIPC) publishes to a distributor whose
 * provider port speaks TLS; a plain-TCP provider on that port is refused and counted while the TLS one publishes on.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class DistributorTlsTest
{
    private static final int SERVICE_ID = 1;
    private static final int UPDATES = 20;

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final RecordingDistributorListener listener = new RecordingDistributorListener();
    private final EtaFieldLists fields = new EtaFieldLists();
    private Distributor distributor;
    private EtaNiProvider provider;
    private EtaChannel plain;

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(plain, provider, distributor);
    }

    @Test
    void etaEncryptedProviderPublishesWhileAPlainProviderIsRefused()
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .tlsEnabled(true)
            .tls(keys.serverSettings(TlsClientAuth.NONE))
            .componentName("distributor-tls-test")
            .listener(listener));
        provider = EtaNiProvider.connectEncrypted("localhost", distributor.port(), keys.truststore().toString(),
            TlsTestKeys.PASSWORD);
        provider.login("tls-nip");
        provider.publishDirectory(SERVICE_ID, "TLS_PUB");
        provider.refresh(-2, SERVICE_ID, "TRI.N", fields.begin(1, 0).real(22, 100, 12).end());
        listener.await(2);

        plain = EtaChannel.connectAsync("127.0.0.1", distributor.port(), 30, Codec.protocolType(), "plain");
        assertNotEquals(TransportReturnCodes.SUCCESS, plain.awaitInitResult(), "plain TCP on a TLS port");
        MdTests.await("the refusal counted", () ->
            MdCounters.sum(distributor.countersReader(), MdCounters.RIPC_TLS_HANDSHAKE_FAILURES_TYPE_ID) >= 1);

        for (int i = 0; i < UPDATES; i++)
        {
            provider.update(-2, fields.begin(0, 0).real(22, 101 + i, 12).end());
        }
        final List<RecordingDistributorListener.Event> events = listener.await(2 + UPDATES);
        assertEquals("service,refresh" + ",update".repeat(UPDATES), listener.types());
        assertEquals("TLS_PUB", events.get(0).name());
        assertTrue(MdCounters.sum(distributor.countersReader(), MdCounters.RIPC_TLS_HANDSHAKES_COMPLETED_TYPE_ID) >= 1);
    }
}
