package io.mdhub.common.rwf;

import org.agrona.DirectBuffer;

/**
 * The bounds-checked walk over an RWF message header that {@link RwfMsgFlyweight} parses with: a cursor that steps
 * over the header's members (fixed-size, u15rb, u16ob, buf8, buf15, u16ob-prefixed, QoS) only when they lie inside
 * the header, and otherwise records why it stopped ({@link RwfError#MEMBER_OVERRUN},
 * {@link RwfError#INVALID_VARIABLE_LENGTH}). It reads the header's flags for optional members.
 * <p>
 * A base class rather than an object the flyweight holds, so that the parser, this walk and the accessors share one
 * object: no extra load per member or per accessor, and every call is to a final method the JIT binds statically.
 */
abstract class RwfHeaderCursor
{
    private static final int QOS_TIMELINESS_DELAYED = 3;
    private static final int QOS_RATE_TIME_CONFLATED = 3;

    /**
     * The buffer holding the message being read.
     */
    DirectBuffer buffer;

    /**
     * The first byte past the message header.
     */
    int headerEnd;

    /**
     * The next header byte to read.
     */
    int cursor;

    /**
     * The message's flags, which say which optional members are present.
     */
    int flags;

    /**
     * Why the last walk stopped, or {@link RwfError#NONE}.
     */
    RwfError error = RwfError.NONE;

    /**
     * @return true if the flag of an optional member is set.
     */
    final boolean optional(final int flag)
    {
        return 0 != (flags & flag);
    }

    /**
     * @return true if that many bytes from the cursor lie inside the header.
     */
    final boolean need(final int bytes)
    {
        return cursor + bytes <= headerEnd;
    }

    /**
     * Record why the walk stopped.
     *
     * @param reason the error.
     * @return false, for {@code return fail(...)}.
     */
    final boolean fail(final RwfError reason)
    {
        error = reason;
        return false;
    }

    /**
     * Step over a member of a fixed size.
     *
     * @param bytes its size.
     * @return false if it runs past the header.
     */
    final boolean skipFixed(final int bytes)
    {
        if (!need(bytes))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        cursor += bytes;
        return true;
    }

    /**
     * Step over a u15rb number.
     *
     * @return false if it runs past the header.
     */
    final boolean skipU15rb()
    {
        if (!need(1) || !need(RwfPrimitives.u15rbWidth(buffer, cursor)))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        cursor += RwfPrimitives.u15rbWidth(buffer, cursor);
        return true;
    }

    /**
     * Step over a u16ob number.
     *
     * @return false if it runs past the header or its first byte is not a valid u16ob width.
     */
    final boolean skipU16ob()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        final int width = RwfPrimitives.u16obWidth(buffer, cursor);
        if (width < 0)
        {
            return fail(RwfError.INVALID_VARIABLE_LENGTH);
        }
        return skipFixed(width);
    }

    /**
     * Step over a buffer with a one-byte length (the extended header).
     *
     * @return false if it runs past the header.
     */
    final boolean skipBuf8()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        return skipFixed(1 + (buffer.getByte(cursor) & 0xFF));
    }

    /**
     * Step over a buffer with a u15rb length (permission data, request key attributes).
     *
     * @return false if it runs past the header.
     */
    final boolean skipBuf15()
    {
        if (!need(1) || !need(RwfPrimitives.u15rbWidth(buffer, cursor)))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        return skipFixed(RwfPrimitives.u15rbWidth(buffer, cursor) + RwfPrimitives.u15rb(buffer, cursor));
    }

    /**
     * Step over a buffer with a u16ob length.
     *
     * @return false if it runs past the header or its length is not a valid u16ob.
     */
    final boolean skipU16obPrefixed()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        final int width = RwfPrimitives.u16obWidth(buffer, cursor);
        if (width < 0)
        {
            return fail(RwfError.INVALID_VARIABLE_LENGTH);
        }
        if (!need(width))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        return skipFixed(width + RwfPrimitives.u16ob(buffer, cursor));
    }

    /**
     * Step over a QoS: one byte, two more for a delayed timeliness and two more for a conflated rate.
     *
     * @return false if it runs past the header.
     */
    final boolean skipQos()
    {
        if (!need(1))
        {
            return fail(RwfError.MEMBER_OVERRUN);
        }
        final int qos = buffer.getByte(cursor) & 0xFF;
        int size = 1;
        if (QOS_TIMELINESS_DELAYED == (qos >>> 5))
        {
            size += 2;
        }
        if (QOS_RATE_TIME_CONFLATED == ((qos >>> 1) & 0x0F))
        {
            size += 2;
        }
        return skipFixed(size);
    }
}
