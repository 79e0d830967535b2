package io.mdhub.benchmarks.backbone;

import java.io.File;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.mdhub.backbone.BackboneConfiguration;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.MarketDataAdapter;
import io.mdhub.backbone.protocol.MarketDataListener;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.distributor.backbone.DistributorBackboneConfiguration;

/**
 * One update across the backbone over Aeron IPC: the distributor's {@link MarketDataPublisher#update} (claim, SBE
 * encode in place, commit) and a p2p-server's {@link MarketDataAdapter#poll} of it back, on one thread, so an
 * operation is one message published and delivered, with none queued in between. The stream is the distributor's
 * default (IPC, exclusive publication, 16 MiB terms, 3 publish attempts) on an embedded media driver whose directory
 * is a fresh one under {@code /dev/shm}, deleted on tear-down, running shared mode on one thread with Aeron's default
 * idle strategy.
 * <p>
 * At this rate (a 128-byte frame every few tens of nanoseconds, some 4 GB/s) the publisher outruns the driver, whose
 * conductor moves the publisher's limit on only as it zeroes the log behind the subscriber: a few per cent of
 * updates find the stream back-pressured. Such an update is offered again until it goes, as the distributor's
 * pending store would send it later, so the waiting counts in the score instead of a failed claim passing for a
 * cheap operation.
 */
public class BackboneIpcBenchmark extends AbstractMdBenchmark
{
    private static final int SERVICE_ID = 1;
    private static final int ITEM_HANDLE = 42;
    private static final int FRAGMENT_LIMIT = 10;
    private static final long CONNECT_TIMEOUT_NS = 10_000_000_000L;

    private final LastUpdate listener = new LastUpdate();
    private UnsafeBuffer update;
    private File aeronDir;
    private MediaDriver driver;
    private Aeron aeron;
    private ExclusivePublication publication;
    private Subscription subscription;
    private MarketDataPublisher publisher;
    private MarketDataAdapter adapter;
    private long sequence;

    /**
     * Launch the driver, connect, and wait until the subscription has the publication's image.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        update = BenchmarkMessages.direct(BenchmarkMessages.LEVEL1_UPDATE);
        final File shm = new File("/dev/shm");
        aeronDir = new File(shm.isDirectory() ? shm : new File(System.getProperty("java.io.tmpdir")),
            "mdhub-bench-aeron-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir.getAbsolutePath())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .threadingMode(ThreadingMode.SHARED)
            .ipcTermBufferLength(BackboneConfiguration.IPC_TERM_BUFFER_LENGTH_DEFAULT)
            .termBufferSparseFile(false));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir.getAbsolutePath()));
        publication = aeron.addExclusivePublication(
            DistributorBackboneConfiguration.CHANNEL_DEFAULT, DistributorBackboneConfiguration.DATA_STREAM_ID_DEFAULT);
        subscription = aeron.addSubscription(
            DistributorBackboneConfiguration.CHANNEL_DEFAULT, DistributorBackboneConfiguration.DATA_STREAM_ID_DEFAULT);

        final CountersManager counters = new InMemoryCounters(2).manager();
        final AtomicCounter backPressure = counters.newCounter("bench-back-pressure");
        final AtomicCounter malformed = counters.newCounter("bench-malformed");
        publisher = new MarketDataPublisher(new BackbonePublication(
            publication, DistributorBackboneConfiguration.MAX_PUBLISH_ATTEMPTS_DEFAULT, backPressure));
        adapter = new MarketDataAdapter(listener, malformed);

        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (!publication.isConnected() || 0 == subscription.imageCount())
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException("the IPC subscription did not connect: " + aeronDir);
            }
            Thread.yield();
        }
    }

    /**
     * Close everything and delete the driver's directory.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        CloseHelper.closeAll(subscription, publication, aeron, driver);
        IoUtil.delete(aeronDir, true);
    }

    /**
     * @return the sequence of the update delivered, or -1 when it was not published and delivered.
     */
    @Benchmark
    @NoAllocation
    public long publishAndPoll()
    {
        final long next = ++sequence;
        long result = publisher.update(SERVICE_ID, ITEM_HANDLE, next, next, update, 0, update.capacity());
        while (Publication.BACK_PRESSURED == result || Publication.ADMIN_ACTION == result)
        {
            // the update waits until the driver has moved the limit on, as the distributor's pending store makes it
            result = publisher.update(SERVICE_ID, ITEM_HANDLE, next, next, update, 0, update.capacity());
        }
        if (result < 0 || adapter.poll(subscription, FRAGMENT_LIMIT) != 1 || listener.sequence != next ||
            listener.rwfLength != update.capacity())
        {
            return -1;
        }
        return listener.sequence;
    }

    /**
     * A p2p-server's listener reduced to remembering the update it was given.
     */
    private static final class LastUpdate implements MarketDataListener
    {
        private long sequence;
        private int rwfLength;

        @Override
        public void onAnnouncement(
            final int distributorId, final long epoch, final int intervalMs, final long timestampNs,
            final int serviceCount)
        {
        }

        @Override
        public void onServiceAnnounced(
            final int distributorId,
            final int serviceId,
            final boolean isUp,
            final boolean isAcceptingRequests,
            final long lastSequence,
            final int itemCount,
            final long capabilities,
            final DirectBuffer buffer,
            final int nameOffset,
            final int nameLength)
        {
        }

        @Override
        public boolean onItemRefresh(
            final int serviceId,
            final int itemHandle,
            final long sequence,
            final long originTimestampNs,
            final long requestId,
            final int domainType,
            final int flags,
            final DirectBuffer buffer,
            final int nameOffset,
            final int nameLength,
            final int rwfOffset,
            final int rwfLength)
        {
            return true;
        }

        @Override
        public boolean onItemUpdate(
            final int serviceId,
            final int itemHandle,
            final long sequence,
            final long originTimestampNs,
            final DirectBuffer buffer,
            final int rwfOffset,
            final int rwfLength)
        {
            this.sequence = sequence;
            this.rwfLength = rwfLength;
            return true;
        }

        @Override
        public boolean onItemStatus(
            final int serviceId,
            final int itemHandle,
            final long sequence,
            final long originTimestampNs,
            final long requestId,
            final int streamState,
            final int dataState,
            final DirectBuffer buffer,
            final int rwfOffset,
            final int rwfLength)
        {
            return true;
        }
    }
}
