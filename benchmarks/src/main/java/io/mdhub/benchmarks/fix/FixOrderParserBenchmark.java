package io.mdhub.benchmarks.fix;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.order.fix.FixOrder;
import io.mdhub.common.order.fix.FixOrderParser;

/**
 * The order service's first step on every order: {@link FixOrderParser#parse} of a FIX 4.4 NewOrderSingle (a limit
 * order with the usual header, Account, HandlInst, TransactTime and TimeInForce; 163 bytes), framing, checksum and
 * order validation included.
 */
public class FixOrderParserBenchmark extends AbstractMdBenchmark
{
    private static final char SOH = '\u0001';
    private static final String LIMIT_ORDER_BODY =
        "35=D|34=7|49=CLIENT|56=MDHUB|52=20240102-03:04:05.678|11=ORD-1|1=ACC|21=1|55=VOD.L|54=1|" +
        "60=20240102-03:04:05.678|38=100|40=2|44=123.45|59=0|";

    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private UnsafeBuffer message;

    /**
     * Frame the order: BodyLength and CheckSum.
     */
    @Setup
    public void setUp()
    {
        message = BenchmarkMessages.direct(newOrderSingle(LIMIT_ORDER_BODY));
    }

    /**
     * @return a sum of the order's fields, or -1 when it does not parse.
     */
    @Benchmark
    @NoAllocation
    public long parseNewOrderSingle()
    {
        if (!parser.parse(message, 0, message.capacity(), order))
        {
            return -1;
        }
        return order.quantity() + order.priceMantissa() + order.symbolLength() + order.clOrdIdLength();
    }

    /**
     * @param body the fields after BodyLength, '|' for SOH.
     * @return a FIX 4.4 message, with BodyLength and CheckSum.
     */
    static byte[] newOrderSingle(final String body)
    {
        final String bodyWithSoh = body.replace('|', SOH);
        final String head = "8=FIX.4.4" + SOH + "9=" + bodyWithSoh.length() + SOH + bodyWithSoh;
        int sum = 0;
        for (final byte b : head.getBytes(StandardCharsets.US_ASCII))
        {
            sum += b & 0xFF;
        }
        return (head + "10=" + String.format("%03d", sum & 0xFF) + SOH).getBytes(StandardCharsets.US_ASCII);
    }
}
