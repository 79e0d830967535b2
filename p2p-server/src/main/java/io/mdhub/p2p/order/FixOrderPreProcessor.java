package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.order.fix.FixOrder;
import io.mdhub.common.order.fix.FixOrderParser;

/**
 * The default pre-processing callback: parses a FIX tag=value NewOrderSingle with {@link FixOrderParser} (framing,
 * checksum, required fields, side, quantity, price) and writes its fields into the record. No allocation.
 */
public final class FixOrderPreProcessor implements OrderPreProcessor
{
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private String lastRejectText = "";

    @Override
    public RejectReason preProcess(
        final DirectBuffer fix, final int offset, final int length, final OrderRecordEncoder record)
    {
        if (!parser.parse(fix, offset, length, order))
        {
            lastRejectText = order.rejectText();
            return order.rejectReason();
        }
        order.encodeInto(record);
        return null;
    }

    @Override
    public String lastRejectText()
    {
        return lastRejectText;
    }
}
