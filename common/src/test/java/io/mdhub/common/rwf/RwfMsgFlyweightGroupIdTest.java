package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.bytes;
import static io.mdhub.common.rwf.RwfTestSupport.decode;
import static io.mdhub.common.rwf.RwfTestSupport.encode;
import static io.mdhub.common.rwf.RwfTestSupport.etaBuffer;
import static io.mdhub.common.rwf.RwfTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.test.InterruptAfter;

/**
 * The item group id of refreshes (always on the wire) and statuses (HAS_GROUP_ID), encoded by ETA: the flyweight
 * reads the bytes ETA's decoder reads, for several ids, ETA's default (an app that sets none) and an empty id, with
 * the members after it (permission data, QoS, key) still read right.
 */
@InterruptAfter(30)
class RwfMsgFlyweightGroupIdTest
{
    private static final List<byte[]> GROUP_IDS = List.of(
        hex("01 00"), hex("02 00"), hex("00 01 00 02"), hex("7f"), new byte[255]);

    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();

    @Test
    void readsTheGroupIdOfRefreshesAsEtaDoes()
    {
        for (final byte[] groupId : GROUP_IDS)
        {
            for (final boolean withPerm : new boolean[] {false, true})
            {
                final RefreshMsg refresh = refresh(withPerm);
                refresh.groupId(etaBuffer(groupId));
                final byte[] encoded = encode(refresh);
                final RefreshMsg decoded = (RefreshMsg)decode(encoded);
                final String what = "group " + Arrays.toString(groupId) + (withPerm ? " with perm" : "");
                wrapOffset(encoded, what);
                assertTrue(flyweight.hasGroupId(), what);
                assertArrayEquals(bytes(decoded.groupId()), groupIdRead(), what);
                assertArrayEquals(groupId, groupIdRead(), what);
                assertTrue(flyweight.groupIdEquals(new UnsafeBuffer(groupId), 0, groupId.length), what);
                assertEquals("A.N", new String(nameRead()), what);
                assertEquals(StreamStates.OPEN, flyweight.streamState(), what);
            }
        }
    }

    @Test
    void etaDefaultGroupIdIsTwoZeroBytes()
    {
        final byte[] encoded = encode(refresh(false));
        final RefreshMsg decoded = (RefreshMsg)decode(encoded);
        wrapOffset(encoded, "default group");
        assertTrue(flyweight.hasGroupId());
        assertArrayEquals(bytes(decoded.groupId()), groupIdRead());
        assertArrayEquals(hex("00 00"), groupIdRead(), "the facts file: ETA writes 02 00 00");
        assertFalse(flyweight.groupIdEquals(new UnsafeBuffer(hex("01 00")), 0, 2));
        assertFalse(flyweight.groupIdEquals(new UnsafeBuffer(hex("00")), 0, 1));
    }

    @Test
    void anEmptyGroupIdIsReadAsEtaReadsIt()
    {
        // ETA never writes an empty id: a refresh gets its default 2-byte id 0, a status loses HAS_GROUP_ID
        final RefreshMsg refresh = refresh(false);
        refresh.groupId(etaBuffer(new byte[0]));
        wrapOffset(encode(refresh), "refresh, empty group");
        assertArrayEquals(hex("00 00"), groupIdRead());
        wrapOffset(encode(status(new byte[0])), "status, empty group");
        assertFalse(flyweight.hasGroupId());
        assertEquals(0, flyweight.flags() & StatusMsgFlags.HAS_GROUP_ID);

        // another encoder's empty id (length byte 0): present, empty, as ETA decodes it
        final byte[] raw = hex("00 0c 02 06 00 00 00 05 40 00 09 00 00 00");
        assertEquals(0, ((RefreshMsg)decode(raw)).groupId().length(), "ETA decodes an empty group id");
        wrapOffset(raw, "raw refresh, empty group");
        assertTrue(flyweight.hasGroupId());
        assertEquals(0, flyweight.groupIdLength());
        assertEquals(raw.length + 5, flyweight.groupIdOffset(), "just past the length byte, at the header's end");
        assertTrue(flyweight.groupIdEquals(new UnsafeBuffer(new byte[0]), 0, 0));
        assertFalse(flyweight.groupIdEquals(new UnsafeBuffer(hex("00 00")), 0, 2));
        assertEquals(flyweight.payloadOffset(), flyweight.groupIdOffset());
    }

