package io.mdhub.p2p.entitlement;

import net.openhft.chronicle.wire.WireIn;
import net.openhft.chronicle.wire.WireOut;

/**
 * The layout of one usage record in the queue: Chronicle self-describing wire, a field per {@link UsageRecord} field
 * under the record field's own name, after a format version {@value #VERSION_FIELD}. The event is written by its
 * name, so reordering or adding {@link UsageEvent} constants never changes what an old record means. A later version
 * may add fields (an older reader skips them) and reads a missing field as null or 0; a change of a field's meaning
 * takes a new version number.
 */
final class UsageWire
{
    /** Format version written now. */
    static final int VERSION = 1;
    /** Name of the version field, the first of every record. */
    static final String VERSION_FIELD = "v";

    private UsageWire()
    {
    }

    /**
     * Write a record; allocates nothing (the strings are written as they are, the event by its constant name).
     *
     * @param wire   the excerpt's wire.
     * @param record the record.
     */
    static void write(final WireOut wire, final UsageRecord record)
    {
        wire.write(VERSION_FIELD).int32(VERSION);
        wire.write("event").text(null == record.event ? null : record.event.name());
        wire.write("timeMs").int64(record.timeMs);
        wire.write("connectionId").int64(record.connectionId);
        wire.write("user").text(record.user);
        wire.write("position").text(record.position);
        wire.write("application").text(record.application);
        wire.write("service").text(record.service);
        wire.write("item").text(record.item);
        wire.write("domainType").int32(record.domainType);
        wire.write("codes").text(record.codes);
        wire.write("reason").text(record.reason);
        wire.write("openedMs").int64(record.openedMs);
    }

    /**
     * Read a record (allocating its strings: for tools, not for a hot path).
     *
     * @param wire   the excerpt's wire.
     * @param record filled in; its event is null when the record names an event this version does not know.
     * @return the record's format version; 0 or less when the excerpt is not a usage record.
     */
    static int read(final WireIn wire, final UsageRecord record)
    {
        record.reset();
        final int version = wire.read(VERSION_FIELD).int32();
        if (version < 1)
        {
            return version;
        }
        final String event = wire.read("event").text();
        record.event = eventNamed(event);
        record.timeMs = wire.read("timeMs").int64();
        record.connectionId = wire.read("connectionId").int64();
        record.user = wire.read("user").text();
        record.position = wire.read("position").text();
        record.application = wire.read("application").text();
        record.service = wire.read("service").text();
        record.item = wire.read("item").text();
        record.domainType = wire.read("domainType").int32();
        record.codes = wire.read("codes").text();
        record.reason = wire.read("reason").text();
        record.openedMs = wire.read("openedMs").int64();
        return version;
    }

    private static UsageEvent eventNamed(final String name)
    {
        if (null != name)
        {
            for (final UsageEvent event : UsageEvent.values())
            {
                if (event.name().equals(name))
                {
                    return event;
                }
            }
        }
        return null;
    }
}
