package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.common.test.InterruptAfter;
import io.netty.channel.DefaultEventLoop;

/**
 * A FieldList update is checked at once and applied to its image behind what the event loop already had queued (the
 * burst's doorbell ring), or the moment anything reads the image; a malformed one is refused at once.
 */
@InterruptAfter(30)
class ImageUpdatesTest
{
    private static final byte[] NAME = "TRI.N".getBytes(StandardCharsets.US_ASCII);

    private final DefaultEventLoop loop = new DefaultEventLoop();
    private final ImageUpdates updates = new ImageUpdates(loop);
    private final CachedItem item = new CachedItem(1,
        new DistributedService(1, "ONE", null, null, null, null, updates),
        ItemKey.copyOf(DomainTypes.MARKET_PRICE, new UnsafeBuffer(NAME), 0, NAME.length));
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder encoder = new MarketPriceEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[1024]);
    private final ImageScratch imageScratch = new ImageScratch();
    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();

    @AfterEach
    void close()
    {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void onLoop(final Runnable action)
    {
        loop.submit(action).syncUninterruptibly();
    }

    private RwfMsgFlyweight refreshWithBidOnly()
    {
        encoder.beginRefresh(writer.begin(scratch, 0, scratch.capacity()), -2, 1, new UnsafeBuffer(NAME), 0,
            NAME.length, StreamStates.OPEN, DataStates.OK, false, 1).real(FieldIds.BID, 100, 12);
        return wrapped(encoder.complete(), writer.encodedLength());
    }

    private RwfMsgFlyweight update(final int fieldId)
    {
        encoder.beginUpdate(writer.begin(scratch, 0, scratch.capacity()), -2, UpdateEventTypes.QUOTE)
            .real(fieldId, 101, 12);
        return wrapped(encoder.complete(), writer.encodedLength());
    }

    private RwfMsgFlyweight wrapped(final int result, final int length)
    {
        assertEquals(CodecReturnCodes.SUCCESS, result);
        assertTrue(msg.wrap(scratch, 0, length));
        return msg;
    }

    @Test
    void anUpdateIsAppliedBehindTheRingAlreadyQueuedAndTheBurstsBufferMayBeReused()
    {
        final List<String> seen = new ArrayList<>();
        onLoop(() ->
        {
            assertTrue(item.cached().applyRefresh(refreshWithBidOnly(), imageScratch));
            loop.execute(() -> seen.add("ring: ASK " + item.imageForUpdate().image().contains(FieldIds.ASK)));
            assertTrue(updates.onUpdate(item, update(FieldIds.ASK), imageScratch));
            scratch.setMemory(0, scratch.capacity(), (byte)0); // the next read reuses the burst's buffer
            updates.applyAfterBurst();
            updates.applyAfterBurst(); // once per burst
            assertFalse(item.imageForUpdate().image().contains(FieldIds.ASK), "not applied in line");
        });
        onLoop(() -> seen.add("after: ASK " + item.imageForUpdate().image().contains(FieldIds.ASK)));

        assertEquals(List.of("ring: ASK false", "after: ASK true"), seen);
    }

    @Test
    void readingTheImageAppliesWhatWaitsFirst()
    {
        onLoop(() ->
        {
            assertTrue(item.cached().applyRefresh(refreshWithBidOnly(), imageScratch));
            assertTrue(updates.onUpdate(item, update(FieldIds.ASK), imageScratch));
            assertTrue(updates.onUpdate(item, update(FieldIds.TRDPRC_1), imageScratch));

            assertTrue(item.cached().image().contains(FieldIds.ASK));
            assertTrue(item.cached().image().contains(FieldIds.TRDPRC_1));
        });
    }

    @Test
    void aMalformedFieldListIsRefusedAtOnceAndNothingWaits()
    {
        onLoop(() ->
        {
            assertTrue(item.cached().applyRefresh(refreshWithBidOnly(), imageScratch));
            final RwfMsgFlyweight good = update(FieldIds.ASK);
            final int length = good.length();
            // flags, count, FID, then the value's length: 127 bytes, more than the message holds
            scratch.putByte(good.payloadOffset() + 5, (byte)0x7F);
            assertTrue(msg.wrap(scratch, 0, length));

            assertFalse(updates.onUpdate(item, msg, imageScratch));
            assertTrue(null != imageScratch.errorDescription());
            updates.applyAfterBurst();
            assertFalse(item.cached().image().contains(FieldIds.ASK));
        });
    }
}
