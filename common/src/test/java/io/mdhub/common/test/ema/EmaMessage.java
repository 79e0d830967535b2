package io.mdhub.common.test.ema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.refinitiv.ema.access.AckMsg;
import com.refinitiv.ema.access.Data;
import com.refinitiv.ema.access.DataType;
import com.refinitiv.ema.access.DataType.DataTypes;
import com.refinitiv.ema.access.FieldEntry;
import com.refinitiv.ema.access.FieldList;
import com.refinitiv.ema.access.GenericMsg;
import com.refinitiv.ema.access.Msg;
import com.refinitiv.ema.access.OmmConsumerEvent;
import com.refinitiv.ema.access.OmmDate;
import com.refinitiv.ema.access.OmmDateTime;
import com.refinitiv.ema.access.OmmReal;
import com.refinitiv.ema.access.OmmState;
import com.refinitiv.ema.access.OmmTime;
import com.refinitiv.ema.access.RefreshMsg;
import com.refinitiv.ema.access.StatusMsg;
import com.refinitiv.ema.access.UpdateMsg;

/**
 * One message as an EMA 3.9.1.0 consumer application saw it in its {@code OmmConsumerClient} callback, copied out of
 * EMA's objects (which are only valid during the callback): the callback kind, the item handle EMA gave it, the key,
 * the state, the refresh/ack flags, and a FieldList payload decoded entry by entry with the load type EMA gave each
 * field from its dictionary (for a consumer with EMA's defaults: the dictionary it downloaded from the server).
 * Typed accessors return exact values (REAL mantissa and magnitude type, UINT, INT, ENUM value and display, DATE,
 * TIME, DATETIME, ASCII/RMTES/UTF8 text) and fail the test when a field is absent, blank or of another load type.
 */
public final class EmaMessage
{
    /**
     * Which {@code OmmConsumerClient} callback delivered the message.
     */
    public enum Kind
    {
        /** onRefreshMsg. */
        REFRESH,
        /** onUpdateMsg. */
        UPDATE,
        /** onStatusMsg. */
        STATUS,
        /** onAckMsg. */
        ACK,
        /** onGenericMsg. */
        GENERIC
    }

    /**
     * An OMM REAL exactly as received.
     *
     * @param mantissa      the mantissa.
     * @param magnitudeType EMA's {@code OmmReal.MagnitudeType} (the same numbering as ETA's {@code RealHints}).
     */
    public record Real(long mantissa, int magnitudeType)
    {
    }

    /**
     * A decoded FieldEntry: its id, the dictionary's acronym, the load type, and its value (null when blank).
     *
     * @param fid      field id.
     * @param name     the dictionary's acronym (empty if unknown).
     * @param loadType EMA's {@code DataType.DataTypes} of the entry.
     * @param blank    whether the entry was blank.
     * @param value    the value: Long (INT, UINT), {@link Real}, Integer (ENUM), LocalDate, LocalTime, LocalDateTime,
     *                 String (ASCII, RMTES, UTF8), byte[] (BUFFER), Float, Double, or EMA's text for other types.
     * @param display  the enum display text when the dictionary has one, else null.
     */
    public record Field(int fid, String name, int loadType, boolean blank, Object value, String display)
    {
        @Override
        public String toString()
        {
            if (blank)
            {
                return "blank";
            }
            if (value instanceof String)
            {
                return '"' + (String)value + '"';
            }
            if (value instanceof Real)
            {
                final Real real = (Real)value;
                return real.mantissa() + "e(" + real.magnitudeType() + ")";
            }
            if (value instanceof byte[])
            {
                return ((byte[])value).length + " bytes";
            }
            return null == display ? String.valueOf(value) : value + "(" + display + ")";
        }
    }

    private final Kind kind;
    private final long handle;
    private final long parentHandle;
    private final int domainType;
    private final String name;
    private final String serviceName;
    private final int serviceId;
    private final int streamState;
    private final int dataState;
    private final int statusCode;
    private final String statusText;
    private final boolean solicited;
    private final boolean complete;
    private final boolean clearCache;
    private final int updateType;
    private final long ackId;
    private final int nackCode;
    private final String ackText;
    private final int payloadType;
    private final LinkedHashMap<Integer, Field> fields = new LinkedHashMap<>();

