package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.Date;
import com.refinitiv.eta.codec.DateTime;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.EnumType;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKey;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.State;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.Time;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

/**
 * One RWF message as a real ETA 3.9.1.0 application sees it: header, state and key decoded by ETA's {@link Msg}, and
 * a FieldList payload (item domains) decoded entry by entry with the type the data dictionary gives each field id,
 * as ETA's own consumer example does. Typed accessors return exact values (REAL mantissa and hint, UINT, INT, ENUM
 * value and display, DATE, TIME, ASCII/RMTES text) and fail the test when a field is absent, blank or of another
 * type. Fields whose id the dictionary does not know are kept as raw bytes.
 */
public final class EtaMessage
{
    private final byte[] bytes;
    private final DataDictionary dictionary;
    private final int msgClass;
    private final int domainType;
    private final int streamId;
    private final int flags;
    private final int containerType;
    private final int updateType;
    private final int streamState;
    private final int dataState;
    private final int code;
    private final String text;
    private final int keyServiceId;
    private final String keyName;
    private final LinkedHashMap<Integer, Field> fields = new LinkedHashMap<>();

    private EtaMessage(final byte[] bytes, final DataDictionary dictionary)
    {
        this.bytes = bytes;
        this.dictionary = dictionary;
        final DecodeIterator it = iterator();
        final Msg msg = CodecFactory.createMsg();
        final int ret = msg.decode(it);
        assertEquals(CodecReturnCodes.SUCCESS, ret, () -> "ETA decodes the message: " + CodecReturnCodes.toString(ret));
        msgClass = msg.msgClass();
        domainType = msg.domainType();
        streamId = msg.streamId();
        flags = msg.flags();
        containerType = msg.containerType();
        updateType = MsgClasses.UPDATE == msgClass ? ((UpdateMsg)msg).updateType() : -1;
        final State state = state(msg);
        streamState = null == state ? -1 : state.streamState();
        dataState = null == state ? -1 : state.dataState();
        code = null == state ? -1 : state.code();
        text = null == state ? null : state.text().toString();
        final MsgKey key = hasKey(msg) ? msg.msgKey() : null;
        keyServiceId = null != key && 0 != (key.flags() & MsgKeyFlags.HAS_SERVICE_ID) ? key.serviceId() : -1;
        keyName = null != key && 0 != (key.flags() & MsgKeyFlags.HAS_NAME) ? key.name().toString() : null;
        if (DataTypes.FIELD_LIST == containerType && isItemDomain(domainType) &&
            (MsgClasses.REFRESH == msgClass || MsgClasses.UPDATE == msgClass || MsgClasses.GENERIC == msgClass))
        {
            decodeFields(it);
        }
    }

    /**
     * Decode a message with ETA, taking field types from a dictionary.
     *
     * @param bytes      one whole RWF message.
     * @param dictionary gives each field id its type.
     * @return the decoded message.
     */
    public static EtaMessage decode(final byte[] bytes, final DataDictionary dictionary)
    {
        return new EtaMessage(bytes, dictionary);
    }

    /**
     * Decode a message with ETA, taking field types from MDHub's shipped dictionary.
     *
     * @param bytes one whole RWF message.
     * @return the decoded message.
     */
    public static EtaMessage decode(final byte[] bytes)
    {
        return new EtaMessage(bytes, EtaDictionaries.bundled());
    }

    // ETA's one MsgImpl implements every message interface: dispatch on the class, never on instanceof
    private static State state(final Msg msg)
    {
        switch (msg.msgClass())
        {
            case MsgClasses.REFRESH:
                return ((RefreshMsg)msg).state();
            case MsgClasses.STATUS:
                return ((StatusMsg)msg).checkHasState() ? ((StatusMsg)msg).state() : null;
            default:
                return null;
        }
    }

