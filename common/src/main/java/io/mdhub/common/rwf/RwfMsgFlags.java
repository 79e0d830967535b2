package io.mdhub.common.rwf;

/**
 * Per-class message flag bits and the order of the class-specific members that follow the containerType (facts
 * sheet §3.2). Members in [brackets] are present only when their flag is set.
 * <pre>
 *  REQUEST  [priority: class u8 + count u16ob] [qos] [worstQos] key(always) [extHdr]
 *  REFRESH  [seqNum] state groupId [permData] [qos] [key] [extHdr] [postUserInfo] [partNum]
 *  STATUS   [state] [groupId] [permData] [key] [extHdr] [postUserInfo]
 *  UPDATE   updateType u8 [seqNum] [conflation: count u15rb + time uint16] [permData] [key] [extHdr]
 *           [postUserInfo]
 *  CLOSE    [extHdr]
 *  ACK      ackId uint32 [nakCode u8] [text: u16ob + bytes] [seqNum] [key] [extHdr]
 *  GENERIC  [seqNum] [secondarySeqNum] [permData] [key] [extHdr] [partNum]
 *  POST     postUserInfo [seqNum] [postId] [permData] [key] [extHdr] [partNum] [postUserRights u15rb]
 *
 *  seqNum, ackId, postId, secondarySeqNum: uint32       groupId, extHdr: uint8 length + bytes
 *  permData: u15rb length + bytes                       key: u15rb length + key (see {@link RwfMsgKeyDescriptor})
 *  state: u8 (streamState &lt;&lt; 3 | dataState), u8 code, u15rb text length + text
 *  qos: u8 (timeliness &lt;&lt; 5 | rate &lt;&lt; 1 | dynamic)
 *       [uint16 timeInfo if timeliness 3] [uint16 rateInfo if rate 3]
 *  postUserInfo: uint32 address + uint32 user id        partNum, postUserRights: u15rb
 * </pre>
 */
public final class RwfMsgFlags
{
    /** Flag shared by every class: an extended header follows the key. */
    public static final int HAS_EXTENDED_HEADER = 0x0001;

    private RwfMsgFlags()
    {
    }

    /** RequestMsg flags. */
    public static final class Request
    {
        /** Priority class and count present. */
        public static final int HAS_PRIORITY = 0x0002;
        /** Streaming request (refresh then updates). */
        public static final int STREAMING = 0x0004;
        /** The key is wanted in every update. */
        public static final int MSG_KEY_IN_UPDATES = 0x0008;
        /** Conflation info is wanted in updates. */
        public static final int CONF_INFO_IN_UPDATES = 0x0010;
        /** No refresh wanted (reissue). */
        public static final int NO_REFRESH = 0x0020;
        /** Qos present. */
        public static final int HAS_QOS = 0x0040;
        /** Worst acceptable Qos present. */
        public static final int HAS_WORST_QOS = 0x0080;
        /** Private stream. */
        public static final int PRIVATE_STREAM = 0x0100;
        /** Pause the stream. */
        public static final int PAUSE = 0x0200;
        /** Payload carries a view. */
        public static final int HAS_VIEW = 0x0400;
        /** Payload carries a batch item list. */
        public static final int HAS_BATCH = 0x0800;
        /** Qualified stream. */
        public static final int QUALIFIED_STREAM = 0x1000;

        private Request()
        {
        }
    }

    /** RefreshMsg flags. */
    public static final class Refresh
    {
        /** Permission data present. */
        public static final int HAS_PERM_DATA = 0x0002;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0008;
        /** Sequence number present. */
        public static final int HAS_SEQ_NUM = 0x0010;
        /** Answer to a request (otherwise unsolicited). */
        public static final int SOLICITED = 0x0020;
        /** Last part of the refresh. */
        public static final int REFRESH_COMPLETE = 0x0040;
        /** Qos present. */
        public static final int HAS_QOS = 0x0080;
        /** Receiver clears its cache first. */
        public static final int CLEAR_CACHE = 0x0100;
        /** Do not cache. */
        public static final int DO_NOT_CACHE = 0x0200;
        /** Private stream. */
        public static final int PRIVATE_STREAM = 0x0400;
        /** Post user info present. */
        public static final int HAS_POST_USER_INFO = 0x0800;
        /** Part number present. */
        public static final int HAS_PART_NUM = 0x1000;
        /** Qualified stream. */
        public static final int QUALIFIED_STREAM = 0x4000;

