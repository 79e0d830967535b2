package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.etaBuffer;
import static io.mdhub.common.rwf.RwfTestSupport.hex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.AckMsgFlags;
import com.refinitiv.eta.codec.CloseMsgFlags;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.GenericMsgFlags;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKey;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.PostMsgFlags;
import com.refinitiv.eta.codec.Qos;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.State;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;

/**
 * Builds ETA messages of every class with every combination of the optional header members, so the flyweight can be
 * checked against ETA's own encoder and decoder.
 */
final class EtaMsgVariants
{
    static final byte[] FIELD_LIST = hex("08 00 02 00 16 03 0c 30 39 00 b2 02 0e 64");
    static final byte[] ELEMENT_LIST_ATTRIB = hex("08 00 01 01 4e 04 01 05");
    private static final int KEY_SHAPES = 7;

    private EtaMsgVariants()
    {
    }

    /** One variant: a description for failure messages and the ETA message. */
    record Variant(String description, Msg msg)
    {
    }

    static List<Variant> all()
    {
        final List<Variant> variants = new ArrayList<>();
        addAll(variants, MsgClasses.REQUEST, 6);
        addAll(variants, MsgClasses.REFRESH, 9);
        addAll(variants, MsgClasses.STATUS, 7);
        addAll(variants, MsgClasses.UPDATE, 7);
        addAll(variants, MsgClasses.CLOSE, 3);
        addAll(variants, MsgClasses.ACK, 7);
        addAll(variants, MsgClasses.GENERIC, 8);
        addAll(variants, MsgClasses.POST, 9);
        return variants;
    }

    private static void addAll(final List<Variant> variants, final int msgClass, final int optionBits)
    {
        for (int mask = 0; mask < (1 << optionBits); mask++)
        {
            variants.add(new Variant(
                "class " + msgClass + " options 0x" + Integer.toHexString(mask), build(msgClass, mask)));
        }
    }

    static Msg build(final int msgClass, final int mask)
    {
        final Msg msg = CodecFactory.createMsg();
        msg.msgClass(msgClass);
        msg.domainType(0 == (mask & 1) ? 6 : 127);
        msg.streamId(0 == (mask & 2) ? 5 : -7);
        final boolean payload = 0 != (mask & 4);
        msg.containerType(payload ? DataTypes.FIELD_LIST : DataTypes.NO_DATA);
        if (payload)
        {
            msg.encodedDataBody(etaBuffer(FIELD_LIST));
        }
        final int options = mask >>> 3;
        final int keyShape = mask % KEY_SHAPES;
        switch (msgClass)
        {
            case MsgClasses.REQUEST:
                request((RequestMsg)msg, options, keyShape);
                break;
            case MsgClasses.REFRESH:
                refresh((RefreshMsg)msg, options, keyShape);
                break;
            case MsgClasses.STATUS:
                status((StatusMsg)msg, options, keyShape);
                break;
            case MsgClasses.UPDATE:
                update((UpdateMsg)msg, options, keyShape);
                break;
            case MsgClasses.CLOSE:
                msg.flags(0 != (mask & 1) ? CloseMsgFlags.ACK : 0);
                break;
            case MsgClasses.ACK:
                ack((AckMsg)msg, options, keyShape);
                break;
            case MsgClasses.GENERIC:
                generic((GenericMsg)msg, options, keyShape);
                break;
            case MsgClasses.POST:
                post((PostMsg)msg, options, keyShape);
                break;
            default:
                throw new IllegalArgumentException("class " + msgClass);
        }
        if (0 != (mask & 2))
        {
            msg.flags(msg.flags() | 1);
            msg.extendedHeader(etaBuffer(hex("45 48 58")));
        }
        return msg;
    }

    private static boolean bit(final int options, final int bit)
    {
        return 0 != (options & (1 << bit));
    }

    private static void request(final RequestMsg msg, final int options, final int keyShape)
    {
        int flags = RequestMsgFlags.STREAMING;
        if (bit(options, 0))
        {
            flags |= RequestMsgFlags.HAS_PRIORITY;
            msg.flags(flags);
            msg.priority().priorityClass(2);
            msg.priority().count(bit(options, 2) ? 300 : 1);
        }
        if (bit(options, 1))
        {
            flags |= RequestMsgFlags.HAS_QOS;
            msg.flags(flags);
            qos(msg.qos(), bit(options, 2));
        }
        if (bit(options, 2))
        {
            flags |= RequestMsgFlags.HAS_WORST_QOS;
            msg.flags(flags);
            qos(msg.worstQos(), !bit(options, 1));
        }
        msg.flags(flags);
        key(msg.msgKey(), keyShape);
    }