    @Test
    void readsTheGroupIdOfStatusesOnlyWhenFlagged()
    {
        for (final byte[] groupId : GROUP_IDS)
        {
            final StatusMsg status = status(groupId);
            final byte[] encoded = encode(status);
            final StatusMsg decoded = (StatusMsg)decode(encoded);
            wrapOffset(encoded, "status");
            assertTrue(flyweight.hasGroupId());
            assertArrayEquals(bytes(decoded.groupId()), groupIdRead());
            assertEquals(DataStates.SUSPECT, flyweight.dataState());
            assertEquals("A.N", new String(nameRead()));
        }
        final byte[] encoded = encode(status(null));
        wrapOffset(encoded, "status without group");
        assertFalse(flyweight.hasGroupId());
        assertEquals(-1, flyweight.groupIdOffset());
        assertEquals(0, flyweight.groupIdLength());
        assertFalse(flyweight.groupIdEquals(new UnsafeBuffer(new byte[0]), 0, 0));
    }

    @Test
    void aGroupIdRunningPastTheHeaderIsAnError()
    {
        final RefreshMsg refresh = refresh(false);
        refresh.groupId(etaBuffer(hex("01 00")));
        final byte[] encoded = encode(refresh);
        // header length 2, class/domain/stream 6, flags 2 (0xC8), container 1, state 2 + text length 1 + "ok"
        final int stateTextEnd = 2 + 6 + 2 + 1 + 2 + 1 + "ok".length();
        assertEquals(2, encoded[stateTextEnd], "the group id's length byte");
        encoded[stateTextEnd] = (byte)0xF0;
        assertFalse(flyweight.wrap(new UnsafeBuffer(encoded), 0, encoded.length));
        assertEquals(RwfError.MEMBER_OVERRUN, flyweight.error());
        assertFalse(flyweight.hasGroupId());
    }

    private void wrapOffset(final byte[] encoded, final String what)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoded.length + 11]);
        buffer.putBytes(5, encoded);
        assertTrue(flyweight.wrap(buffer, 5, encoded.length), () -> what + ": " + flyweight.errorReason());
    }

    private byte[] groupIdRead()
    {
        final byte[] read = new byte[flyweight.groupIdLength()];
        flyweight.buffer().getBytes(flyweight.groupIdOffset(), read);
        return read;
    }

    private byte[] nameRead()
    {
        final byte[] name = new byte[flyweight.key().nameLength()];
        flyweight.key().getName(name, 0);
        return name;
    }

    private static RefreshMsg refresh(final boolean withPerm)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(-5);
        refresh.containerType(DataTypes.NO_DATA);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | RefreshMsgFlags.REFRESH_COMPLETE |
            (withPerm ? RefreshMsgFlags.HAS_PERM_DATA : 0));
        if (withPerm)
        {
            refresh.permData(etaBuffer(hex("03 01 02 c0")));
        }
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.state().text(etaBuffer("ok"));
        refresh.qos().timeliness(1);
        refresh.qos().rate(1);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME);
        refresh.msgKey().serviceId(1);
        refresh.msgKey().name(etaBuffer("A.N"));
        return refresh;
    }

    private static StatusMsg status(final byte[] groupId)
    {
        final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(DomainTypes.MARKET_PRICE);
        status.streamId(-5);
        status.containerType(DataTypes.NO_DATA);
        int flags = StatusMsgFlags.HAS_STATE | StatusMsgFlags.HAS_MSG_KEY;
        if (null != groupId)
        {
            flags |= StatusMsgFlags.HAS_GROUP_ID;
            status.groupId(etaBuffer(groupId));
        }
        status.flags(flags);
        status.state().streamState(StreamStates.OPEN);
        status.state().dataState(DataStates.SUSPECT);
        status.state().code(StateCodes.NONE);
        status.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME);
        status.msgKey().serviceId(1);
        status.msgKey().name(etaBuffer("A.N"));
        return status;
    }
}