    private static boolean hasKey(final Msg msg)
    {
        switch (msg.msgClass())
        {
            case MsgClasses.REFRESH:
                return ((RefreshMsg)msg).checkHasMsgKey();
            case MsgClasses.STATUS:
                return ((StatusMsg)msg).checkHasMsgKey();
            case MsgClasses.UPDATE:
                return ((UpdateMsg)msg).checkHasMsgKey();
            case MsgClasses.REQUEST:
                return true; // a RequestMsg always has a key
            default:
                return false;
        }
    }

    private static boolean isItemDomain(final int domainType)
    {
        return DomainTypes.LOGIN != domainType && DomainTypes.SOURCE != domainType &&
            DomainTypes.DICTIONARY != domainType;
    }

    private void decodeFields(final DecodeIterator it)
    {
        final FieldList list = CodecFactory.createFieldList();
        assertEquals(CodecReturnCodes.SUCCESS, list.decode(it, null), "ETA decodes the FieldList");
        final FieldEntry entry = CodecFactory.createFieldEntry();
        int ret;
        while (CodecReturnCodes.END_OF_CONTAINER != (ret = entry.decode(it)))
        {
            final int entryRet = ret;
            assertEquals(CodecReturnCodes.SUCCESS, entryRet, () -> "ETA decodes a FieldEntry: " +
                CodecReturnCodes.toString(entryRet));
            final int fid = entry.fieldId();
            final DictionaryEntry definition = dictionary.entry(fid);
            final Field field = null == definition ? new Field(fid, null, DataTypes.UNKNOWN) :
                new Field(fid, definition.acronym().toString(), definition.rwfType());
            field.encoded = copy(entry.encodedData());
            field.decode(it);
            fields.put(fid, field);
        }
    }

    private static byte[] copy(final Buffer buffer)
    {
        final byte[] out = new byte[buffer.length()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = buffer.data().get(buffer.position() + i);
        }
        return out;
    }

    // ------------------------------------------------------------------ header

    /**
     * @return the RWF bytes as received.
     */
    public byte[] bytes()
    {
        return bytes.clone();
    }

