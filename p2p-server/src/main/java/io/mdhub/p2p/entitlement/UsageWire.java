package io.mdhub.p2p.entitlement;

import net.openhft.chronicle.bytes.Bytes;

/**
 * The layout of one usage record, the whole of one queue excerpt, little-endian:
 * <pre>
 *   int32  magic "MDUS" ({@value #MAGIC})     identifies a usage record: another queue's excerpt is refused
 *   int8   version ({@value #VERSION})        a later version appends fields; readers ignore what follows theirs
 *   int8   event code (see {@link #code})     stable numbers, whatever the order of {@link UsageEvent}
 *   int64  timeMs, int64 connectionId, int64 openedMs, int32 domainType
 *   utf8   user, position, application, service, item, codes, reason   (stop-bit length, then UTF-8; -1 = null)
 * </pre>
 * A compact binary layout rather than Chronicle's self-describing wire: field names in every record tripled the
 * cost of an append (about 1 us against 0.3 us on tmpfs here), and the report is the reader.
 */
final class UsageWire
{
    /** "MDUS" as an int: the first four bytes of every usage record. */
    static final int MAGIC = 0x5355_444D;
    /** Format version written now. */
    static final int VERSION = 1;
    /** Event code of an event this version does not know. */
    static final int UNKNOWN_EVENT = 0;

    private UsageWire()
    {
    }

    /**
     * The stable number of an event in the log. Every event has one (UsageWireTest checks); a new event takes the
     * next free number, and a number is never reused.
     *
     * @param event an event (null for none).
     * @return its code, {@link #UNKNOWN_EVENT} for null.
     */
    static int code(final UsageEvent event)
    {
        if (null == event)
        {
            return UNKNOWN_EVENT;
        }
        switch (event)
        {
            case LOGIN_GRANTED: return 1;
            case LOGIN_DENIED: return 2;
            case LOGOFF: return 3;
            case ITEM_GRANTED: return 4;
            case ITEM_DENIED: return 5;
            case ITEM_CLOSED: return 6;
            case POST_DENIED: return 7;
            case LOG_OPENED: return 8;
            case LOG_CLOSED: return 9;
            default: return UNKNOWN_EVENT;
        }
    }

    /**
     * @param code an event code read from the log.
     * @return its event, or null for a code this version does not know.
     */
    static UsageEvent event(final int code)
    {
        for (final UsageEvent event : UsageEvent.values())
        {
            if (code(event) == code)
            {
                return event;
            }
        }
        return null;
    }

    /**
     * Write a record; allocates nothing (the strings are encoded as they are).
     *
     * @param bytes  the excerpt's bytes.
     * @param record the record.
     */
    static void write(final Bytes<?> bytes, final UsageRecord record)
    {
        bytes.writeInt(MAGIC);
        bytes.writeByte((byte)VERSION);
        bytes.writeByte((byte)code(record.event));
        bytes.writeLong(record.timeMs);
        bytes.writeLong(record.connectionId);
        bytes.writeLong(record.openedMs);
        bytes.writeInt(record.domainType);
        bytes.writeUtf8(record.user);
        bytes.writeUtf8(record.position);
        bytes.writeUtf8(record.application);
        bytes.writeUtf8(record.service);
        bytes.writeUtf8(record.item);
        bytes.writeUtf8(record.codes);
        bytes.writeUtf8(record.reason);
    }

    /**
     * Read a record (allocating its strings: for tools, not for a hot path).
     *
     * @param bytes  the excerpt's bytes.
     * @param record filled in; its event is null when the record names an event this version does not know.
     * @return the record's format version; -1 when the excerpt is not a usage record.
     */
    static int read(final Bytes<?> bytes, final UsageRecord record)
    {
        record.reset();
        if (bytes.readRemaining() < 6 || MAGIC != bytes.readInt())
        {
            return -1;
        }
        final int version = bytes.readByte();
        if (version < 1)
        {
            return -1;
        }
        record.event = event(bytes.readByte());
        record.timeMs = bytes.readLong();
        record.connectionId = bytes.readLong();
        record.openedMs = bytes.readLong();
        record.domainType = bytes.readInt();
        record.user = bytes.readUtf8();
        record.position = bytes.readUtf8();
        record.application = bytes.readUtf8();
        record.service = bytes.readUtf8();
        record.item = bytes.readUtf8();
        record.codes = bytes.readUtf8();
        record.reason = bytes.readUtf8();
        return version;
    }
}
