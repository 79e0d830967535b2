package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;

/**
 * A consumer that stops reading is not buffered for without bound: once the socket is full the source stops writing
 * to it (counted as back-offs) and disconnects it when it stays unwritable past the slow-consumer timeout, while
 * another connection stays usable.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class InteractiveSourceSlowConsumerTest
{
    @Test
    void aConsumerThatStopsReadingIsDisconnected()
    {
        try (InteractiveSource source = InteractiveSource.launch(new InteractiveSource.Context()
                .port(0)
                .componentName("sink-slow")
                .rate(200_000)
                .slowConsumerTimeoutMs(300));
            EtaConsumer other = EtaConsumer.connect(source.port());
            EtaConsumer slow = EtaConsumer.connect(source.port()))
        {
            assertEquals(StreamStates.OPEN, other.login("other").state().streamState());
            assertEquals(StreamStates.OPEN, slow.login("slow").state().streamState());
            for (int i = 0; i < 100; i++)
            {
                slow.requestItem(10 + i, 1, "SLOW" + i + ".N");
            }
            assertEquals(MsgClasses.REFRESH, slow.awaitMessage(10).msgClass());
            // from here on the slow consumer reads nothing
            MdTests.await(() -> "the slow consumer to be dropped: " + source.stats(),
                () -> 1 == source.stats().slowConsumerDisconnects());
            final InteractiveSourceStats stats = source.stats();
            MdTests.await(() -> "its connection and items to be gone: " + stats,
                () -> 1 == stats.connections() && 0 == stats.openItems());
            assertTrue(stats.writeBackoffs() > 0, stats::toString);

            other.requestItem(5, 1, "OTHER.N");
            assertEquals(MsgClasses.REFRESH, other.awaitMessage(5).msgClass());
        }
    }

    @Test
    void aConsumerThatFloodsRequestsWithoutReadingIsDisconnectedAtThePendingLimit()
    {
        try (InteractiveSource source = InteractiveSource.launch(new InteractiveSource.Context()
                .port(0)
                .componentName("sink-flood")
                .rate(0)
                .maxPendingBytes(1 << 20));
            EtaConsumer flood = EtaConsumer.connect(source.port()))
        {
            assertEquals(StreamStates.OPEN, flood.login("flood").state().streamState());
            final String padding = "X".repeat(200);
            for (int i = 0; i < 100_000 && 0 == source.stats().slowConsumerDisconnects(); i++)
            {
                try
                {
                    flood.requestItem(10 + i, 1, padding + i);
                }
                catch (final AssertionError ex)
                {
                    // the write failed: fine only if the source has just dropped the connection
                    MdTests.await(() -> "a write failed (" + ex.getMessage() + ") without a disconnect",
                        () -> 1 == source.stats().slowConsumerDisconnects());
                    break;
                }
                if (0 == (i & 1023))
                {
                    MdTests.checkInterrupted("flooding requests");
                }
            }
            MdTests.await(() -> "the flooding consumer to be dropped: " + source.stats(),
                () -> 1 == source.stats().slowConsumerDisconnects() && 0 == source.stats().connections());
            assertEquals(0, source.stats().openItems());
        }
    }
}
