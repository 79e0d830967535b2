package io.mdhub.benchmarks.rwf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.ImageRefreshEncoder;
import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;

/**
 * What an item cache costs (the distributor's, and the p2p-server's optional one): applying a level-1 update to a
 * cached image of a ten-field item (once per update and item, not per watcher), and writing the image out as a
 * complete refresh for a new watcher.
 * <p>
 * {@code items} is how many images the updates go round: with one, the image stays in the CPU's caches; with
 * 100,000 (the published tests' universe) each update finds its image cold in memory, as the distributor does. The
 * images are visited in a fixed shuffled order, as updates arrive for items in no particular order, so that the
 * CPU's prefetcher cannot stream them in allocation order.
 */
public class CachedImageBenchmark extends AbstractMdBenchmark
{
    private static final String NAME = "TRI.N";

    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();
    private final ImageScratch fieldList = new ImageScratch();
    private final ImageRefreshEncoder encoder = new ImageRefreshEncoder();
    private final ExpandableDirectByteBuffer out = new ExpandableDirectByteBuffer(1024);
    private final ByteBuffer name = ByteBuffer.wrap(NAME.getBytes(StandardCharsets.US_ASCII));
    private UnsafeBuffer update;
    private CachedImage[] images;
    private int[] order;
    private int next;

    @Param({"1", "100000"})
    int items = 1;

    @Setup
    public void setup()
    {
        final UnsafeBuffer refresh = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final EtaMsgWriter writer = new EtaMsgWriter();
        final MarketPriceEncoder encoder = new MarketPriceEncoder();
        final byte[] nameBytes = NAME.getBytes(StandardCharsets.US_ASCII);
        encoder.beginRefresh(writer.begin(refresh, 0, refresh.capacity()), -1, 1, new UnsafeBuffer(nameBytes), 0,
            nameBytes.length, StreamStates.OPEN, DataStates.OK, false, 1)
            .real(FieldIds.BID, 12344, 12).real(FieldIds.ASK, 12346, 12).real(FieldIds.TRDPRC_1, 12345, 12)
            .real(FieldIds.TRDVOL_1, 100, 0).uint(32, 123456).real(FieldIds.NETCHNG_1, -5, 12)
            .uint(30, 1000).uint(31, 2000).real(19, 12300, 12).real(12, 12400, 12);
        encoder.complete();
        update = new UnsafeBuffer(ByteBuffer.allocateDirect(BenchmarkMessages.LEVEL1_UPDATE.length));
        update.putBytes(0, BenchmarkMessages.LEVEL1_UPDATE);
        images = new CachedImage[items];
        for (int i = 0; i < items; i++)
        {
            images[i] = new CachedImage(DomainTypes.MARKET_PRICE);
            if (!msg.wrap(refresh, 0, writer.encodedLength()) || !images[i].applyRefresh(msg, fieldList))
            {
                throw new IllegalStateException("refresh does not load: " + msg.errorReason());
            }
        }
        order = shuffledOrder(items);
        for (int i = 0; i < items; i++)
        {
            applyUpdate(); // the first update appends its new fields; from then on they are replaced in place
        }
    }

    @Benchmark
    @NoAllocation
    public int applyUpdate()
    {
        final CachedImage image = nextImage();
        if (!msg.wrap(update, 0, update.capacity()) || !image.applyUpdate(msg, fieldList))
        {
            return -1;
        }
        return image.image().fieldCount();
    }

    @Benchmark
    @NoAllocation
    public int refreshFromImage()
    {
        return encoder.encode(nextImage(), 5, 1, name, NAME.length(), true, out, 0, out.capacity());
    }

    private CachedImage nextImage()
    {
        final CachedImage image = images[order[next]];
        next = next + 1 == items ? 0 : next + 1;
        return image;
    }

    private static int[] shuffledOrder(final int size)
    {
        final int[] order = new int[size];
        for (int i = 0; i < size; i++)
        {
            order[i] = i;
        }
        final Random random = new Random(42);
        for (int i = size - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
