package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.bytes;
import static io.mdhub.common.rwf.RwfTestSupport.decode;
import static io.mdhub.common.rwf.RwfTestSupport.encode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.AckMsgFlags;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.GenericMsgFlags;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKey;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.PostMsgFlags;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.State;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;

import io.mdhub.common.test.InterruptAfter;

/**
 * Every message class, with every combination of optional header members, encoded by ETA: the flyweight must read
 * what ETA's decoder reads, and after a streamId rewrite ETA must decode the new id with everything else unchanged.
 */
@InterruptAfter(30)
class RwfMsgFlyweightEtaTest
{
    private static final int[] NEW_STREAM_IDS = {1, -1, -2, 0x7FFF_FFFF, Integer.MIN_VALUE, 300, 0};

    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();

    @Test
    void readsEveryClassAndOptionCombinationLikeEta()
    {
        final List<EtaMsgVariants.Variant> variants = EtaMsgVariants.all();
        assertTrue(variants.size() > 1500, "variants: " + variants.size());
        for (final EtaMsgVariants.Variant variant : variants)
        {
            final byte[] encoded = encode(variant.msg());
            final Msg expected = decode(encoded);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoded.length + 16]);
            buffer.putBytes(7, encoded);
            assertTrue(flyweight.wrap(buffer, 7, encoded.length),
                () -> variant.description() + ": " + flyweight.errorReason());
            assertMatches(variant.description(), expected, flyweight);
        }
    }

    @Test
    void streamIdRewriteKeepsEverythingElseForEtaDecoder()
    {
        for (final EtaMsgVariants.Variant variant : EtaMsgVariants.all())
        {
            final byte[] encoded = encode(variant.msg());
            final Msg original = decode(encoded);
            for (final int newStreamId : NEW_STREAM_IDS)
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(encoded.clone());
                assertTrue(flyweight.wrap(buffer, 0, encoded.length), variant.description());
                flyweight.streamId(newStreamId);
                assertEquals(newStreamId, flyweight.streamId());

                final byte[] rewritten = buffer.byteArray();
                final Msg decoded = decode(rewritten);
                final String what = variant.description() + " -> " + newStreamId;
                assertEquals(newStreamId, decoded.streamId(), what);
                assertEquals(original.msgClass(), decoded.msgClass(), what);
                assertEquals(original.domainType(), decoded.domainType(), what);
                assertEquals(original.flags(), decoded.flags(), what);
                assertEquals(original.containerType(), decoded.containerType(), what);
                assertArrayEquals(bytes(original.encodedDataBody()), bytes(decoded.encodedDataBody()), what);
                assertArrayEquals(
                    Arrays.copyOfRange(encoded, 8, encoded.length), Arrays.copyOfRange(rewritten, 8, encoded.length));
                assertArrayEquals(Arrays.copyOfRange(encoded, 0, 4), Arrays.copyOfRange(rewritten, 0, 4));
                assertMatches(what, decoded, flyweight);
            }
        }
    }

    @Test
    void flagConstantsMatchEta()
    {
        assertEquals(RefreshMsgFlags.HAS_PART_NUM, RwfMsgFlags.Refresh.HAS_PART_NUM);
        assertEquals(RefreshMsgFlags.SOLICITED, RwfMsgFlags.Refresh.SOLICITED);
        assertEquals(StatusMsgFlags.HAS_POST_USER_INFO, RwfMsgFlags.Status.HAS_POST_USER_INFO);
        assertEquals(UpdateMsgFlags.DISCARDABLE, RwfMsgFlags.Update.DISCARDABLE);
        assertEquals(AckMsgFlags.HAS_NAK_CODE, RwfMsgFlags.Ack.HAS_NAK_CODE);
        assertEquals(GenericMsgFlags.PROVIDER_DRIVEN, RwfMsgFlags.Generic.PROVIDER_DRIVEN);
        assertEquals(PostMsgFlags.HAS_POST_USER_RIGHTS, RwfMsgFlags.Post.HAS_POST_USER_RIGHTS);
        assertEquals(MsgKeyFlags.HAS_ATTRIB, RwfMsgKeyDescriptor.HAS_ATTRIB);
        assertEquals(MsgClasses.POST, RwfMsgDescriptor.POST);
    }

    static void assertMatches(final String what, final Msg expected, final RwfMsgFlyweight actual)
    {
        assertEquals(expected.msgClass(), actual.msgClass(), what);
        assertEquals(expected.domainType(), actual.domainType(), what);
        assertEquals(expected.streamId(), actual.streamId(), what);
        assertEquals(expected.flags(), actual.flags(), what);
        assertEquals(expected.containerType(), actual.containerType(), what);
        final byte[] payload = new byte[actual.payloadLength()];
        actual.buffer().getBytes(actual.payloadOffset(), payload);
        assertArrayEquals(bytes(expected.encodedDataBody()), payload, what);

        assertEquals(expectsKey(expected), actual.hasMsgKey(), what);
        if (actual.hasMsgKey())
        {
            assertKeyMatches(what, expected.msgKey(), actual.key(), actual.buffer());
        }
        assertStateMatches(what, expected, actual);
        assertGroupIdMatches(what, expected, actual);
        assertEquals(MsgClasses.UPDATE == expected.msgClass() && expected instanceof UpdateMsg
            ? ((UpdateMsg)expected).updateType() : -1, actual.updateType(),
            what);
        assertEquals(expectedSeqNum(expected), actual.seqNum(), what);
        assertEquals(expectedPartNum(expected), actual.partNum(), what);
        assertPostUserInfo(what, expected, actual);
        if (MsgClasses.ACK == expected.msgClass() && expected instanceof AckMsg ack)
        {
            assertEquals(ack.ackId(), actual.ackId(), what);
            assertEquals(0 != (ack.flags() & AckMsgFlags.HAS_NAK_CODE) ? ack.nakCode() : -1, actual.nakCode(), what);
        }
        else
        {
            assertEquals(-1, actual.ackId(), what);
            assertEquals(-1, actual.nakCode(), what);
        }
        if (MsgClasses.POST == expected.msgClass() && expected instanceof PostMsg post
            && 0 != (post.flags() & PostMsgFlags.HAS_POST_ID))
        {
            assertEquals(post.postId(), actual.postId(), what);
        }
        else
        {
            assertEquals(-1, actual.postId(), what);
        }
    }

    private static boolean expectsKey(final Msg msg)
    {
        final int flags = msg.flags();
        switch (msg.msgClass())
        {
            case MsgClasses.REQUEST:
                return true;
            case MsgClasses.REFRESH:
                return 0 != (flags & RefreshMsgFlags.HAS_MSG_KEY);
            case MsgClasses.STATUS:
                return 0 != (flags & StatusMsgFlags.HAS_MSG_KEY);
            case MsgClasses.UPDATE:
                return 0 != (flags & UpdateMsgFlags.HAS_MSG_KEY);
            case MsgClasses.ACK:
                return 0 != (flags & AckMsgFlags.HAS_MSG_KEY);
            case MsgClasses.GENERIC:
                return 0 != (flags & GenericMsgFlags.HAS_MSG_KEY);
            case MsgClasses.POST:
                return 0 != (flags & PostMsgFlags.HAS_MSG_KEY);
            default:
                return false;
        }
    }

    static void assertKeyMatches(
        final String what, final MsgKey expected, final RwfMsgKeyFlyweight key, final DirectBuffer source)
    {
        assertEquals(expected.flags(), key.flags(), what);
        assertEquals(0 != (expected.flags() & MsgKeyFlags.HAS_SERVICE_ID) ? expected.serviceId() : -1,
            key.serviceId(), what);
        if (0 != (expected.flags() & MsgKeyFlags.HAS_NAME))
        {
            final byte[] name = bytes(expected.name());
            assertTrue(key.nameEquals(name), what);
            assertTrue(key.nameEquals(new UnsafeBuffer(name), 0, name.length), what);
            final byte[] copy = new byte[name.length + 1];
            assertEquals(name.length, key.getName(copy, 1), what);
            assertArrayEquals(name, Arrays.copyOfRange(copy, 1, copy.length), what);
            final byte[] other = name.clone();
            if (other.length > 0)
            {
                other[other.length - 1]++;
                assertFalse(key.nameEquals(other), what);
            }
            assertFalse(key.nameEquals(Arrays.copyOf(name, name.length + 1)), what);
        }
        else
        {
            assertFalse(key.hasName(), what);
            assertFalse(key.nameEquals(new byte[0]), what);
        }
        assertEquals(0 != (expected.flags() & MsgKeyFlags.HAS_NAME_TYPE) ? expected.nameType() : -1,
            key.nameType(), what);
        assertEquals(0 != (expected.flags() & MsgKeyFlags.HAS_FILTER) ? expected.filter() : -1, key.filter(), what);
        assertEquals(0 != (expected.flags() & MsgKeyFlags.HAS_IDENTIFIER) ? expected.identifier() : 0,
            key.identifier(), what);
        assertEquals(0 != (expected.flags() & MsgKeyFlags.HAS_ATTRIB), key.hasAttrib(), what);
        if (key.hasAttrib())
        {
            assertEquals(expected.attribContainerType(), key.attribContainerType(), what);
            final byte[] attrib = new byte[key.attribLength()];
            source.getBytes(key.attribOffset(), attrib);
            assertArrayEquals(bytes(expected.encodedAttrib()), attrib, what);
        }
    }

    private static void assertStateMatches(final String what, final Msg expected, final RwfMsgFlyweight actual)
    {
        State state = null;
        if (MsgClasses.REFRESH == expected.msgClass() && expected instanceof RefreshMsg refresh)
        {
            state = refresh.state();
        }
        else if (MsgClasses.STATUS == expected.msgClass() && expected instanceof StatusMsg status
            && 0 != (status.flags() & StatusMsgFlags.HAS_STATE))
        {
            state = status.state();
        }
        assertEquals(null != state, actual.hasState(), what);
        if (null != state)
        {
            assertEquals(state.streamState(), actual.streamState(), what);
            assertEquals(state.dataState(), actual.dataState(), what);
            assertEquals(state.code(), actual.stateCode(), what);
            final byte[] text = new byte[actual.stateTextLength()];
            actual.buffer().getBytes(actual.stateTextOffset(), text);
            assertArrayEquals(bytes(state.text()), text, what);
        }
        else
        {
            assertEquals(-1, actual.streamState(), what);
            assertEquals(-1, actual.stateCode(), what);
        }
    }

    private static void assertGroupIdMatches(final String what, final Msg expected, final RwfMsgFlyweight actual)
    {
        byte[] groupId = null;
        if (MsgClasses.REFRESH == expected.msgClass() && expected instanceof RefreshMsg refresh)
        {
            groupId = bytes(refresh.groupId());
        }
        else if (MsgClasses.STATUS == expected.msgClass() && expected instanceof StatusMsg status
            && 0 != (status.flags() & StatusMsgFlags.HAS_GROUP_ID))
        {
            groupId = bytes(status.groupId());
        }
        assertEquals(null != groupId, actual.hasGroupId(), what);
        if (null != groupId)
        {
            final byte[] read = new byte[actual.groupIdLength()];
            actual.buffer().getBytes(actual.groupIdOffset(), read);
            assertArrayEquals(groupId, read, what);
            assertTrue(actual.groupIdEquals(new UnsafeBuffer(groupId), 0, groupId.length), what);
        }
        else
        {
            assertEquals(-1, actual.groupIdOffset(), what);
            assertEquals(0, actual.groupIdLength(), what);
        }
    }

    private static long expectedSeqNum(final Msg msg)
    {
        final int flags = msg.flags();
        if (MsgClasses.REFRESH == msg.msgClass() && msg instanceof RefreshMsg m
            && 0 != (flags & RefreshMsgFlags.HAS_SEQ_NUM))
        {
            return m.seqNum();
        }
        if (MsgClasses.UPDATE == msg.msgClass() && msg instanceof UpdateMsg m
            && 0 != (flags & UpdateMsgFlags.HAS_SEQ_NUM))
        {
            return m.seqNum();
        }
        if (MsgClasses.ACK == msg.msgClass() && msg instanceof AckMsg m && 0 != (flags & AckMsgFlags.HAS_SEQ_NUM))
        {
            return m.seqNum();
        }
        if (MsgClasses.GENERIC == msg.msgClass() && msg instanceof GenericMsg m
            && 0 != (flags & GenericMsgFlags.HAS_SEQ_NUM))
        {
            return m.seqNum();
        }
        if (MsgClasses.POST == msg.msgClass() && msg instanceof PostMsg m && 0 != (flags & PostMsgFlags.HAS_SEQ_NUM))
        {
            return m.seqNum();
        }
        return -1;
    }

    private static int expectedPartNum(final Msg msg)
    {
        final int flags = msg.flags();
        if (MsgClasses.REFRESH == msg.msgClass() && msg instanceof RefreshMsg m
            && 0 != (flags & RefreshMsgFlags.HAS_PART_NUM))
        {
            return m.partNum();
        }
        if (MsgClasses.GENERIC == msg.msgClass() && msg instanceof GenericMsg m
            && 0 != (flags & GenericMsgFlags.HAS_PART_NUM))
        {
            return m.partNum();
        }
        if (MsgClasses.POST == msg.msgClass() && msg instanceof PostMsg m && 0 != (flags & PostMsgFlags.HAS_PART_NUM))
        {
            return m.partNum();
        }
        return -1;
    }

    private static void assertPostUserInfo(final String what, final Msg msg, final RwfMsgFlyweight actual)
    {
        final int flags = msg.flags();
        com.refinitiv.eta.codec.PostUserInfo info = null;
        if (MsgClasses.REFRESH == msg.msgClass() && msg instanceof RefreshMsg m
            && 0 != (flags & RefreshMsgFlags.HAS_POST_USER_INFO))
        {
            info = m.postUserInfo();
        }
        else if (MsgClasses.STATUS == msg.msgClass() && msg instanceof StatusMsg m
            && 0 != (flags & StatusMsgFlags.HAS_POST_USER_INFO))
        {
            info = m.postUserInfo();
        }
        else if (MsgClasses.UPDATE == msg.msgClass() && msg instanceof UpdateMsg m
            && 0 != (flags & UpdateMsgFlags.HAS_POST_USER_INFO))
        {
            info = m.postUserInfo();
        }
        else if (MsgClasses.POST == msg.msgClass() && msg instanceof PostMsg m)
        {
            info = m.postUserInfo();
        }
        assertEquals(null != info, actual.hasPostUserInfo(), what);
        if (null != info)
        {
            assertEquals(info.userAddr(), actual.postUserAddress(), what);
            assertEquals(info.userId(), actual.postUserId(), what);
        }
    }
}