    private EmaMessage(final Kind kind, final Msg msg, final OmmConsumerEvent event, final String serviceName)
    {
        this.kind = kind;
        this.handle = event.handle();
        this.parentHandle = event.parentHandle();
        this.domainType = msg.domainType();
        this.name = msg.hasName() ? msg.name() : null;
        this.serviceName = serviceName;
        this.serviceId = msg.hasServiceId() ? msg.serviceId() : -1;
        final OmmState state = state(msg);
        this.streamState = null == state ? -1 : state.streamState();
        this.dataState = null == state ? -1 : state.dataState();
        this.statusCode = null == state ? -1 : state.statusCode();
        this.statusText = null == state ? null : state.statusText();
        final RefreshMsg refresh = msg instanceof RefreshMsg ? (RefreshMsg)msg : null;
        this.solicited = null != refresh && refresh.solicited();
        this.complete = null != refresh && refresh.complete();
        this.clearCache = null != refresh && refresh.clearCache() ||
            msg instanceof StatusMsg && ((StatusMsg)msg).clearCache();
        this.updateType = msg instanceof UpdateMsg ? ((UpdateMsg)msg).updateTypeNum() : -1;
        final AckMsg ack = msg instanceof AckMsg ? (AckMsg)msg : null;
        this.ackId = null == ack ? -1 : ack.ackId();
        this.nackCode = null != ack && ack.hasNackCode() ? ack.nackCode() : -1;
        this.ackText = null != ack && ack.hasText() ? ack.text() : null;
        this.payloadType = msg.payload().dataType();
        if (DataTypes.FIELD_LIST == payloadType)
        {
            decode(msg.payload().fieldList());
        }
    }

    static EmaMessage of(final RefreshMsg msg, final OmmConsumerEvent event)
    {
        return new EmaMessage(Kind.REFRESH, msg, event, msg.hasServiceName() ? msg.serviceName() : null);
    }

    static EmaMessage of(final UpdateMsg msg, final OmmConsumerEvent event)
    {
        return new EmaMessage(Kind.UPDATE, msg, event, msg.hasServiceName() ? msg.serviceName() : null);
    }

    static EmaMessage of(final StatusMsg msg, final OmmConsumerEvent event)
    {
        return new EmaMessage(Kind.STATUS, msg, event, msg.hasServiceName() ? msg.serviceName() : null);
    }

    static EmaMessage of(final AckMsg msg, final OmmConsumerEvent event)
    {
        return new EmaMessage(Kind.ACK, msg, event, msg.hasServiceName() ? msg.serviceName() : null);
    }

    static EmaMessage of(final GenericMsg msg, final OmmConsumerEvent event)
    {
        return new EmaMessage(Kind.GENERIC, msg, event, null);
    }

    private static OmmState state(final Msg msg)
    {
        if (msg instanceof RefreshMsg)
        {
            return ((RefreshMsg)msg).state();
        }
        if (msg instanceof StatusMsg && ((StatusMsg)msg).hasState())
        {
            return ((StatusMsg)msg).state();
        }
        return null;
    }

    private void decode(final FieldList fieldList)
    {
        for (final FieldEntry entry : fieldList)
        {
            final int loadType = entry.loadType();
            final boolean blank = Data.DataCode.BLANK == entry.code();
            final String display = DataTypes.ENUM == loadType && !blank && entry.hasEnumDisplay() ?
                entry.enumDisplay() : null;
            fields.put(entry.fieldId(), new Field(entry.fieldId(), entry.name(), loadType, blank,
                blank ? null : value(entry, loadType), display));
        }
    }

