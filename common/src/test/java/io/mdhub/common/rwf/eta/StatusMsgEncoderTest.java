package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * The shared StatusMsg writer against ETA's decoder: the domain, stream, state and text as given, the text cut at the
 * encoder's cap, and no allocation per status.
 */
@InterruptAfter(10)
class StatusMsgEncoderTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[StatusMsgEncoder.MAX_TEXT_LENGTH + 256]);
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final EtaMsgReader reader = new EtaMsgReader();

    @Test
    void writesTheItemsDomainStreamStateAndText()
    {
        final StatusMsgEncoder encoder = new StatusMsgEncoder();
        final StatusMsg status = encodeAndRead(encoder, DomainTypes.MARKET_BY_ORDER, 7, "no provider up");

        assertEquals(MsgClasses.STATUS, status.msgClass());
        assertEquals(DomainTypes.MARKET_BY_ORDER, status.domainType());
        assertEquals(7, status.streamId());
        assertEquals(StreamStates.CLOSED_RECOVER, status.state().streamState());
        assertEquals(DataStates.SUSPECT, status.state().dataState());
        assertEquals(StateCodes.NOT_FOUND, status.state().code());
        assertEquals("no provider up", status.state().text().toString());
    }

    @Test
    void textLongerThanTheCapIsCutAtTheCap()
    {
        final StatusMsgEncoder encoder = new StatusMsgEncoder(8);
        assertEquals("12345678", encodeAndRead(encoder, DomainTypes.MARKET_PRICE, 1, "1234567890").state().text()
            .toString());
        assertEquals("", encodeAndRead(new StatusMsgEncoder(0), DomainTypes.MARKET_PRICE, 1, "text").state().text()
            .toString());
    }

    @Test
    void textOutsideAsciiIsWrittenAsQuestionMarks()
    {
        assertEquals("item M?NCHEN.DE ? not found", encodeAndRead(new StatusMsgEncoder(), DomainTypes.MARKET_PRICE, 1,
            "item M\u00dcNCHEN.DE \u20ac not found").state().text().toString());
    }

    @Test
    void aCapOutsideTheRwfTextLengthIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new StatusMsgEncoder(-1));
        assertThrows(IllegalArgumentException.class, () -> new StatusMsgEncoder(StatusMsgEncoder.MAX_TEXT_LENGTH + 1));
    }

    @Test
    void aStatusAllocatesNothing()
    {
        final StatusMsgEncoder encoder = new StatusMsgEncoder();
        final StringBuilder text = new StringBuilder("item closed by its provider");
        assertEquals(0, Allocations.leastAllocatedBytes(() ->
        {
            long sum = 0;
            for (int i = 0; i < 1_000; i++)
            {
                sum += encoder.encode(writer.begin(buffer, 0, buffer.capacity()), DomainTypes.MARKET_PRICE, i,
                    StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE, text);
                sum += writer.encodedLength();
            }
            return sum;
        }, 20));
    }

    private StatusMsg encodeAndRead(
        final StatusMsgEncoder encoder, final int domainType, final int streamId, final String text)
    {
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encode(writer.begin(buffer, 0, buffer.capacity()), domainType,
            streamId, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, StateCodes.NOT_FOUND, text));
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(buffer, 0, writer.encodedLength()));
        return (StatusMsg)reader.msg();
    }
}
