package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfMsgDescriptor.ACK;
import static io.mdhub.common.rwf.RwfMsgDescriptor.BYTE_ORDER;
import static io.mdhub.common.rwf.RwfMsgDescriptor.CLOSE;
import static io.mdhub.common.rwf.RwfMsgDescriptor.CONTAINER_TYPE_BASE;
import static io.mdhub.common.rwf.RwfMsgDescriptor.DOMAIN_TYPE_OFFSET;
import static io.mdhub.common.rwf.RwfMsgDescriptor.FLAGS_OFFSET;
import static io.mdhub.common.rwf.RwfMsgDescriptor.GENERIC;
import static io.mdhub.common.rwf.RwfMsgDescriptor.HEADER_LENGTH_FIELD_SIZE;
import static io.mdhub.common.rwf.RwfMsgDescriptor.HEADER_LENGTH_OFFSET;
import static io.mdhub.common.rwf.RwfMsgDescriptor.MIN_HEADER_LENGTH;
import static io.mdhub.common.rwf.RwfMsgDescriptor.MIN_MESSAGE_LENGTH;
import static io.mdhub.common.rwf.RwfMsgDescriptor.MSG_CLASS_OFFSET;
import static io.mdhub.common.rwf.RwfMsgDescriptor.POST;
import static io.mdhub.common.rwf.RwfMsgDescriptor.REFRESH;
import static io.mdhub.common.rwf.RwfMsgDescriptor.REQUEST;
import static io.mdhub.common.rwf.RwfMsgDescriptor.STATUS;
import static io.mdhub.common.rwf.RwfMsgDescriptor.STREAM_ID_OFFSET;
import static io.mdhub.common.rwf.RwfMsgDescriptor.UPDATE;
import static io.mdhub.common.rwf.RwfMsgFlags.HAS_EXTENDED_HEADER;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Reads the header of one RWF message in place: what routing and fan-out need, for all eight message classes, and
 * rewrites the streamId. Layouts: {@link RwfMsgDescriptor}, {@link RwfMsgFlags}, {@link RwfMsgKeyDescriptor}.
 * <p>
 * {@link #wrap(DirectBuffer, int, int)} walks the class-specific members once, checks that every member lies inside
 * the header and the header inside the message, and records where the interesting ones are. It never throws on bad
 * input and never reads outside [offset, offset + length): it returns false and {@link #error()} says why, so the
 * connection owner can count, log and disconnect. The accessors are valid only after a successful wrap. Nothing
 * here allocates. One instance per thread; reuse it for every message. The bounds-checked step over each member is
 * its package-private base class {@code RwfHeaderCursor}.
 */
public final class RwfMsgFlyweight extends RwfHeaderCursor
{
    private static final int ABSENT = -1;
    private static final int UINT32_SIZE = 4;
    private static final int POST_USER_INFO_SIZE = 8;

    private final RwfMsgKeyFlyweight key = new RwfMsgKeyFlyweight();

    private MutableDirectBuffer mutableBuffer;
    private int offset;
    private int length;
    private int msgClass;
    private int domainType;
    private int containerType;
    private boolean hasKey;
    private int seqNumOffset;
    private int stateOffset;
    private int stateTextOffset;
    private int stateTextLength;
    private int groupIdOffset;
    private int groupIdLength;
    private int permDataOffset;
    private int permDataLength;
    private int updateType;
    private int partNum;
    private int postUserInfoOffset;
    private int ackIdOffset;
    private int nakCode;
    private int postIdOffset;

    /**
     * Read the message at [offset, offset + length) of buffer.
     *
     * @param buffer holding the message; if it is a {@link MutableDirectBuffer}, {@link #streamId(int)} can rewrite.
     * @param offset of the first byte of the RWF message (its header length field).
     * @param length of the RWF message, from the transport (RWF has no length of its own).
     * @return true if the header is well formed; otherwise {@link #error()} says why.
     */
    public boolean wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer)buffer : null;
        this.offset = offset;
        this.length = length;
        reset();

        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return fail(RwfError.OUTSIDE_BUFFER);
        }
        if (length < MIN_MESSAGE_LENGTH)
        {
            return fail(RwfError.TRUNCATED_HEADER);
        }
        final int headerLength = buffer.getShort(offset + HEADER_LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (headerLength < MIN_HEADER_LENGTH)
        {
            return fail(RwfError.HEADER_LENGTH_TOO_SHORT);
        }
        if (HEADER_LENGTH_FIELD_SIZE + headerLength > length)
        {
            return fail(RwfError.HEADER_LENGTH_OVERRUN);
        }
        headerEnd = offset + HEADER_LENGTH_FIELD_SIZE + headerLength;
        msgClass = buffer.getByte(offset + MSG_CLASS_OFFSET) & 0xFF;
        domainType = buffer.getByte(offset + DOMAIN_TYPE_OFFSET) & 0xFF;
        cursor = offset + FLAGS_OFFSET;
        final int flagsWidth = RwfPrimitives.u15rbWidth(buffer, cursor);
        if (!need(flagsWidth + 1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        flags = RwfPrimitives.u15rb(buffer, cursor);
        cursor += flagsWidth;
        containerType = (buffer.getByte(cursor) & 0xFF) + CONTAINER_TYPE_BASE;
        cursor++;

        final boolean ok;
        switch (msgClass)
        {
            case REQUEST:
                ok = wrapRequest();
                break;
            case REFRESH:
                ok = wrapRefresh();
                break;
            case STATUS:
                ok = wrapStatus();
                break;
            case UPDATE:
                ok = wrapUpdate();
                break;
            case CLOSE:
                ok = optional(HAS_EXTENDED_HEADER) ? skipBuf8() : true;
                break;
            case ACK:
                ok = wrapAck();
                break;
            case GENERIC:
                ok = wrapGeneric();
                break;
            case POST:
                ok = wrapPost();
                break;
            default:
                return fail(RwfError.UNKNOWN_MSG_CLASS);
        }
        if (ok)
        {
            error = RwfError.NONE;
        }
        return ok;
    }

    private void reset()
    {
        hasKey = false;
        seqNumOffset = ABSENT;
        stateOffset = ABSENT;
        stateTextOffset = ABSENT;
        stateTextLength = 0;
        groupIdOffset = ABSENT;
        groupIdLength = 0;
        permDataOffset = ABSENT;
        permDataLength = 0;
        updateType = ABSENT;
        partNum = ABSENT;
        postUserInfoOffset = ABSENT;
        ackIdOffset = ABSENT;
        nakCode = ABSENT;
        postIdOffset = ABSENT;
        msgClass = ABSENT;
        domainType = ABSENT;
        flags = 0;
        containerType = ABSENT;
    }

    private boolean wrapRequest()
    {
        final int requestFlags = flags;
        if (0 != (requestFlags & RwfMsgFlags.Request.HAS_PRIORITY) && !(skipFixed(1) && skipU16ob()))
        {
            return false;
        }
        if (0 != (requestFlags & RwfMsgFlags.Request.HAS_QOS) && !skipQos())
        {
            return false;
        }
        if (0 != (requestFlags & RwfMsgFlags.Request.HAS_WORST_QOS) && !skipQos())
        {
            return false;
        }
        if (cursor >= headerEnd)
        {
            return fail(RwfError.MISSING_MSG_KEY);
        }
        return readKey() && (!optional(HAS_EXTENDED_HEADER) || skipBuf8());
    }

    private boolean wrapRefresh()
    {
        if (optional(RwfMsgFlags.Refresh.HAS_SEQ_NUM) && !readSeqNum())
        {
            return false;
        }
        if (!readState() || !readGroupId())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Refresh.HAS_PERM_DATA) && !readPermData())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Refresh.HAS_QOS) && !skipQos())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Refresh.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        if (optional(HAS_EXTENDED_HEADER) && !skipBuf8())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Refresh.HAS_POST_USER_INFO) && !readPostUserInfo())
        {
            return false;
        }
        return !optional(RwfMsgFlags.Refresh.HAS_PART_NUM) || readPartNum();
    }

    private boolean wrapStatus()
    {
        if (optional(RwfMsgFlags.Status.HAS_STATE) && !readState())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Status.HAS_GROUP_ID) && !readGroupId())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Status.HAS_PERM_DATA) && !readPermData())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Status.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        if (optional(HAS_EXTENDED_HEADER) && !skipBuf8())
        {
            return false;
        }
        return !optional(RwfMsgFlags.Status.HAS_POST_USER_INFO) || readPostUserInfo();
    }

    private boolean wrapUpdate()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        updateType = buffer.getByte(cursor) & 0xFF;
        cursor++;
        if (optional(RwfMsgFlags.Update.HAS_SEQ_NUM) && !readSeqNum())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Update.HAS_CONF_INFO) && !(skipU15rb() && skipFixed(2)))
        {
            return false;
        }
        if (optional(RwfMsgFlags.Update.HAS_PERM_DATA) && !readPermData())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Update.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        if (optional(HAS_EXTENDED_HEADER) && !skipBuf8())
        {
            return false;
        }
        return !optional(RwfMsgFlags.Update.HAS_POST_USER_INFO) || readPostUserInfo();
    }

    private boolean wrapAck()
    {
        ackIdOffset = cursor;
        if (!skipFixed(UINT32_SIZE))
        {
            return false;
        }
        if (optional(RwfMsgFlags.Ack.HAS_NAK_CODE))
        {
            if (!need(1))
            {
                return fail(RwfError.MEMBER_OVERRUN);
            }
            nakCode = buffer.getByte(cursor) & 0xFF;
            cursor++;
        }
        if (optional(RwfMsgFlags.Ack.HAS_TEXT) && !skipU16obPrefixed())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Ack.HAS_SEQ_NUM) && !readSeqNum())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Ack.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        return !optional(HAS_EXTENDED_HEADER) || skipBuf8();
    }

    private boolean wrapGeneric()
    {
        if (optional(RwfMsgFlags.Generic.HAS_SEQ_NUM) && !readSeqNum())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Generic.HAS_SECONDARY_SEQ_NUM) && !skipFixed(UINT32_SIZE))
        {
            return false;
        }
        if (optional(RwfMsgFlags.Generic.HAS_PERM_DATA) && !skipBuf15())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Generic.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        if (optional(HAS_EXTENDED_HEADER) && !skipBuf8())
        {
            return false;
        }
        return !optional(RwfMsgFlags.Generic.HAS_PART_NUM) || readPartNum();
    }

    private boolean wrapPost()
    {
        if (!readPostUserInfo())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Post.HAS_SEQ_NUM) && !readSeqNum())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Post.HAS_POST_ID))
        {
            postIdOffset = cursor;
            if (!skipFixed(UINT32_SIZE))
            {
                return false;
            }
        }
        if (optional(RwfMsgFlags.Post.HAS_PERM_DATA) && !skipBuf15())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Post.HAS_MSG_KEY) && !readKey())
        {
            return false;
        }
        if (optional(HAS_EXTENDED_HEADER) && !skipBuf8())
        {
            return false;
        }
        if (optional(RwfMsgFlags.Post.HAS_PART_NUM) && !readPartNum())
        {
            return false;
        }
        return !optional(RwfMsgFlags.Post.HAS_POST_USER_RIGHTS) || skipU15rb();
    }

    private boolean readPermData()
    {
        final int at = cursor;
        if (!skipBuf15())
        {
            return false;
        }
        final int width = RwfPrimitives.u15rbWidth(buffer, at);
        permDataOffset = at + width;
        permDataLength = cursor - permDataOffset;
        return true;
    }

    private boolean readSeqNum()
    {
        seqNumOffset = cursor;
        return skipFixed(UINT32_SIZE);
    }

    private boolean readPostUserInfo()
    {
        postUserInfoOffset = cursor;
        return skipFixed(POST_USER_INFO_SIZE);
    }

    private boolean readPartNum()
    {
        if (!need(1) || !need(RwfPrimitives.u15rbWidth(buffer, cursor)))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        partNum = RwfPrimitives.u15rb(buffer, cursor);
        cursor += RwfPrimitives.u15rbWidth(buffer, cursor);
        return true;
    }

    private boolean readState()
    {
        stateOffset = cursor;
        if (!skipFixed(2))
        {
            return false;
        }
        if (!need(1) || !need(RwfPrimitives.u15rbWidth(buffer, cursor)))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        stateTextLength = RwfPrimitives.u15rb(buffer, cursor);
        stateTextOffset = cursor + RwfPrimitives.u15rbWidth(buffer, cursor);
        return skipFixed(stateTextOffset - cursor + stateTextLength);
    }

    private boolean readGroupId()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        final int idLength = buffer.getByte(cursor) & 0xFF;
        if (!skipFixed(1 + idLength))
        {
            return false;
        }
        groupIdOffset = cursor - idLength;
        groupIdLength = idLength;
        return true;
    }

    private boolean readKey()
    {
        if (!need(1) || !need(RwfPrimitives.u15rbWidth(buffer, cursor)))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        final int keyLength = RwfPrimitives.u15rb(buffer, cursor);
        final int keyOffset = cursor + RwfPrimitives.u15rbWidth(buffer, cursor);
        if (!skipFixed(keyOffset - cursor + keyLength))
        {
            return false;
        }
        if (!key.wrap(buffer, keyOffset, keyLength))
        {
            return fail(key.error());
        }
        hasKey = true;
        return true;
    }

    /**
     * @return why the last wrap failed, or {@link RwfError#NONE}.
     */
    public RwfError error()
    {
        return error;
    }

    /**
     * @return a constant text for the last error, for logs.
     */
    public String errorReason()
    {
        return error.description();
    }

    /**
     * @return the wrapped buffer.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the message in the buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the whole message.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return the header length field: header bytes after the 2-byte field itself.
     */
    public int headerLength()
    {
        return headerEnd - offset - HEADER_LENGTH_FIELD_SIZE;
    }

    /**
     * @return the msgClass ({@link RwfMsgDescriptor#REQUEST} ... {@link RwfMsgDescriptor#POST}).
     */
    public int msgClass()
    {
        return msgClass;
    }

    /**
     * @return the domainType (1 login, 4 source, 5 dictionary, 6 market price...).
     */
    public int domainType()
    {
        return domainType;
    }

    /**
     * @return the streamId, read from the buffer (so it reflects a rewrite).
     */
    public int streamId()
    {
        return buffer.getInt(offset + STREAM_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * Rewrite the streamId in place; every other byte stays as it is.
     *
     * @param streamId the new streamId.
     * @return this, for chaining.
     * @throws IllegalStateException if the wrapped buffer is not mutable (a programming error, not bad input).
     */
    public RwfMsgFlyweight streamId(final int streamId)
    {
        if (null == mutableBuffer)
        {
            throw new IllegalStateException("wrapped buffer is read-only");
        }
        mutableBuffer.putInt(offset + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        return this;
    }

    /**
     * @return the class-specific flags ({@link RwfMsgFlags}).
     */
    public int flags()
    {
        return flags;
    }

    /**
     * @return the payload's container type as an ETA DataTypes value (wire value + 128; 128 = NO_DATA).
     */
    public int containerType()
    {
        return containerType;
    }

    /**
     * @return offset of the payload in the buffer: message offset + 2 + header length.
     */
    public int payloadOffset()
    {
        return headerEnd;
    }

    /**
     * @return length of the payload.
     */
    public int payloadLength()
    {
        return offset + length - headerEnd;
    }

    /**
     * @return true if the message carries a msgKey (always true for a well-formed request).
     */
    public boolean hasMsgKey()
    {
        return hasKey;
    }

    /**
     * @return the key flyweight, valid only if {@link #hasMsgKey()}.
     */
    public RwfMsgKeyFlyweight key()
    {
        return key;
    }

    /**
     * @return true if the message carries a State (refresh always, status when HAS_STATE).
     */
    public boolean hasState()
    {
        return ABSENT != stateOffset;
    }

    /**
     * @return the stream state (1 open, 2 non-streaming, 3 closed-recover, 4 closed, 5 redirected), or -1.
     */
    public int streamState()
    {
        return hasState() ? (buffer.getByte(stateOffset) & 0xFF) >>> 3 : ABSENT;
    }

    /**
     * @return the data state (0 no change, 1 ok, 2 suspect), or -1.
     */
    public int dataState()
    {
        return hasState() ? buffer.getByte(stateOffset) & 0x07 : ABSENT;
    }

    /**
     * @return the state code, or -1.
     */
    public int stateCode()
    {
        return hasState() ? buffer.getByte(stateOffset + 1) & 0xFF : ABSENT;
    }

    /**
     * @return offset of the state text in the buffer, or -1.
     */
    public int stateTextOffset()
    {
        return stateTextOffset;
    }

    /**
     * @return length of the state text (0 if none).
     */
    public int stateTextLength()
    {
        return stateTextLength;
    }

    /**
     * @return true if the message carries an item group id (a refresh always, a status when HAS_GROUP_ID).
     */
    public boolean hasGroupId()
    {
        return ABSENT != groupIdOffset;
    }

    /**
     * @return offset in the buffer of the group id's first byte (after its length byte), or -1 when absent.
     */
    public int groupIdOffset()
    {
        return groupIdOffset;
    }

    /**
     * @return length of the group id (0 when absent or empty; ETA's default is the 2-byte id 0).
     */
    public int groupIdLength()
    {
        return groupIdLength;
    }

    /**
     * @return where the permission data (the item's lock) of a refresh, status or update starts in the wrapped
     * buffer, or -1 if the message has none.
     */
    public int permDataOffset()
    {
        return permDataOffset;
    }

    /**
     * @return the permission data's length in bytes (0 if none).
     */
    public int permDataLength()
    {
        return permDataLength;
    }

    /**
     * Compare the group id with bytes, in place.
     *
     * @param other  buffer holding a group id.
     * @param offset its first byte.
     * @param length its length.
     * @return true if the message carries a group id with exactly those bytes.
     */
    public boolean groupIdEquals(final DirectBuffer other, final int offset, final int length)
    {
        if (!hasGroupId() || length != groupIdLength)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(groupIdOffset + i) != other.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the updateType of an UpdateMsg, or -1 for other classes.
     */
    public int updateType()
    {
        return updateType;
    }

    /**
     * @return true if the message carries a sequence number.
     */
    public boolean hasSeqNum()
    {
        return ABSENT != seqNumOffset;
    }

    /**
     * @return the sequence number as an unsigned 32-bit value, or -1.
     */
    public long seqNum()
    {
        return hasSeqNum() ? buffer.getInt(seqNumOffset, BYTE_ORDER) & 0xFFFF_FFFFL : ABSENT;
    }

    /**
     * @return the part number of a refresh, generic or post, or -1.
     */
    public int partNum()
    {
        return partNum;
    }

    /**
     * @return true if the message carries post user info (always for a post).
     */
    public boolean hasPostUserInfo()
    {
        return ABSENT != postUserInfoOffset;
    }

    /**
     * @return the post user address as an unsigned 32-bit value, or -1.
     */
    public long postUserAddress()
    {
        return hasPostUserInfo() ? buffer.getInt(postUserInfoOffset, BYTE_ORDER) & 0xFFFF_FFFFL : ABSENT;
    }

    /**
     * @return the post user id as an unsigned 32-bit value, or -1.
     */
    public long postUserId()
    {
        return hasPostUserInfo() ? buffer.getInt(postUserInfoOffset + 4, BYTE_ORDER) & 0xFFFF_FFFFL : ABSENT;
    }

    /**
     * @return the ackId of an AckMsg as an unsigned 32-bit value, or -1.
     */
    public long ackId()
    {
        return ABSENT != ackIdOffset ? buffer.getInt(ackIdOffset, BYTE_ORDER) & 0xFFFF_FFFFL : ABSENT;
    }

    /**
     * @return the nakCode of an AckMsg, or -1 if absent (a positive acknowledgement).
     */
    public int nakCode()
    {
        return nakCode;
    }

    /**
     * @return the postId of a PostMsg as an unsigned 32-bit value, or -1.
     */
    public long postId()
    {
        return ABSENT != postIdOffset ? buffer.getInt(postIdOffset, BYTE_ORDER) & 0xFFFF_FFFFL : ABSENT;
    }
}