    /**
     * @return a new ETA decode iterator on the start of the message.
     */
    public DecodeIterator iterator()
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        return it;
    }

    /**
     * @return the message decoded anew by ETA (for members this class does not copy out).
     */
    public Msg msg()
    {
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(iterator()));
        return msg;
    }

    /**
     * @return {@link MsgClasses} value.
     */
    public int msgClass()
    {
        return msgClass;
    }

    /**
     * @return {@link DomainTypes} value.
     */
    public int domainType()
    {
        return domainType;
    }

    /**
     * @return the streamId.
     */
    public int streamId()
    {
        return streamId;
    }

    /**
     * @return the class-specific message flags.
     */
    public int flags()
    {
        return flags;
    }

    /**
     * @return the payload's container type ({@link DataTypes}).
     */
    public int containerType()
    {
        return containerType;
    }

    /**
     * @return an update's event type, or -1 for other classes.
     */
    public int updateType()
    {
        return updateType;
    }

    /**
     * @return the state's stream state, or -1 when the message has no state.
     */
    public int streamState()
    {
        return streamState;
    }

    /**
     * @return the state's data state, or -1.
     */
    public int dataState()
    {
        return dataState;
    }

    /**
     * @return the state's code, or -1.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the state's text, or null.
     */
    public String text()
    {
        return text;
    }

    /**
     * @return the msgKey's serviceId, or -1 without key or serviceId.
     */
    public int keyServiceId()
    {
        return keyServiceId;
    }

    /**
     * @return the msgKey's name, or null.
     */
    public String keyName()
    {
        return keyName;
    }

    /**
     * @return true for a REFRESH with SOLICITED.
     */
    public boolean isSolicited()
    {
        return MsgClasses.REFRESH == msgClass && 0 != (flags & RefreshMsgFlags.SOLICITED);
    }

    /**
     * @return true for a REFRESH with REFRESH_COMPLETE.
     */
    public boolean isRefreshComplete()
    {
        return MsgClasses.REFRESH == msgClass && 0 != (flags & RefreshMsgFlags.REFRESH_COMPLETE);
    }

    // ------------------------------------------------------------------ admin domains

    /**
     * @return the message decoded as a Login refresh by ETA's RDM helper.
     */
    public LoginRefresh loginRefresh()
    {
        assertEquals(MsgClasses.REFRESH, msgClass, this::toString);
        final DecodeIterator it = iterator();
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, msg), "ETA decodes the LoginRefresh");
        return refresh;
    }

    /**
     * @return the message decoded as a Source Directory refresh by ETA's RDM helper.
     */
    public DirectoryRefresh directoryRefresh()
    {
        assertEquals(MsgClasses.REFRESH, msgClass, this::toString);
        assertEquals(DomainTypes.SOURCE, domainType, this::toString);
        final DecodeIterator it = iterator();
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, msg), "ETA decodes the DirectoryRefresh");
        return refresh;
    }

    /**
     * @return the message decoded as a Source Directory update by ETA's RDM helper.
     */
    public DirectoryUpdate directoryUpdate()
    {
        assertEquals(MsgClasses.UPDATE, msgClass, this::toString);
        assertEquals(DomainTypes.SOURCE, domainType, this::toString);
        final DecodeIterator it = iterator();
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        assertEquals(CodecReturnCodes.SUCCESS, update.decode(it, msg), "ETA decodes the DirectoryUpdate");
        return update;
    }

    /**
     * @return the service names carried (INFO filter) by a directory refresh or update, in message order.
     */
    public List<String> serviceNames()
    {
        final List<Service> services = MsgClasses.REFRESH == msgClass ? directoryRefresh().serviceList() :
            directoryUpdate().serviceList();
        final List<String> names = new ArrayList<>();
        for (final Service service : services)
        {
            if (service.checkHasInfo())
            {
                names.add(service.info().serviceName().toString());
            }
        }
        return names;
    }

    // ------------------------------------------------------------------ fields

    /**
     * @return field ids of the FieldList in wire order (empty without one).
     */
    public List<Integer> fieldIds()
    {
        return Collections.unmodifiableList(new ArrayList<>(fields.keySet()));
    }

    /**
     * @param fid a field id.
     * @return true if the FieldList has the field.
     */
    public boolean has(final int fid)
    {
        return fields.containsKey(fid);
    }

    /**
     * @param fid a field id present in the message.
     * @return true if it is blank.
     */
    public boolean isBlank(final int fid)
    {
        return field(fid).isBlank;
    }

    /**
     * @param fid a field id present in the message.
     * @return the {@link DataTypes} it was decoded as (the dictionary's RWF type; UNKNOWN if not in the dictionary).
     */
    public int rwfType(final int fid)
    {
        return field(fid).rwfType;
    }

    /**
     * @param fid a field id present in the message.
     * @return its encoded value bytes (the FieldEntry payload).
     */
    public byte[] encoded(final int fid)
    {
        return field(fid).encoded.clone();
    }

    /**
     * @param fid a REAL field.
     * @return a copy of ETA's decoded Real (mantissa and hint).
     */
    public Real real(final int fid)
    {
        final Real copy = CodecFactory.createReal();
        ((Real)value(fid, DataTypes.REAL)).copy(copy);
        return copy;
    }

    /**
     * @param fid a REAL field.
     * @return its mantissa.
     */
    public long mantissa(final int fid)
    {
        return ((Real)value(fid, DataTypes.REAL)).toLong();
    }

    /**
     * @param fid a REAL field.
     * @return its hint ({@code RealHints}).
     */
    public int hint(final int fid)
    {
        return ((Real)value(fid, DataTypes.REAL)).hint();
    }

    /**
     * @return every non-blank REAL field: fid to mantissa, ordered by fid.
     */
    public Map<Integer, Long> mantissas()
    {
        final TreeMap<Integer, Long> out = new TreeMap<>();
        fields.values().forEach((f) ->
        {
            if (DataTypes.REAL == f.rwfType && !f.isBlank)
            {
                out.put(f.fid, ((Real)f.value).toLong());
            }
        });
        return out;
    }

    /**
     * @param fid a UINT field.
     * @return its value.
     */
    public long uint(final int fid)
    {
        return ((UInt)value(fid, DataTypes.UINT)).toLong();
    }

    /**
     * @param fid an INT field.
     * @return its value.
     */
    public long intValue(final int fid)
    {
        return ((Int)value(fid, DataTypes.INT)).toLong();
    }

    /**
     * @param fid an ENUM field.
     * @return its value.
     */
    public int enumValue(final int fid)
    {
        return ((Enum)value(fid, DataTypes.ENUM)).toInt();
    }

    /**
     * @param fid an ENUM field.
     * @return the display text the dictionary's enum table gives its value.
     */
    public String enumDisplay(final int fid)
    {
        final Enum value = (Enum)value(fid, DataTypes.ENUM);
        final EnumType type = dictionary.entryEnumType(dictionary.entry(fid), value);
        assertNotNull(type, () -> "no enum display for " + describe(field(fid)) + " = " + value.toInt());
        return type.display().toString();
    }

    /**
     * @param fid a DATE field.
     * @return its value.
     */
    public LocalDate date(final int fid)
    {
        final Date date = (Date)value(fid, DataTypes.DATE);
        return LocalDate.of(date.year(), date.month(), date.day());
    }

    /**
     * @param fid a TIME field.
     * @return its value, to the precision sent (milli-, micro- or nanoseconds).
     */
    public LocalTime time(final int fid)
    {
        return localTime((Time)value(fid, DataTypes.TIME));
    }

    /**
     * @param fid a DATETIME field.
     * @return its value.
     */
    public LocalDateTime dateTime(final int fid)
    {
        final DateTime dateTime = (DateTime)value(fid, DataTypes.DATETIME);
        return LocalDateTime.of(LocalDate.of(dateTime.year(), dateTime.month(), dateTime.day()),
            localTime(dateTime.time()));
    }

    private static LocalTime localTime(final Time time)
    {
        final int nanos = time.millisecond() * 1_000_000 + time.microsecond() * 1_000 + time.nanosecond();
        return LocalTime.of(time.hour(), time.minute(), time.second(), nanos);
    }

    /**
     * @param fid an ASCII_STRING field.
     * @return its text.
     */
    public String ascii(final int fid)
    {
        return new String((byte[])value(fid, DataTypes.ASCII_STRING), StandardCharsets.US_ASCII);
    }

    /**
     * @param fid an RMTES_STRING field holding plain text (no RMTES escape sequences).
     * @return its text.
     */
    public String rmtes(final int fid)
    {
        return new String((byte[])value(fid, DataTypes.RMTES_STRING), StandardCharsets.ISO_8859_1);
    }

    /**
     * @param fid an ASCII, RMTES (plain) or UTF8 string field.
     * @return its text.
     */
    public String string(final int fid)
    {
        final Field field = field(fid);
        assertFalse(field.isBlank, () -> describe(field) + " is blank in " + this);
        switch (field.rwfType)
        {
            case DataTypes.ASCII_STRING:
                return new String((byte[])field.value, StandardCharsets.US_ASCII);
            case DataTypes.RMTES_STRING:
                return new String((byte[])field.value, StandardCharsets.ISO_8859_1);
            case DataTypes.UTF8_STRING:
                return new String((byte[])field.value, StandardCharsets.UTF_8);
            default:
                throw new AssertionError(describe(field) + " is not a string field: " + this);
        }
    }

    private Field field(final int fid)
    {
        final Field field = fields.get(fid);
        assertNotNull(field, () -> "no field " + fid + " in " + this);
        return field;
    }

    private Object value(final int fid, final int rwfType)
    {
        final Field field = field(fid);
        assertEquals(DataTypes.toString(rwfType), DataTypes.toString(field.rwfType),
            () -> describe(field) + " has another type in the dictionary");
        assertFalse(field.isBlank, () -> describe(field) + " is blank in " + this);
        return field.value;
    }

    private static String describe(final Field field)
    {
        return (null == field.acronym ? "unknown field" : field.acronym) + " (" + field.fid + ")";
    }

    @Override
    public String toString()
    {
        final StringBuilder out = new StringBuilder("EtaMessage{class=").append(MsgClasses.toString(msgClass))
            .append(", domain=").append(DomainTypes.toString(domainType))
            .append(", stream=").append(streamId)
            .append(", flags=0x").append(Integer.toHexString(flags));
        if (-1 != streamState)
        {
            out.append(", state=").append(streamState).append('/').append(dataState).append('/').append(code)
                .append(" '").append(text).append('\'');
        }
        if (-1 != keyServiceId || null != keyName)
        {
            out.append(", key=").append(keyServiceId).append('/').append(keyName);
        }
        if (!fields.isEmpty())
        {
            out.append(", fields={");
            String separator = "";
            for (final Field field : fields.values())
            {
                out.append(separator).append(null == field.acronym ? String.valueOf(field.fid) : field.acronym)
                    .append('=').append(field);
                separator = ", ";
            }
            out.append('}');
        }
        return out.append('}').toString();
    }

    /**
     * One decoded FieldEntry.
     */
    private static final class Field
    {
        final int fid;
        final String acronym;
        final int rwfType;
        byte[] encoded;
        boolean isBlank;
        Object value;

        Field(final int fid, final String acronym, final int rwfType)
        {
            this.fid = fid;
            this.acronym = acronym;
            this.rwfType = rwfType;
        }

        void decode(final DecodeIterator it)
        {
            final int ret;
            switch (rwfType)
            {
                case DataTypes.REAL:
                    final Real real = CodecFactory.createReal();
                    ret = real.decode(it);
                    value = real;
                    break;
                case DataTypes.UINT:
                    final UInt uint = CodecFactory.createUInt();
                    ret = uint.decode(it);
                    value = uint;
                    break;
                case DataTypes.INT:
                    final Int integer = CodecFactory.createInt();
                    ret = integer.decode(it);
                    value = integer;
                    break;
                case DataTypes.ENUM:
                    final Enum enumValue = CodecFactory.createEnum();
                    ret = enumValue.decode(it);
                    value = enumValue;
                    break;
                case DataTypes.DATE:
                    final Date date = CodecFactory.createDate();
                    ret = date.decode(it);
                    value = date;
                    break;
                case DataTypes.TIME:
                    final Time time = CodecFactory.createTime();
                    ret = time.decode(it);
                    value = time;
                    break;
                case DataTypes.DATETIME:
                    final DateTime dateTime = CodecFactory.createDateTime();
                    ret = dateTime.decode(it);
                    value = dateTime;
                    break;
                case DataTypes.ASCII_STRING:
                case DataTypes.RMTES_STRING:
                case DataTypes.UTF8_STRING:
                case DataTypes.BUFFER:
                    final Buffer buffer = CodecFactory.createBuffer();
                    ret = buffer.decode(it);
                    value = copy(buffer);
                    break;
                default:
                    ret = 0 == encoded.length ? CodecReturnCodes.BLANK_DATA : CodecReturnCodes.SUCCESS;
                    value = encoded;
                    break;
            }
            isBlank = CodecReturnCodes.BLANK_DATA == ret;
            assertTrue(CodecReturnCodes.SUCCESS == ret || isBlank, () -> "ETA decodes field " + fid + " as " +
                DataTypes.toString(rwfType) + ": " + CodecReturnCodes.toString(ret));
        }

        @Override
        public String toString()
        {
            if (isBlank)
            {
                return "blank";
            }
            if (value instanceof byte[])
            {
                return '"' + new String((byte[])value, StandardCharsets.ISO_8859_1) + '"';
            }
            return value.toString();
        }
    }
}