    private static Object value(final FieldEntry entry, final int loadType)
    {
        switch (loadType)
        {
            case DataTypes.INT:
                return entry.intValue();
            case DataTypes.UINT:
                return entry.uintValue();
            case DataTypes.REAL:
                final OmmReal real = entry.real();
                return new Real(real.mantissa(), real.magnitudeType());
            case DataTypes.FLOAT:
                return entry.floatValue();
            case DataTypes.DOUBLE:
                return entry.doubleValue();
            case DataTypes.ENUM:
                return entry.enumValue();
            case DataTypes.DATE:
                final OmmDate date = entry.date();
                return LocalDate.of(date.year(), date.month(), date.day());
            case DataTypes.TIME:
                final OmmTime time = entry.time();
                return LocalTime.of(time.hour(), time.minute(), time.second(), nanos(
                    time.millisecond(), time.microsecond(), time.nanosecond()));
            case DataTypes.DATETIME:
                final OmmDateTime dateTime = entry.dateTime();
                return LocalDateTime.of(dateTime.year(), dateTime.month(), dateTime.day(), dateTime.hour(),
                    dateTime.minute(), dateTime.second(),
                    nanos(dateTime.millisecond(), dateTime.microsecond(), dateTime.nanosecond()));
            case DataTypes.ASCII:
                return entry.ascii().ascii();
            case DataTypes.RMTES:
                return entry.rmtes().rmtes().toString();
            case DataTypes.UTF8:
                return entry.utf8().string();
            case DataTypes.BUFFER:
                final ByteBuffer buffer = entry.buffer().buffer();
                final byte[] bytes = new byte[buffer.remaining()];
                buffer.duplicate().get(bytes);
                return bytes;
            case DataTypes.ERROR:
                return "error " + entry.error().errorCodeAsString();
            default:
                return entry.load().toString();
        }
    }

    private static int nanos(final int millis, final int micros, final int nanos)
    {
        return millis * 1_000_000 + micros * 1_000 + nanos;
    }

    /**
     * @return the callback that delivered it.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return the item handle EMA delivered it on ({@code OmmConsumerEvent.handle()}).
     */
    public long handle()
    {
        return handle;
    }

    /**
     * @return {@code OmmConsumerEvent.parentHandle()}.
     */
    public long parentHandle()
    {
        return parentHandle;
    }

    /**
     * @return the RDM domain.
     */
    public int domainType()
    {
        return domainType;
    }

    /**
     * @return the key's name, or null if the message had none.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the service name EMA resolved, or null.
     */
    public String serviceName()
    {
        return serviceName;
    }

    /**
     * @return the key's service id, or -1.
     */
    public int serviceId()
    {
        return serviceId;
    }

    /**
     * @return {@code OmmState.StreamState} of a refresh or status, else -1.
     */
    public int streamState()
    {
        return streamState;
    }

    /**
     * @return {@code OmmState.DataState} of a refresh or status, else -1.
     */
    public int dataState()
    {
        return dataState;
    }

    /**
     * @return {@code OmmState.StatusCode} of a refresh or status, else -1.
     */
    public int statusCode()
    {
        return statusCode;
    }

    /**
     * @return the state text of a refresh or status, else null.
     */
    public String statusText()
    {
        return statusText;
    }

    /**
     * @return whether a refresh was solicited.
     */
    public boolean solicited()
    {
        return solicited;
    }

    /**
     * @return whether a refresh was the last (or only) part.
     */
    public boolean complete()
    {
        return complete;
    }

    /**
     * @return whether a refresh or status asked to clear the cache.
     */
    public boolean clearCache()
    {
        return clearCache;
    }

    /**
     * @return an update's update type, else -1.
     */
    public int updateType()
    {
        return updateType;
    }

    /**
     * @return an ack's id (the post id it acknowledges), else -1.
     */
    public long ackId()
    {
        return ackId;
    }

    /**
     * @return an ack's NAK code, or -1 when the ack is positive (or not an ack).
     */
    public int nackCode()
    {
        return nackCode;
    }

    /**
     * @return an ack's text, or null.
     */
    public String ackText()
    {
        return ackText;
    }

    /**
     * @return {@code DataType.DataTypes} of the payload.
     */
    public int payloadType()
    {
        return payloadType;
    }

    /**
     * @return the FieldList's field ids in the order received.
     */
    public List<Integer> fieldIds()
    {
        return Collections.unmodifiableList(new ArrayList<>(fields.keySet()));
    }

    /**
     * @return every field, by id, in the order received.
     */
    public Map<Integer, Field> fields()
    {
        return Collections.unmodifiableMap(fields);
    }

    /**
     * @param fid field id.
     * @return whether the FieldList had the field.
     */
    public boolean has(final int fid)
    {
        return fields.containsKey(fid);
    }

    /**
     * @param fid field id.
     * @return the field (fails if absent).
     */
    public Field field(final int fid)
    {
        final Field field = fields.get(fid);
        assertNotNull(field, () -> "no field " + fid + " in " + this);
        return field;
    }

    /**
     * @param fid field id.
     * @return whether the field is present and blank.
     */
    public boolean isBlank(final int fid)
    {
        return field(fid).blank();
    }

