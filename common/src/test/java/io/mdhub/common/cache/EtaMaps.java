package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntry;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MapFlags;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.UInt;

/**
 * Builds RWF Maps with ETA's own encoder and reads them back with ETA's decoder: the oracle for the Map flyweight
 * and the Map image, and the payload builder for the real ETA provider of the harness (MarketByPrice, MarketByOrder).
 * Keys are BUFFER (a text) or UINT; entry payloads are pre-encoded (usually with {@link EtaFieldLists}).
 * {@link #decode(byte[])} gives every entry with its action, key, permission data and payload, and
 * {@link Decoded#fieldsByKey()} the FieldList of each entry as field id to value bytes (hex), to compare with a model
 * of the expected entries.
 */
public final class EtaMaps
{
    private final ByteBuffer data = ByteBuffer.allocate(65_536 * 4);
    private final Buffer buffer = CodecFactory.createBuffer();
    private final EncodeIterator iterator = CodecFactory.createEncodeIterator();
    private final com.refinitiv.eta.codec.Map map = CodecFactory.createMap();
    private final MapEntry entry = CodecFactory.createMapEntry();
    private int keyPrimitiveType;

    /**
     * Start a Map of FieldLists keyed by BUFFER, without summary data.
     *
     * @return this.
     */
    public EtaMaps begin()
    {
        return begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, false);
    }

    /**
     * Start a Map.
     *
     * @param keyPrimitiveType BUFFER or UINT.
     * @param containerType    the entries' container (FIELD_LIST, ELEMENT_LIST, NO_DATA...).
     * @param keyFieldId       the keys' field id, or -1 for none.
     * @param summary          pre-encoded summary data (of the entries' container), or null.
     * @param perEntryPerm     whether entries may carry permission data.
     * @return this.
     */
    public EtaMaps begin(
        final int keyPrimitiveType,
        final int containerType,
        final int keyFieldId,
        final byte[] summary,
        final boolean perEntryPerm)
    {
        this.keyPrimitiveType = keyPrimitiveType;
        data.clear();
        buffer.data(data);
        iterator.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        map.clear();
        int flags = 0;
        if (keyFieldId >= 0)
        {
            flags |= MapFlags.HAS_KEY_FIELD_ID;
            map.keyFieldId(keyFieldId);
        }
        if (null != summary)
        {
            flags |= MapFlags.HAS_SUMMARY_DATA;
            map.encodedSummaryData(wrap(summary));
        }
        if (perEntryPerm)
        {
            flags |= MapFlags.HAS_PER_ENTRY_PERM_DATA;
        }
        map.flags(flags);
        map.keyPrimitiveType(keyPrimitiveType);
        map.containerType(containerType);
        assertEquals(CodecReturnCodes.SUCCESS, map.encodeInit(iterator, 0, 0), "ETA Map encodeInit");
        return this;
    }

    /**
     * @param key     a BUFFER key.
     * @param payload the entry's encoded container.
     * @return this.
     */
    public EtaMaps add(final String key, final byte[] payload)
    {
        return entry(MapEntryActions.ADD, key, null, payload);
    }

    /**
     * @param key     a BUFFER key.
     * @param payload the fields to change.
     * @return this.
     */
    public EtaMaps update(final String key, final byte[] payload)
    {
        return entry(MapEntryActions.UPDATE, key, null, payload);
    }

    /**
     * @param key a BUFFER key.
     * @return this.
     */
    public EtaMaps delete(final String key)
    {
        return entry(MapEntryActions.DELETE, key, null, null);
    }

    /**
     * One entry.
     *
     * @param action  MapEntryActions value.
     * @param key     the key: a text for BUFFER keys, a decimal number for UINT keys.
     * @param perm    permission data, or null.
     * @param payload the entry's encoded container, or null (DELETE, NO_DATA maps).
     * @return this.
     */
    public EtaMaps entry(final int action, final String key, final byte[] perm, final byte[] payload)
    {
        entry.clear();
        entry.action(action);
        if (null != perm)
        {
            entry.applyHasPermData();
            entry.permData(wrap(perm));
        }
        if (null != payload)
        {
            entry.encodedData(wrap(payload));
        }
        final int ret;
        if (DataTypes.UINT == keyPrimitiveType)
        {
            final UInt value = CodecFactory.createUInt();
            value.value(Long.parseLong(key));
            ret = entry.encode(iterator, value);
        }
        else
        {
            ret = entry.encode(iterator, wrap(key.getBytes(StandardCharsets.US_ASCII)));
        }
        assertEquals(CodecReturnCodes.SUCCESS, ret, () -> "ETA MapEntry encode: " + CodecReturnCodes.toString(ret));
        return this;
    }

    /**
     * @return the encoded Map.
     */
    public byte[] end()
    {
        assertEquals(CodecReturnCodes.SUCCESS, map.encodeComplete(iterator, true), "ETA Map encodeComplete");
        final byte[] out = new byte[data.position()];
        data.get(0, out);
        return out;
    }

    private static Buffer wrap(final byte[] bytes)
    {
        final Buffer etaBuffer = CodecFactory.createBuffer();
        etaBuffer.data(ByteBuffer.wrap(bytes));
        return etaBuffer;
    }

    private static byte[] bytes(final Buffer etaBuffer)
    {
        final byte[] out = new byte[etaBuffer.length()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = etaBuffer.data().get(etaBuffer.position() + i);
        }
        return out;
    }

    /**
     * @param bytes bytes.
     * @return lower-case hex.
     */
    public static String hex(final byte[] bytes)
    {
        final StringBuilder out = new StringBuilder(bytes.length * 2);
        for (final byte b : bytes)
        {
            out.append(Character.forDigit((b >>> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.toString();
    }

    /**
     * Decode the payload of a whole RWF message as a Map, with ETA.
     *
     * @param message one RWF message whose container is a Map.
     * @return the Map.
     */
    public static Decoded decodePayload(final byte[] message)
    {
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        final Buffer source = wrap(message);
        it.setBufferAndRWFVersion(source, Codec.majorVersion(), Codec.minorVersion());
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it), "ETA decodes the message");
        assertEquals(DataTypes.MAP, msg.containerType(), "the payload is a Map");
        return decode(bytes(msg.encodedDataBody()));
    }

    /**
     * Decode a Map with ETA.
     *
     * @param bytes the encoded Map.
     * @return its header and entries in wire order.
     */
    public static Decoded decode(final byte[] bytes)
    {
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(wrap(bytes), Codec.majorVersion(), Codec.minorVersion());
        final com.refinitiv.eta.codec.Map decoded = CodecFactory.createMap();
        assertEquals(CodecReturnCodes.SUCCESS, decoded.decode(it), "ETA Map decode");
        final Decoded out = new Decoded(decoded.flags(), decoded.keyPrimitiveType(), decoded.containerType(),
            decoded.checkHasKeyFieldId() ? decoded.keyFieldId() : -1,
            decoded.checkHasSummaryData() ? bytes(decoded.encodedSummaryData()) : null);
        final MapEntry mapEntry = CodecFactory.createMapEntry();
        int ret;
        while (CodecReturnCodes.END_OF_CONTAINER != (ret = mapEntry.decode(it, null)))
        {
            final int entryRet = ret;
            assertEquals(CodecReturnCodes.SUCCESS, entryRet, () -> "ETA MapEntry decode: " +
                CodecReturnCodes.toString(entryRet));
            final byte[] key = bytes(mapEntry.encodedKey());
            final String keyText;
            if (DataTypes.UINT == decoded.keyPrimitiveType())
            {
                final DecodeIterator keyIt = CodecFactory.createDecodeIterator();
                keyIt.setBufferAndRWFVersion(wrap(key), Codec.majorVersion(), Codec.minorVersion());
                final UInt value = CodecFactory.createUInt();
                assertEquals(CodecReturnCodes.SUCCESS, value.decode(keyIt), "ETA UInt key decode");
                keyText = Long.toString(value.toLong());
            }
            else
            {
                keyText = new String(key, StandardCharsets.US_ASCII);
            }
            out.entries.add(new Entry(mapEntry.action(), keyText,
                mapEntry.checkHasPermData() ? bytes(mapEntry.permData()) : null, bytes(mapEntry.encodedData())));
        }
        return out;
    }

    /**
     * @param fieldList an encoded FieldList.
     * @return field id to value bytes in hex, sorted by field id (order-insensitive comparison).
     */
    public static Map<Integer, String> fields(final byte[] fieldList)
    {
        final Map<Integer, String> out = new TreeMap<>();
        EtaFieldLists.decode(fieldList).forEach((fid, value) -> out.put(fid, hex(value)));
        return out;
    }

    /**
     * A Map as ETA decoded it.
     */
    public static final class Decoded
    {
        public final int flags;
        public final int keyPrimitiveType;
        public final int containerType;
        public final int keyFieldId;
        public final byte[] summary;
        public final List<Entry> entries = new ArrayList<>();

        Decoded(
            final int flags,
            final int keyPrimitiveType,
            final int containerType,
            final int keyFieldId,
            final byte[] summary)
        {
            this.flags = flags;
            this.keyPrimitiveType = keyPrimitiveType;
            this.containerType = containerType;
            this.keyFieldId = keyFieldId;
            this.summary = summary;
        }

        /**
         * @return each entry's FieldList as {@link #fields(byte[])}, by key, sorted by key.
         */
        public Map<String, Map<Integer, String>> fieldsByKey()
        {
            final Map<String, Map<Integer, String>> out = new TreeMap<>();
            for (final Entry mapEntry : entries)
            {
                out.put(mapEntry.key, fields(mapEntry.payload));
            }
            return out;
        }

        @Override
        public String toString()
        {
            final Map<String, String> byKey = new LinkedHashMap<>();
            entries.forEach((e) -> byKey.put(e.key, MapEntryActions.toString(e.action) + " " + hex(e.payload)));
            return "Map{keyType=" + keyPrimitiveType + ", container=" + containerType + ", entries=" + byKey + "}";
        }
    }

    /**
     * One entry as ETA decoded it.
     */
    public static final class Entry
    {
        public final int action;
        public final String key;
        public final byte[] perm;
        public final byte[] payload;

        Entry(final int action, final String key, final byte[] perm, final byte[] payload)
        {
            this.action = action;
            this.key = key;
            this.perm = perm;
            this.payload = payload;
        }
    }
}