        private Refresh()
        {
        }
    }

    /** StatusMsg flags. */
    public static final class Status
    {
        /** Permission data present. */
        public static final int HAS_PERM_DATA = 0x0002;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0008;
        /** Group id present. */
        public static final int HAS_GROUP_ID = 0x0010;
        /** State present. */
        public static final int HAS_STATE = 0x0020;
        /** Receiver clears its cache. */
        public static final int CLEAR_CACHE = 0x0040;
        /** Private stream. */
        public static final int PRIVATE_STREAM = 0x0080;
        /** Post user info present. */
        public static final int HAS_POST_USER_INFO = 0x0100;
        /** Qualified stream. */
        public static final int QUALIFIED_STREAM = 0x0400;

        private Status()
        {
        }
    }

    /** UpdateMsg flags. */
    public static final class Update
    {
        /** Permission data present. */
        public static final int HAS_PERM_DATA = 0x0002;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0008;
        /** Sequence number present. */
        public static final int HAS_SEQ_NUM = 0x0010;
        /** Conflation count and time present. */
        public static final int HAS_CONF_INFO = 0x0020;
        /** Do not cache. */
        public static final int DO_NOT_CACHE = 0x0040;
        /** Do not conflate. */
        public static final int DO_NOT_CONFLATE = 0x0080;
        /** Do not ripple fields. */
        public static final int DO_NOT_RIPPLE = 0x0100;
        /** Post user info present. */
        public static final int HAS_POST_USER_INFO = 0x0200;
        /** May be discarded. */
        public static final int DISCARDABLE = 0x0400;

        private Update()
        {
        }
    }

    /** CloseMsg flags. */
    public static final class Close
    {
        /** The closer wants an AckMsg. */
        public static final int ACK = 0x0002;

        private Close()
        {
        }
    }

    /** AckMsg flags. */
    public static final class Ack
    {
        /** Text present. */
        public static final int HAS_TEXT = 0x0002;
        /** Private stream. */
        public static final int PRIVATE_STREAM = 0x0004;
        /** Sequence number present. */
        public static final int HAS_SEQ_NUM = 0x0008;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0010;
        /** NAK code present (a negative acknowledgement). */
        public static final int HAS_NAK_CODE = 0x0020;
        /** Qualified stream. */
        public static final int QUALIFIED_STREAM = 0x0040;

        private Ack()
        {
        }
    }

    /** GenericMsg flags. */
    public static final class Generic
    {
        /** Permission data present. */
        public static final int HAS_PERM_DATA = 0x0002;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0004;
        /** Sequence number present. */
        public static final int HAS_SEQ_NUM = 0x0008;
        /** Last part of the message. */
        public static final int MESSAGE_COMPLETE = 0x0010;
        /** Secondary sequence number present. */
        public static final int HAS_SECONDARY_SEQ_NUM = 0x0020;
        /** Part number present. */
        public static final int HAS_PART_NUM = 0x0040;
        /** Sent by the provider side. */
        public static final int PROVIDER_DRIVEN = 0x4000;

        private Generic()
        {
        }
    }

    /** PostMsg flags. */
    public static final class Post
    {
        /** Post id present. */
        public static final int HAS_POST_ID = 0x0002;
        /** Message key present. */
        public static final int HAS_MSG_KEY = 0x0004;
        /** Sequence number present. */
        public static final int HAS_SEQ_NUM = 0x0008;
        /** Last part of the post. */
        public static final int POST_COMPLETE = 0x0020;
        /** The poster wants an AckMsg. */
        public static final int ACK = 0x0040;
        /** Permission data present. */
        public static final int HAS_PERM_DATA = 0x0080;
        /** Part number present. */
        public static final int HAS_PART_NUM = 0x0100;
        /** Post user rights present. */
        public static final int HAS_POST_USER_RIGHTS = 0x0200;

        private Post()
        {
        }
    }
}