    private static void refresh(final RefreshMsg msg, final int options, final int keyShape)
    {
        int flags = RefreshMsgFlags.SOLICITED | RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE;
        if (bit(options, 0))
        {
            flags |= RefreshMsgFlags.HAS_SEQ_NUM;
            msg.flags(flags);
            msg.seqNum(0xFFFF_FFFEL);
        }
        if (bit(options, 1))
        {
            flags |= RefreshMsgFlags.HAS_PERM_DATA;
            msg.flags(flags);
            msg.permData(etaBuffer(new byte[bit(options, 5) ? 200 : 3]));
        }
        if (bit(options, 2))
        {
            flags |= RefreshMsgFlags.HAS_QOS;
            msg.flags(flags);
            qos(msg.qos(), bit(options, 3));
        }
        if (bit(options, 3))
        {
            flags |= RefreshMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        if (bit(options, 4))
        {
            flags |= RefreshMsgFlags.HAS_POST_USER_INFO;
            msg.flags(flags);
            msg.postUserInfo().userAddr(0x7F000001L);
            msg.postUserInfo().userId(0xFFFF_FFF0L);
        }
        if (bit(options, 5))
        {
            flags |= RefreshMsgFlags.HAS_PART_NUM;
            msg.flags(flags);
            msg.partNum(bit(options, 0) ? 300 : 2);
        }
        msg.flags(flags);
        state(msg.state(), options);
        msg.groupId(etaBuffer(bit(options, 1) ? hex("00 01 00 02") : hex("00 00")));
    }

    private static void status(final StatusMsg msg, final int options, final int keyShape)
    {
        int flags = 0;
        if (bit(options, 0))
        {
            flags |= StatusMsgFlags.HAS_STATE;
            msg.flags(flags);
            state(msg.state(), options);
        }
        if (bit(options, 1))
        {
            flags |= StatusMsgFlags.HAS_GROUP_ID;
            msg.flags(flags);
            msg.groupId(etaBuffer(hex("00 07")));
        }
        if (bit(options, 2))
        {
            flags |= StatusMsgFlags.HAS_PERM_DATA;
            msg.flags(flags);
            msg.permData(etaBuffer(hex("03 01 02 c0")));
        }
        if (bit(options, 3))
        {
            flags |= StatusMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        if (bit(options, 0) && bit(options, 1))
        {
            flags |= StatusMsgFlags.HAS_POST_USER_INFO;
            msg.flags(flags);
            msg.postUserInfo().userAddr(1);
            msg.postUserInfo().userId(2);
        }
        msg.flags(flags);
    }

    private static void update(final UpdateMsg msg, final int options, final int keyShape)
    {
        int flags = 0;
        msg.updateType(options % 12);
        if (bit(options, 0))
        {
            flags |= UpdateMsgFlags.HAS_SEQ_NUM;
            msg.flags(flags);
            msg.seqNum(17);
        }
        if (bit(options, 1))
        {
            flags |= UpdateMsgFlags.HAS_CONF_INFO;
            msg.flags(flags);
            msg.conflationCount(bit(options, 2) ? 200 : 3);
            msg.conflationTime(1000);
        }
        if (bit(options, 2))
        {
            flags |= UpdateMsgFlags.HAS_PERM_DATA;
            msg.flags(flags);
            msg.permData(etaBuffer(hex("03 01 02 c0")));
        }
        if (bit(options, 3))
        {
            flags |= UpdateMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        if (bit(options, 0) && bit(options, 3))
        {
            flags |= UpdateMsgFlags.HAS_POST_USER_INFO;
            msg.flags(flags);
            msg.postUserInfo().userAddr(0xC0A80001L);
            msg.postUserInfo().userId(9);
        }
        msg.flags(flags | UpdateMsgFlags.DO_NOT_RIPPLE);
    }

    private static void ack(final AckMsg msg, final int options, final int keyShape)
    {
        int flags = 0;
        msg.ackId(bit(options, 3) ? 0xFFFF_FFFEL : 7);
        if (bit(options, 0))
        {
            flags |= AckMsgFlags.HAS_NAK_CODE;
            msg.flags(flags);
            msg.nakCode(12);
        }
        if (bit(options, 1))
        {
            flags |= AckMsgFlags.HAS_TEXT;
            msg.flags(flags);
            final byte[] text = new byte[bit(options, 2) ? 300 : 2];
            Arrays.fill(text, (byte)'a');
            msg.text(etaBuffer(text));
        }
        if (bit(options, 2))
        {
            flags |= AckMsgFlags.HAS_SEQ_NUM;
            msg.flags(flags);
            msg.seqNum(7);
        }
        if (bit(options, 3))
        {
            flags |= AckMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        msg.flags(flags);
    }

    private static void generic(final GenericMsg msg, final int options, final int keyShape)
    {
        int flags = GenericMsgFlags.MESSAGE_COMPLETE;
        if (bit(options, 0))
        {
            flags |= GenericMsgFlags.HAS_SEQ_NUM;
            msg.flags(flags);
            msg.seqNum(1);
        }
        if (bit(options, 1))
        {
            flags |= GenericMsgFlags.HAS_SECONDARY_SEQ_NUM;
            msg.flags(flags);
            msg.secondarySeqNum(2);
        }
        if (bit(options, 2))
        {
            flags |= GenericMsgFlags.HAS_PERM_DATA;
            msg.flags(flags);
            msg.permData(etaBuffer(hex("50 44")));
        }
        if (bit(options, 3))
        {
            flags |= GenericMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        if (bit(options, 4))
        {
            flags |= GenericMsgFlags.HAS_PART_NUM | GenericMsgFlags.PROVIDER_DRIVEN;
            msg.flags(flags);
            msg.partNum(bit(options, 0) ? 1000 : 3);
        }
        msg.flags(flags);
    }

    private static void post(final PostMsg msg, final int options, final int keyShape)
    {
        int flags = PostMsgFlags.POST_COMPLETE;
        msg.postUserInfo().userAddr(0xAABBCCDDL);
        msg.postUserInfo().userId(0x11);
        if (bit(options, 0))
        {
            flags |= PostMsgFlags.HAS_SEQ_NUM;
            msg.flags(flags);
            msg.seqNum(1);
        }
        if (bit(options, 1))
        {
            flags |= PostMsgFlags.HAS_POST_ID | PostMsgFlags.ACK;
            msg.flags(flags);
            msg.postId(0x8000_0001L);
        }
        if (bit(options, 2))
        {
            flags |= PostMsgFlags.HAS_PERM_DATA;
            msg.flags(flags);
            msg.permData(etaBuffer(hex("50 44")));
        }
        if (bit(options, 3))
        {
            flags |= PostMsgFlags.HAS_MSG_KEY;
            msg.flags(flags);
            key(msg.msgKey(), keyShape);
        }
        if (bit(options, 4))
        {
            flags |= PostMsgFlags.HAS_PART_NUM;
            msg.flags(flags);
            msg.partNum(bit(options, 5) ? 129 : 3);
        }
        if (bit(options, 5))
        {
            flags |= PostMsgFlags.HAS_POST_USER_RIGHTS;
            msg.flags(flags);
            msg.postUserRights(bit(options, 0) ? 7 : 1);
        }
        msg.flags(flags);
    }

    private static void qos(final Qos qos, final boolean delayedConflated)
    {
        if (delayedConflated)
        {
            qos.timeliness(QosTimeliness.DELAYED);
            qos.timeInfo(500);
            qos.rate(QosRates.TIME_CONFLATED);
            qos.rateInfo(1000);
        }
        else
        {
            qos.timeliness(QosTimeliness.REALTIME);
            qos.rate(QosRates.TICK_BY_TICK);
            qos.dynamic(true);
        }
    }

    private static void state(final State state, final int options)
    {
        state.streamState(bit(options, 1) ? StreamStates.CLOSED_RECOVER : StreamStates.OPEN);
        state.dataState(bit(options, 2) ? DataStates.SUSPECT : DataStates.OK);
        state.code(bit(options, 3) ? StateCodes.NOT_ENTITLED : StateCodes.NONE);
        final byte[] text = new byte[bit(options, 4) ? 200 : 5];
        Arrays.fill(text, (byte)'t');
        state.text(etaBuffer(text));
    }

    static void key(final MsgKey key, final int shape)
    {
        switch (shape)
        {
            case 0:
                key.flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
                key.serviceId(1);
                key.name(etaBuffer("TRI.N"));
                key.nameType(1);
                break;
            case 1:
                key.flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME);
                key.serviceId(300);
                key.name(etaBuffer("A_LONGER_NAME.L"));
                break;
            case 2:
                key.flags(MsgKeyFlags.HAS_NAME);
                key.name(etaBuffer("X"));
                break;
            case 3:
                key.flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE
                    | MsgKeyFlags.HAS_FILTER | MsgKeyFlags.HAS_IDENTIFIER | MsgKeyFlags.HAS_ATTRIB);
                key.serviceId(65535);
                key.name(etaBuffer(new byte[255]));
                key.nameType(3);
                key.filter(0xFFFF_FFFFL);
                key.identifier(-5);
                key.attribContainerType(DataTypes.ELEMENT_LIST);
                key.encodedAttrib(etaBuffer(ELEMENT_LIST_ATTRIB));
                break;
            case 4:
                key.flags(MsgKeyFlags.HAS_FILTER);
                key.filter(7);
                break;
            case 5:
                key.flags(MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE | MsgKeyFlags.HAS_ATTRIB);
                key.name(etaBuffer("labuser"));
                key.nameType(1);
                key.attribContainerType(DataTypes.ELEMENT_LIST);
                key.encodedAttrib(etaBuffer(ELEMENT_LIST_ATTRIB));
                break;
            default:
                key.flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_IDENTIFIER);
                key.serviceId(253);
                key.identifier(42);
                break;
        }
    }
}
