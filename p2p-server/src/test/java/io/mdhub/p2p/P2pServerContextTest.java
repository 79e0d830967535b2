package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.tls.TlsClientAuth;
import io.mdhub.common.tls.TlsSettings;
import io.mdhub.p2p.source.ItemSourceFactory;

/**
 * {@link P2pServer.Context} over its two settings levels ({@link P2pConnectionSettings}, {@link P2pServerSettings}):
 * what conclude creates and close releases, the order its checks run in, and a conclude that fails half-way. No
 * server is launched: nothing listens.
 */
@InterruptAfter(10)
class P2pServerContextTest
{
    private static final ItemSourceFactory NO_SOURCES = (workerIndex, eventLoop, listener) -> null;

    private static P2pServer.Context context()
    {
        return new P2pServer.Context().port(0).workers(1).componentName("p2p-ctx-test").registerMBean(false)
            .itemSourceFactory(NO_SOURCES);
    }

    @Test
    void concludeCreatesWhatWasNotSuppliedOnBothLevelsAndCloseReleasesIt()
    {
        final P2pServer.Context ctx = context().conclude();
        try
        {
            assertNotNull(ctx.eventLoopGroup());
            assertNotNull(ctx.outputAllocator());
            assertNull(ctx.serverSslContext(), "no listener speaks TLS");
            assertNotNull(ctx.counters());
            assertNotNull(ctx.dictionarySupplier());
            assertNotNull(ctx.entitlements());
            assertTrue(ctx.guaranteedOutputBytes() > 0 && ctx.guaranteedOutputBytes() <= ctx.maxOutputBytes());
            assertEquals(1, ctx.listeners().size());
        }
        finally
        {
            ctx.close();
        }
        assertNull(ctx.eventLoopGroup());
        assertNull(ctx.counters());
        assertNull(ctx.countersManager(), "the in-memory CountersManager it created is freed");
    }

    @Test
    void aCloneOfAConcludedContextOwnsNoneOfItsResourcesAndConcludesItsOwn()
    {
        final P2pServer.Context ctx = context().conclude();
        final P2pServer.Context copy = ctx.clone();
        try
        {
            assertTrue(!copy.isConcluded());
            assertNull(copy.countersManager(), "the in-memory counters stay with the original");
            assertNull(copy.counters());
            assertNull(copy.eventLoopGroup());
            assertNull(copy.outputAllocator());
            assertNull(copy.entitlements());
            copy.conclude();
            assertNotNull(copy.countersManager());
            assertTrue(ctx.countersManager() != copy.countersManager(), "the copy made its own");
            assertTrue(ctx.eventLoopGroup() != copy.eventLoopGroup());
        }
        finally
        {
            copy.close();
            ctx.close(); // frees only what it made: no double free of the buffers the copy did not take
        }
        assertNull(ctx.countersManager());

        final CountersManager given = newCountersManager();
        final P2pServer.Context withGiven = context().countersManager(given);
        assertSame(given, withGiven.clone().countersManager(), "a manager that was given is shared by a copy");
    }

    @Test
    void settersOfBothLevelsReturnTheContextAndRefuseChangesOnceConcluded()
    {
        final P2pServer.Context ctx = context().maxItems(10).bindAddress("127.0.0.1").maxItemsPerConsumer(5);
        ctx.conclude();
        try
        {
            assertThrows(IllegalStateException.class, () -> ctx.port(1)); // connection level
            assertThrows(IllegalStateException.class, () -> ctx.maxItems(1)); // server level
        }
        finally
        {
            ctx.close();
        }
    }

    @Test
    void checksRunInOneOrderAcrossTheLevels()
    {
        // the port (connection level) before the item limits (server level)...
        final IllegalArgumentException portFirst = assertThrows(IllegalArgumentException.class,
            () -> context().port(70_000).maxItems(-1).conclude());
        assertTrue(portFirst.getMessage().contains(P2pConfiguration.PORT_PROP_NAME), portFirst.getMessage());
        // ...the item limits before the output pool (connection level again)...
        final IllegalArgumentException itemsFirst = assertThrows(IllegalArgumentException.class,
            () -> context().maxItems(-1).outputPoolChunkSize(3).conclude());
        assertTrue(itemsFirst.getMessage().contains(P2pConfiguration.MAX_ITEMS_PROP_NAME), itemsFirst.getMessage());
        // ...and the output pool before the item source factory (server level)
        final IllegalArgumentException poolFirst = assertThrows(IllegalArgumentException.class,
            () -> context().outputPoolChunkSize(3).itemSourceFactory(null).conclude());
        assertTrue(poolFirst.getMessage().contains(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME),
            poolFirst.getMessage());
    }

    @Test
    void aLaunchThatFailsAfterTheCountersWereMadeClosesTheContextAndFreesThem()
    {
        final CountersManager afterClose = newCountersManager();
        context().countersManager(afterClose).conclude().close();

        final CountersManager afterFailure = newCountersManager();
        final P2pServer.Context ctx = context().countersManager(afterFailure).usageDir("bad\u0000dir");
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> P2pServer.launch(ctx));
        assertTrue(failure.getMessage().contains(P2pConfiguration.USAGE_DIR_PROP_NAME), failure.getMessage());
        assertNull(ctx.counters(), "closed after the failed conclude");
        assertNull(ctx.eventLoopGroup(), "conclude stopped before the event loops");
        assertEquals(0, countCounters(afterClose), "a close frees every counter its conclude made");
        assertEquals(0, countCounters(afterFailure), "so does a failed launch");
    }

    @Test
    void theWebSocketPortsTlsReadsTheKeyMaterialOnlyWhenThatPortIsServed()
    {
        final TlsSettings missing = TlsTestKeys.get().serverSettings(TlsClientAuth.NONE).toBuilder()
            .keystore("/nonexistent/mdhub-ws.p12", TlsTestKeys.PASSWORD.toCharArray()).build();
        final P2pServer.Context unserved = context().webSocketTlsEnabled(true).tls(missing).conclude();
        try
        {
            assertNull(unserved.webSocketSslContext(), "no WebSocket port: nothing to read");
        }
        finally
        {
            unserved.close();
        }

        final IllegalArgumentException wrongKeys = assertThrows(IllegalArgumentException.class,
            () -> P2pServer.launch(context().webSocketPort(0).webSocketTlsEnabled(true).tls(missing)));
        assertTrue(wrongKeys.getMessage().contains("keystore"), wrongKeys.getMessage());

        final P2pServer.Context served = context().webSocketPort(0).webSocketTlsEnabled(true)
            .tls(TlsTestKeys.get().serverSettings(TlsClientAuth.NONE)).conclude();
        try
        {
            assertNotNull(served.webSocketSslContext());
            assertSame(served.serverSslContext(), served.webSocketSslContext(), "the RSSL ports' TLS context");
        }
        finally
        {
            served.close();
        }
        final P2pServer.Context plain = context().webSocketPort(0).conclude();
        try
        {
            assertNull(plain.webSocketSslContext(), "plain by default");
        }
        finally
        {
            plain.close();
        }
    }

    private static CountersManager newCountersManager()
    {
        return new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * CountersManager.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * CountersManager.COUNTER_LENGTH)));
    }

    private static int countCounters(final CountersManager countersManager)
    {
        final int[] count = {0};
        countersManager.forEach((counterId, label) -> count[0]++);
        return count[0];
    }
}
