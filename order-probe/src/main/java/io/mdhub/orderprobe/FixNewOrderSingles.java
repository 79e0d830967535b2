package io.mdhub.orderprobe;

import org.agrona.MutableDirectBuffer;

import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.order.fix.FixOrderEncoder;

/**
 * The load tool's orders: FIX 4.4 NewOrderSingles of a fixed length (305 bytes by default, as in the GemCache
 * tests) written by {@link FixOrderEncoder}, with the order id as ClOrdID and MsgSeqNum, alternating side, a symbol
 * and price that vary with the id. No allocation.
 */
public final class FixNewOrderSingles implements OrderGenerator
{
    /** The published order size. */
    public static final int DEFAULT_LENGTH = FixOrderEncoder.DEFAULT_LENGTH;

    private static final String[] SYMBOLS = {"VOD.L", "BARC.L", "HSBA.L", "BP.L", "RIO.L", "GSK.L", "AZN.L", "ULVR.L"};

    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final int length;

    /**
     * @param length total message length to pad to.
     */
    public FixNewOrderSingles(final int length)
    {
        this.length = length;
        encoder.length(length);
    }

    @Override
    public int generate(final long orderId, final long epochMs, final MutableDirectBuffer buffer, final int offset)
    {
        return encoder
            .msgSeqNum((int)(1 + (orderId & 0x3FFF_FFFF)))
            .sendingTimeMs(epochMs)
            .transactTimeMs(epochMs)
            .clOrdId(orderId)
            .symbol(SYMBOLS[(int)(orderId & 7)])
            .side(0 == (orderId & 1) ? Side.BUY : Side.SELL)
            .quantity(100 + (orderId % 10) * 100)
            .ordType((byte)'2')
            .price(10_000 + orderId % 500, -2)
            .encode(buffer, offset);
    }

    @Override
    public int maxLength()
    {
        return Math.max(length, FixOrderEncoder.MAX_UNPADDED_LENGTH) + 8;
    }
}