    /**
     * @param fid field id.
     * @return EMA's load type of the field.
     */
    public int loadType(final int fid)
    {
        return field(fid).loadType();
    }

    /**
     * @param fid a REAL field.
     * @return its value.
     */
    public Real real(final int fid)
    {
        return (Real)value(fid, DataTypes.REAL);
    }

    /**
     * @param fid a REAL field.
     * @return its mantissa.
     */
    public long mantissa(final int fid)
    {
        return real(fid).mantissa();
    }

    /**
     * @param fid a REAL field.
     * @return its magnitude type.
     */
    public int magnitudeType(final int fid)
    {
        return real(fid).magnitudeType();
    }

    /**
     * @param fid a UINT field.
     * @return its value.
     */
    public long uint(final int fid)
    {
        return (Long)value(fid, DataTypes.UINT);
    }

    /**
     * @param fid an INT field.
     * @return its value.
     */
    public long intValue(final int fid)
    {
        return (Long)value(fid, DataTypes.INT);
    }

    /**
     * @param fid an ENUM field.
     * @return its value.
     */
    public int enumValue(final int fid)
    {
        return (Integer)value(fid, DataTypes.ENUM);
    }

    /**
     * @param fid an ENUM field.
     * @return its display text from EMA's dictionary (fails if there is none).
     */
    public String enumDisplay(final int fid)
    {
        value(fid, DataTypes.ENUM);
        final String display = field(fid).display();
        assertNotNull(display, () -> "no enum display for field " + fid + " in " + this);
        return display;
    }

    /**
     * @param fid a DATE field.
     * @return its value.
     */
    public LocalDate date(final int fid)
    {
        return (LocalDate)value(fid, DataTypes.DATE);
    }

    /**
     * @param fid a TIME field.
     * @return its value.
     */
    public LocalTime time(final int fid)
    {
        return (LocalTime)value(fid, DataTypes.TIME);
    }

    /**
     * @param fid a DATETIME field.
     * @return its value.
     */
    public LocalDateTime dateTime(final int fid)
    {
        return (LocalDateTime)value(fid, DataTypes.DATETIME);
    }

    /**
     * @param fid an RMTES field.
     * @return its text as EMA's RmtesBuffer decodes it.
     */
    public String rmtes(final int fid)
    {
        return (String)value(fid, DataTypes.RMTES);
    }

    /**
     * @param fid an ASCII field.
     * @return its text.
     */
    public String ascii(final int fid)
    {
        return (String)value(fid, DataTypes.ASCII);
    }

    private Object value(final int fid, final int loadType)
    {
        final Field field = field(fid);
        assertEquals(DataType.asString(loadType), DataType.asString(field.loadType()),
            () -> "load type of " + field.name() + " (" + fid + ") in " + this);
        assertFalse(field.blank(), () -> field.name() + " (" + fid + ") is blank in " + this);
        return field.value();
    }

    @Override
    public String toString()
    {
        final StringBuilder out = new StringBuilder("EmaMessage{").append(kind)
            .append(", handle=").append(handle)
            .append(", domain=").append(domainType);
        if (null != name || null != serviceName)
        {
            out.append(", key=").append(serviceName).append('/').append(serviceId).append('/').append(name);
        }
        if (-1 != streamState)
        {
            out.append(", state=").append(streamState).append('/').append(dataState).append('/').append(statusCode)
                .append(" '").append(statusText).append('\'');
        }
        if (Kind.REFRESH == kind)
        {
            out.append(solicited ? ", solicited" : ", unsolicited").append(complete ? ", complete" : "");
        }
        if (Kind.ACK == kind)
        {
            out.append(", ackId=").append(ackId).append(", nack=").append(nackCode).append(" '").append(ackText)
                .append('\'');
        }
        if (!fields.isEmpty())
        {
            out.append(", fields={");
            String separator = "";
            for (final Field field : fields.values())
            {
                out.append(separator).append(field.name().isEmpty() ? String.valueOf(field.fid()) : field.name())
                    .append('=').append(field);
                separator = ", ";
            }
            out.append('}');
        }
        else if (DataTypes.NO_DATA != payloadType)
        {
            out.append(", payload=").append(DataType.asString(payloadType));
        }
        return out.append('}').toString();
    }
}
