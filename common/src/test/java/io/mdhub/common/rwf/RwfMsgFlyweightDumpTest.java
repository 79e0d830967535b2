package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.decode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Msg;

import io.mdhub.common.test.InterruptAfter;

/**
 * The flyweight against bytes captured between real ETA applications.
 */
@InterruptAfter(10)
class RwfMsgFlyweightDumpTest
{
    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();

    private RwfMsgFlyweight wrap(final byte[] bytes)
    {
        assertTrue(flyweight.wrap(new UnsafeBuffer(bytes.clone()), 0, bytes.length), flyweight::errorReason);
        return flyweight;
    }

    @Test
    void level1Update()
    {
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.LEVEL1_UPDATE);
        assertEquals(57, msg.length());
        assertEquals(9, msg.headerLength());
        assertEquals(RwfMsgDescriptor.UPDATE, msg.msgClass());
        assertEquals(6, msg.domainType());
        assertEquals(5, msg.streamId());
        assertEquals(0, msg.flags());
        assertEquals(DataTypes.FIELD_LIST, msg.containerType());
        assertEquals(1, msg.updateType());
        assertEquals(11, msg.payloadOffset());
        assertEquals(46, msg.payloadLength());
        assertFalse(msg.hasMsgKey());
        assertFalse(msg.hasState());
        assertFalse(msg.hasSeqNum());
    }

    @Test
    void requestForTriN()
    {
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.REQUEST_TRI_N);
        assertEquals(RwfMsgDescriptor.REQUEST, msg.msgClass());
        assertEquals(5, msg.streamId());
        assertEquals(RwfMsgFlags.Request.STREAMING | RwfMsgFlags.Request.HAS_QOS | RwfMsgFlags.Request.HAS_PRIORITY,
            msg.flags());
        assertEquals(DataTypes.NO_DATA, msg.containerType());
        assertTrue(msg.hasMsgKey());
        assertEquals(1, msg.key().serviceId());
        assertTrue(msg.key().nameEqualsAscii("TRI.N"));
        assertEquals("TRI.N", msg.key().nameAsString());
        assertEquals(1, msg.key().nameType());
        assertEquals(0, msg.payloadLength());
    }

    @Test
    void requestWithShortFormKeyLength()
    {
        final Msg eta = decode(RwfDumpVectors.REQUEST_TRI_N_SHORT_KEY_LENGTH);
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.REQUEST_TRI_N_SHORT_KEY_LENGTH);
        RwfMsgFlyweightEtaTest.assertMatches("short key length", eta, msg);
        assertTrue(msg.key().nameEqualsAscii("TRI.N"));
    }

    @Test
    void loginRequest()
    {
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.LOGIN_REQUEST);
        assertEquals(RwfMsgDescriptor.REQUEST, msg.msgClass());
        assertEquals(1, msg.domainType());
        assertEquals(1, msg.streamId());
        assertTrue(msg.key().nameEqualsAscii("labuser"));
        assertEquals(1, msg.key().nameType());
        assertTrue(msg.key().hasAttrib());
        assertEquals(DataTypes.ELEMENT_LIST, msg.key().attribContainerType());
        assertEquals(0x42, msg.key().attribLength());
        assertFalse(msg.key().hasServiceId());
        assertEquals(msg.length(), msg.key().attribOffset() + msg.key().attribLength());
    }

    @Test
    void directoryAndDictionaryRequests()
    {
        RwfMsgFlyweight msg = wrap(RwfDumpVectors.DIRECTORY_REQUEST);
        assertEquals(4, msg.domainType());
        assertEquals(RwfMsgKeyDescriptor.HAS_FILTER, msg.key().flags());
        assertEquals(7L, msg.key().filter());

        msg = wrap(RwfDumpVectors.DICTIONARY_REQUEST);
        assertEquals(5, msg.domainType());
        assertEquals(3, msg.streamId());
        assertTrue(msg.key().nameEqualsAscii("RWFFld"));
        assertEquals(1, msg.key().serviceId());
        assertEquals(7L, msg.key().filter());
    }

    @Test
    void directoryRefresh()
    {
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.DIRECTORY_REFRESH);
        assertEquals(RwfMsgDescriptor.REFRESH, msg.msgClass());
        assertEquals(4, msg.domainType());
        assertEquals(0x168, msg.flags());
        assertEquals(DataTypes.MAP, msg.containerType());
        assertEquals(1, msg.streamState());
        assertEquals(1, msg.dataState());
        assertEquals(0, msg.stateCode());
        assertEquals("Source Directory Refresh Completed".length(), msg.stateTextLength());
        assertEquals(7L, msg.key().filter());
        assertEquals(2 + 0x38, msg.payloadOffset());
        assertEquals(394 - 2 - 0x38, msg.payloadLength());
        RwfMsgFlyweightEtaTest.assertMatches("directory refresh", decode(RwfDumpVectors.DIRECTORY_REFRESH), msg);
    }

    @Test
    void refreshesStatusesAndTheRest()
    {
        for (final byte[] vector : RwfDumpVectors.all())
        {
            RwfMsgFlyweightEtaTest.assertMatches("vector", decode(vector), wrap(vector));
        }
        assertEquals(-2, wrap(RwfDumpVectors.NIP_REFRESH).streamId());
        assertEquals(0, flyweight.flags() & RwfMsgFlags.Refresh.SOLICITED);
        assertTrue(flyweight.key().nameEqualsAscii("TRI.N"));
        assertEquals(4, wrap(RwfDumpVectors.NIP_STATUS_CLOSED).streamState());
        assertEquals(2, flyweight.dataState());
        assertEquals(4, wrap(RwfDumpVectors.BATCH_STATUS).streamState());
        assertEquals(RwfMsgFlags.Request.HAS_BATCH,
            wrap(RwfDumpVectors.BATCH_REQUEST).flags() & RwfMsgFlags.Request.HAS_BATCH);
        assertEquals(DataTypes.ELEMENT_LIST, flyweight.containerType());
        assertEquals(7L, wrap(RwfDumpVectors.ACK_MINIMAL).ackId());
        assertEquals(RwfMsgDescriptor.CLOSE, wrap(RwfDumpVectors.LOGIN_CLOSE).msgClass());
    }

    @Test
    void honoursHeaderLengthLikeEta()
    {
        final RwfMsgFlyweight msg = wrap(RwfDumpVectors.LEVEL1_UPDATE_LONGER_HEADER);
        assertEquals(10, msg.headerLength());
        assertEquals(12, msg.payloadOffset());
        assertEquals(0x08, msg.buffer().getByte(msg.payloadOffset()));
        final Msg eta = decode(RwfDumpVectors.LEVEL1_UPDATE_LONGER_HEADER);
        assertEquals(msg.payloadLength(), eta.encodedDataBody().length());
    }

    @Test
    void rewritesStreamIdInPlaceOfDumpUpdate()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        buffer.putBytes(3, RwfDumpVectors.LEVEL1_UPDATE);
        assertTrue(flyweight.wrap(buffer, 3, RwfDumpVectors.LEVEL1_UPDATE.length));
        flyweight.streamId(-1);
        assertEquals((byte)0xFF, buffer.getByte(3 + 4));
        assertEquals((byte)0xFF, buffer.getByte(3 + 7));
        RwfMsgDescriptor.streamId(buffer, 3, 0x01020304);
        assertEquals(0x01020304, flyweight.streamId());
        assertEquals(0x01, buffer.getByte(3 + 4));
    }
}
