package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The ingress's reassembly buffers go with the publishers that leave: a session that left mid-message has its
 * buffer freed, and a message the same session id sends later is assembled from scratch; a session whose image is
 * back on the subscription keeps its buffer.
 */
@InterruptAfter(20)
class IngressDeparturesTest
{
    private static final int STREAM_ID = 3001;

    @TempDir
    Path dir;

    private final List<String> delivered = new ArrayList<>();
    private final FragmentAssembler assembler = new FragmentAssembler(
        (buffer, offset, length, header) -> delivered.add(buffer.getStringWithoutLengthAscii(offset, length)));
    private final IngressDepartures departures = new IngressDepartures();
    private final Map<Integer, Integer> termOffsets = new HashMap<>();
    private BackboneNode node;
    private Aeron aeron;
    private Subscription ingress;

    @BeforeEach
    void launch()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .ipcTermBufferLength(64 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        ingress = aeron.addSubscription("aeron:ipc", STREAM_ID);
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(ingress, aeron, node);
    }

    @Test
    void aDepartedSessionsBufferIsFreedOnceAndOthersAreKept()
    {
        fragment(7, FrameDescriptor.BEGIN_FRAG_FLAG, "half an order from 7 ");
        fragment(8, FrameDescriptor.BEGIN_FRAG_FLAG, "half an order from 8 ");
        departures.departed(7);
        departures.departed(9); // left without ever fragmenting: nothing to free

        assertEquals(1, departures.free(assembler, ingress));
        assertEquals(0, departures.free(assembler, ingress), "each departure is freed once");
        assertFalse(assembler.freeSessionBuffer(7), "7's buffer is gone");

        fragment(8, FrameDescriptor.END_FRAG_FLAG, "and its end");
        assertEquals(List.of("half an order from 8 and its end"), delivered, "8, still present, is assembled");
        fragment(7, FrameDescriptor.END_FRAG_FLAG, "an end whose beginning left with 7");
        assertEquals(1, delivered.size(), "a tail without its beginning is not delivered");
        assertTrue(assembler.freeSessionBuffer(8));
    }

    @Test
    void aMassDisconnectBetweenTwoDutyCyclesIsFreedWhole()
    {
        final int departing = 10_000;
        for (int sessionId = 0; sessionId < departing; sessionId++)
        {
            fragment(sessionId, FrameDescriptor.BEGIN_FRAG_FLAG, "half an order ");
        }
        for (int sessionId = 0; sessionId < departing; sessionId++)
        {
            departures.departed(sessionId);
        }
        assertEquals(departing, departures.free(assembler, ingress), "every departure, however many at once");
        assertFalse(assembler.freeSessionBuffer(departing - 1));

        fragment(departing, FrameDescriptor.BEGIN_FRAG_FLAG, "a later half ");
        departures.departed(departing);
        assertEquals(1, departures.free(assembler, ingress), "reported after the swap: freed on the next cycle");
    }

    @Test
    void aSessionWhoseImageIsBackKeepsItsBuffer()
    {
        try (Publication publication = aeron.addPublication("aeron:ipc", STREAM_ID))
        {
            MdTests.await("the publication's image", () -> null != ingress.imageBySessionId(publication.sessionId()));
            fragment(publication.sessionId(), FrameDescriptor.BEGIN_FRAG_FLAG, "the first half ");
            departures.departed(publication.sessionId()); // left and came back before the agent looked
            assertEquals(0, departures.free(assembler, ingress));
            fragment(publication.sessionId(), FrameDescriptor.END_FRAG_FLAG, "and the second");
            assertEquals(List.of("the first half and the second"), delivered);
        }
    }

    private void fragment(final int sessionId, final byte flags, final String text)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH + text.length()]);
        final DataHeaderFlyweight frame = new DataHeaderFlyweight(buffer);
        final int termOffset = termOffsets.getOrDefault(sessionId, 0); // each session's frames follow each other
        termOffsets.put(sessionId, termOffset + BitUtil.align(buffer.capacity(), FrameDescriptor.FRAME_ALIGNMENT));
        frame.sessionId(sessionId).termOffset(termOffset).flags(flags).frameLength(buffer.capacity());
        buffer.putStringWithoutLengthAscii(DataHeaderFlyweight.HEADER_LENGTH, text);
        final Header header = new Header(0, 16);
        header.buffer(buffer);
        header.offset(0);
        assembler.onFragment(buffer, DataHeaderFlyweight.HEADER_LENGTH, text.length(), header);
    }
}
