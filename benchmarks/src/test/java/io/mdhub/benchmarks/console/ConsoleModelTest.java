package io.mdhub.benchmarks.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(30)
class ConsoleModelTest
{
    private static ProcessSample sample(final long nanoTime, final long updatesIn, final long updatesOut)
    {
        final ProcessSample.Builder builder = new ProcessSample.Builder();
        builder.nanoTime = nanoTime;
        builder.pid = 42;
        builder.uptimeMs = 3_723_000;
        builder.components.add("mdhub-p2p");
        builder.counter("p2p-connections-active: component=mdhub-p2p", 2);
        builder.counter("p2p-items-open: component=mdhub-p2p", 7);
        builder.counter("p2p-service-updates-in: service=NI component=mdhub-p2p", updatesIn);
        builder.counter("p2p-updates-out: component=mdhub-p2p", updatesOut);
        builder.counter("p2p-disconnects: reason=slow-consumer component=mdhub-p2p", 3);
        builder.counter("p2p-disconnects: reason=logout component=mdhub-p2p", 5);
        return builder.build();
    }

    @Test
    void ratesAreTakenBetweenTwoSamplesAndFiguresByCounterName()
    {
        final ProcessRow first = ProcessRow.of("pid 42", null, sample(0, 100, 200), 2);
        assertEquals("p2p", first.role());
        assertTrue(Double.isNaN(first.updatesInPerSec()), "no rate without an earlier sample");
        final ProcessRow row = ProcessRow.of("pid 42", sample(0, 100, 200), sample(2_000_000_000L, 1_100, 4_200), 2);
        assertEquals(500, row.updatesInPerSec(), 1e-9);
        assertEquals(2_000, row.updatesOutPerSec(), 1e-9);
        assertEquals(2, row.consumers());
        assertEquals(7, row.items());
        assertEquals(3, row.slowConsumers(), "only the slow-consumer reason");
        assertEquals(-1, row.providers(), "a p2p-server has no providers");
        assertTrue(OverviewFormat.line(row).startsWith("p2p         pid 42           mdhub-p2p"),
            OverviewFormat.line(row));
        assertTrue(OverviewFormat.json(List.of(row)).contains("\"updatesInPerSec\":500.0,\"updatesOutPerSec\":2000.0"));
    }

    @Test
    void readsPartitionLinesConnectionIdsAndServerJars()
    {
        final String[] partitions = {
            "partition=1 role=BACKUP epoch=3 queueDepth=4 replicationRttUs=90",
            "partition=0 role=PRIMARY epoch=3 queueDepth=6 replicationRttUs=120",
        };
        assertEquals("0:PRIMARY 1:BACKUP", ProcessRow.partitionRoles(partitions));
        assertEquals(12, ConsoleOperations.connectionId("worker=0 id=12 remote=/127.0.0.1:4 user=u"));
        assertEquals(-1, ConsoleOperations.connectionId("worker=0 remote=/127.0.0.1:4"));
        assertEquals("mdhub-p2p.jar", LocalProcesses.serverJar("/opt/mdhub/p2p-server/target/mdhub-p2p.jar --port 1"));
        assertNull(LocalProcesses.serverJar("/opt/mdhub/benchmarks/target/mdhub-bench.jar console"));
        assertEquals("1h02m", OverviewFormat.duration(3_723_000));
    }

    @Test
    void anUnreachableProcessGetsARowWithTheReason()
    {
        final ConsoleTarget nowhere = new ConsoleTarget()
        {
            @Override
            public String label()
            {
                return "nowhere:1";
            }

            @Override
            public JMXServiceURL serviceUrl() throws IOException
            {
                throw new IOException("connection refused");
            }
        };
        try (ConsoleModel model = new ConsoleModel(() -> List.of(nowhere)))
        {
            final List<ProcessRow> rows = model.refresh();
            assertEquals(1, rows.size());
            assertEquals("connection refused", rows.get(0).error());
            assertTrue(OverviewFormat.table(rows).contains("nowhere:1        unreadable: connection refused"),
                OverviewFormat.table(rows));
        }
    }
}
