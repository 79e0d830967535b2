package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.InterruptAfter;

/**
 * The harness's decoder: a refresh encoded with ETA comes back with every field typed by the dictionary, and the
 * typed accessors refuse a field of another type, a blank one or an absent one.
 */
@InterruptAfter(10)
class EtaMessageTest
{
    private static byte[] refresh(final byte[] fields)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(7);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.SOLICITED | RefreshMsgFlags.REFRESH_COMPLETE);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.msgKey().applyHasServiceId();
        refresh.msgKey().serviceId(3);
        refresh.msgKey().applyHasName();
        refresh.msgKey().name().data("TRI.N");
        final Buffer body = CodecFactory.createBuffer();
        body.data(ByteBuffer.wrap(fields));
        refresh.encodedDataBody(body);
        return EtaChannel.encode(refresh::encode);
    }

    @Test
    void decodesEveryFieldWithTheDictionaryType()
    {
        final byte[] fields = new EtaFieldLists().begin(1, 0)
            .uint(FieldIds.PROD_PERM, 4321)
            .rmtes(FieldIds.DSPLY_NAME, "THOMSON REUTERS")
            .enumValue(FieldIds.RDN_EXCHID, 2)
            .real(FieldIds.TRDPRC_1, 12345, RealHints.EXPONENT_2)
            .enumValue(FieldIds.CURRENCY, 840)
            .date(FieldIds.TRADE_DATE, 2025, 3, 14)
            .time(FieldIds.TRDTIM_1, 15, 59, 58, 123)
            .real(FieldIds.BID, -5, RealHints.EXPONENT_4)
            .blank(FieldIds.ASK)
            .intValue(FieldIds.MDH_ORGTIM, -77)
            .end();
        final EtaMessage message = EtaMessage.decode(refresh(fields));

        assertEquals(MsgClasses.REFRESH, message.msgClass());
        assertEquals(7, message.streamId());
        assertEquals(StreamStates.OPEN, message.streamState());
        assertTrue(message.isSolicited());
        assertTrue(message.isRefreshComplete());
        assertEquals(3, message.keyServiceId());
        assertEquals("TRI.N", message.keyName());
        assertEquals(List.of(1, 3, 4, 6, 15, 16, 18, 22, 25, -4002), message.fieldIds());
        assertEquals(4321, message.uint(FieldIds.PROD_PERM));
        assertEquals("THOMSON REUTERS", message.rmtes(FieldIds.DSPLY_NAME));
        assertEquals("THOMSON REUTERS", message.string(FieldIds.DSPLY_NAME));
        assertEquals(2, message.enumValue(FieldIds.RDN_EXCHID));
        assertEquals("NYS", message.enumDisplay(FieldIds.RDN_EXCHID));
        assertEquals(12345, message.mantissa(FieldIds.TRDPRC_1));
        assertEquals(RealHints.EXPONENT_2, message.hint(FieldIds.TRDPRC_1));
        assertEquals(840, message.enumValue(FieldIds.CURRENCY));
        assertEquals("USD", message.enumDisplay(FieldIds.CURRENCY));
        assertEquals(LocalDate.of(2025, 3, 14), message.date(FieldIds.TRADE_DATE));
        assertEquals(LocalTime.of(15, 59, 58, 123_000_000), message.time(FieldIds.TRDTIM_1));
        assertEquals(-5, message.real(FieldIds.BID).toLong());
        assertEquals(RealHints.EXPONENT_4, message.real(FieldIds.BID).hint());
        assertTrue(message.isBlank(FieldIds.ASK));
        assertEquals(-77, message.intValue(FieldIds.MDH_ORGTIM));
        assertEquals(Map.of(6, 12345L, 22, -5L), message.mantissas(), "blank ASK left out");
        assertEquals(DataTypes.TIME, message.rwfType(FieldIds.TRDTIM_1));
    }

    @Test
    void typedAccessorsRefuseAnotherTypeABlankOrAnAbsentField()
    {
        final EtaMessage message = EtaMessage.decode(refresh(new EtaFieldLists().begin(0, 0)
            .real(FieldIds.BID, 1, RealHints.EXPONENT_2).blank(FieldIds.ASK).uint(12_345, 9).end()));

        assertThrows(AssertionError.class, () -> message.uint(FieldIds.BID), "BID is a REAL");
        assertThrows(AssertionError.class, () -> message.mantissa(FieldIds.ASK), "ASK is blank");
        assertThrows(AssertionError.class, () -> message.mantissa(FieldIds.TRDPRC_1), "no TRDPRC_1");
        assertFalse(message.has(FieldIds.TRDPRC_1));
        assertEquals(DataTypes.UNKNOWN, message.rwfType(12_345), "not in the dictionary: kept as bytes");
        assertArrayEquals(new byte[] {9}, message.encoded(12_345));
    }
}
