package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.ExpandableDirectByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.InterruptAfter;

/**
 * The file sink hands its lines to the OS at every flush — not only when its buffer fills or it is closed — so what
 * the drainer counts as drained is in the file even if the process is killed right after (nothing here closes the
 * sink before reading the file).
 */
@InterruptAfter(30)
class OrderSinksTest
{
    @TempDir
    Path dir;

    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(256);

    private int record(final long sequence)
    {
        final OrderRecordEncoder record = new OrderRecordEncoder().wrapAndApplyHeader(buffer, 0,
            new MessageHeaderEncoder());
        record.partition(2).epoch(3).sequence(sequence).clientId(7).orderId(100 + sequence).storedTimeMs(0)
            .side(Side.SELL).quantity(50).priceMantissa(12345).priceExponent((byte)-2).ordType((short)'2')
            .timeInForce((short)0).symbol("VOD.L").clOrdId("c");
        record.putFix(new byte[] {1}, 0, 1);
        return MessageHeaderEncoder.ENCODED_LENGTH + record.encodedLength();
    }

    @Test
    void fileSinkLinesAreInTheFileOnceFlushedWithoutClosing() throws IOException
    {
        for (final boolean fsync : new boolean[] {false, true})
        {
            final Path file = dir.resolve("sink-" + fsync + ".csv");
            final OrderSinks.FileSink sink = (OrderSinks.FileSink)OrderSinks.create("file:" + file, fsync);
            try
            {
                for (long sequence = 1; sequence <= 3; sequence++)
                {
                    assertTrue(sink.write(2, sequence, buffer, 0, record(sequence)));
                }
                assertEquals(0, Files.size(file), "buffered until the flush");
                assertTrue(sink.flush());
                final List<String> lines = Files.readAllLines(file);
                assertEquals(List.of("2,1,3,7,101,VOD.L,2,50,12345,-2", "2,2,3,7,102,VOD.L,2,50,12345,-2",
                    "2,3,3,7,103,VOD.L,2,50,12345,-2"), lines);
                assertTrue(sink.flush(), "an empty flush is fine");
                assertEquals(3, Files.readAllLines(file).size());
            }
            finally
            {
                sink.close();
            }
        }
    }
}
