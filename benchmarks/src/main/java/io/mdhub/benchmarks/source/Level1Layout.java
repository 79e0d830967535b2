package io.mdhub.benchmarks.source;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.RealHints;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.eta.FieldListWriter;

/**
 * The level-1 MarketPrice layout both sources publish (non-interactive and sink-driven), so that their items look
 * alike to a consumer: a refresh of thirteen fields, and updates of the published benchmarks' 74-byte class — a
 * quote and a trade (bid/ask with sizes, last trade price and volume, accumulated volume, quote time), the per-item
 * update counter and, in a sample of updates, the origin timestamp. Allocation-free: values derive from the base price
 * and the update count.
 */
final class Level1Layout
{
    private static final int MS_PER_DAY = 86_400_000;

    private Level1Layout()
    {
    }

    /**
     * @param fields    the refresh's field list, just begun.
     * @param name      the item name (its first 16 bytes are the display name).
     * @param nameLength name length.
     * @param basePrice price in hundredths.
     * @param count     updates published so far (the counter a consumer continues from).
     */
    static void refresh(
        final FieldListWriter fields, final DirectBuffer name, final int nameLength, final long basePrice,
        final long count)
    {
        fields.uint(FieldIds.PROD_PERM, 1)
            .string(FieldIds.DSPLY_NAME, name, 0, Math.min(16, nameLength))
            .enumValue(FieldIds.RDN_EXCHID, 2)
            .enumValue(FieldIds.CURRENCY, 840)
            .real(FieldIds.TRDPRC_1, basePrice, RealHints.EXPONENT_2)
            .real(FieldIds.TRDVOL_1, 0, RealHints.EXPONENT0)
            .real(FieldIds.BID, basePrice - 1, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, basePrice + 1, RealHints.EXPONENT_2)
            .real(FieldIds.BIDSIZE, 100, RealHints.EXPONENT0)
            .real(FieldIds.ASKSIZE, 100, RealHints.EXPONENT0)
            .real(FieldIds.ACVOL_1, 0, RealHints.EXPONENT0);
        quoteTime(fields, count).uint(FieldIds.MDH_UPDSEQ, count);
    }

    /**
     * @param fields        the update's field list, just begun.
     * @param basePrice     price in hundredths.
     * @param count         this update's number for its item, from 1.
     * @param originNs      {@code System.nanoTime()} to embed, or 0 for none.
     */
    static void update(final FieldListWriter fields, final long basePrice, final long count, final long originNs)
    {
        final long price = basePrice + (count & 0x3F);
        fields.real(FieldIds.BID, price - 1, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, price + 1, RealHints.EXPONENT_2)
            .real(FieldIds.BIDSIZE, 100 + (count & 0xFF), RealHints.EXPONENT0)
            .real(FieldIds.ASKSIZE, 200 + (count & 0xFF), RealHints.EXPONENT0)
            .real(FieldIds.TRDPRC_1, price, RealHints.EXPONENT_2)
            .real(FieldIds.TRDVOL_1, 1 + (count & 0x7F), RealHints.EXPONENT0)
            .real(FieldIds.ACVOL_1, 64 * count, RealHints.EXPONENT0);
        quoteTime(fields, count).uint(FieldIds.MDH_UPDSEQ, count);
        if (0 != originNs)
        {
            fields.integer(FieldIds.MDH_ORGTIM, originNs);
        }
    }

    private static FieldListWriter quoteTime(final FieldListWriter fields, final long count)
    {
        final int ms = (int)((count * 37) % MS_PER_DAY); // a plausible time of day, no clock read
        return fields.time(FieldIds.QUOTIM, ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    }
}
