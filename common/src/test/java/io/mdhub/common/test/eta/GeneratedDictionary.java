package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.codec.EnumType;
import com.refinitiv.eta.codec.EnumTypeTable;
import com.refinitiv.eta.codec.MfFieldTypes;

/**
 * A large data dictionary written for a test, in the two text formats ETA's {@link DataDictionary} loads: an
 * RDMFieldDictionary with thousands of fields (every Marketfeed field type and every RWF type the format names,
 * negative and positive FIDs, ripple chains) and an enumtype.def with hundreds of enum tables (some shared by two
 * fields, some with hexadecimal displays, one with thousands of values, larger than a dictionary refresh part). The
 * generator remembers what it wrote, so a test can check that a dictionary loaded from the files, or downloaded from
 * a server serving them, has exactly these fields and tables. Deterministic: the same arguments write the same files.
 */
public final class GeneratedDictionary
{
    /** The field dictionary's {@code !tag Version}, sent as the RWFFld refresh's Version. */
    public static final String FIELD_VERSION = "4.20.91";

    /** The enumtype.def's {@code !tag RT_Version}, sent as the RWFEnum refresh's RT_Version. */
    public static final String ENUM_RT_VERSION = "4.20.91";

    /** The enumtype.def's {@code !tag DT_Version}, sent as the RWFEnum refresh's DT_Version. */
    public static final String ENUM_DT_VERSION = "19.72";

    /** Values in the one large enum table. */
    public static final int LARGE_TABLE_VALUES = 2_400;

    private static final int NEGATIVE_FIDS = 150;

    /**
     * Field kinds, used in turn: Marketfeed type, length, enum length, RWF type name (as the file spells it), RWF
     * type, RWF length. ENUM comes twice so that about one field in thirteen has a table.
     */
    private static final Object[][] KINDS =
    {
        {"INTEGER", 15, 0, "UINT64", DataTypes.UINT, 8},
        {"INTEGER", 15, 0, "INT64", DataTypes.INT, 8},
        {"PRICE", 17, 0, "REAL64", DataTypes.REAL, 9},
        {"ENUMERATED", 3, 3, "ENUM", DataTypes.ENUM, 2},
        {"TIME", 5, 0, "TIME", DataTypes.TIME, 3},
        {"TIME_SECONDS", 8, 0, "TIME", DataTypes.TIME, 5},
        {"DATE", 11, 0, "DATE", DataTypes.DATE, 4},
        {"ALPHANUMERIC", 16, 0, "RMTES_STRING", DataTypes.RMTES_STRING, 16},
        {"ALPHANUMERIC", 10, 0, "ASCII_STRING", DataTypes.ASCII_STRING, 10},
        {"ENUMERATED", 12, 12, "ENUM", DataTypes.ENUM, 2},
        {"BINARY", 3, 0, "BUFFER", DataTypes.BUFFER, 3},
        {"NONE", 0, 0, "DATETIME", DataTypes.DATETIME, 11},
        {"NONE", 0, 0, "DOUBLE", DataTypes.DOUBLE, 8},
        {"NONE", 0, 0, "FLOAT", DataTypes.FLOAT, 4},
        {"NONE", 0, 0, "UTF8_STRING", DataTypes.UTF8_STRING, 0},
        {"NONE", 0, 0, "QOS", DataTypes.QOS, 0},
        {"NONE", 0, 0, "STATE", DataTypes.STATE, 0},
        {"NONE", 0, 0, "ARRAY", DataTypes.ARRAY, 0},
        {"NONE", 0, 0, "OPAQUE", DataTypes.OPAQUE, 0},
        {"NONE", 0, 0, "XML", DataTypes.XML, 0},
        {"NONE", 0, 0, "ANSI_PAGE", DataTypes.ANSI_PAGE, 0},
        {"NONE", 0, 0, "FIELD_LIST", DataTypes.FIELD_LIST, 0},
        {"NONE", 0, 0, "ELEMENT_LIST", DataTypes.ELEMENT_LIST, 0},
        {"NONE", 0, 0, "FILTER_LIST", DataTypes.FILTER_LIST, 0},
        {"NONE", 0, 0, "VECTOR", DataTypes.VECTOR, 0},
        {"NONE", 0, 0, "MAP", DataTypes.MAP, 0},
        {"NONE", 0, 0, "SERIES", DataTypes.SERIES, 0},
        {"NONE", 0, 0, "MSG", DataTypes.MSG, 0},
        {"NONE", 0, 0, "JSON", DataTypes.JSON, 0},
    };

    private final Path fieldFile;
    private final Path enumFile;
    private final List<Field> fields = new ArrayList<>();
    private final Map<Integer, Field> fieldByFid = new HashMap<>();
    private final List<Table> tables = new ArrayList<>();

    /**
     * One field as written.
     *
     * @param fid         field id.
     * @param acronym     name.
     * @param ddeAcronym  long name (the DDE ACRONYM column).
     * @param rippleTo    fid the field ripples to, 0 for none.
     * @param fieldType   {@link MfFieldTypes} value.
     * @param length      Marketfeed length.
     * @param enumLength  display length of an enumerated field, else 0.
     * @param rwfTypeName RWF type as the file spells it.
     * @param rwfType     {@link DataTypes} value ETA gives it.
     * @param rwfLength   RWF length.
     */
    public record Field(int fid, String acronym, String ddeAcronym, int rippleTo, int fieldType, int length,
        int enumLength, String rwfTypeName, int rwfType, int rwfLength)
    {
    }

    /**
     * One enum table as written.
     *
     * @param fids     the fields that use it, in file order.
     * @param displays display bytes by value.
     * @param meanings meaning by value.
     */
    public record Table(List<Integer> fids, SortedMap<Integer, byte[]> displays, Map<Integer, String> meanings)
    {
    }

    private GeneratedDictionary(final Path directory)
    {
        fieldFile = directory.resolve("RDMFieldDictionary");
        enumFile = directory.resolve("enumtype.def");
    }

    /**
     * Write an RDMFieldDictionary and an enumtype.def into a directory.
     *
     * @param directory  where the two files go.
     * @param fieldCount fields to define, at least a few hundred (150 of them get negative FIDs).
     * @return what was written.
     */
    public static GeneratedDictionary write(final Path directory, final int fieldCount)
    {
        final GeneratedDictionary dictionary = new GeneratedDictionary(directory);
        dictionary.generate(fieldCount);
        try
        {
            Files.writeString(dictionary.fieldFile, dictionary.fieldFileText(), StandardCharsets.US_ASCII);
            Files.writeString(dictionary.enumFile, dictionary.enumFileText(), StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return dictionary;
    }

    /**
     * @return the RDMFieldDictionary file.
     */
    public Path fieldFile()
    {
        return fieldFile;
    }

    /**
     * @return the enumtype.def file.
     */
    public Path enumFile()
    {
        return enumFile;
    }

    /**
     * @return every field, in file order.
     */
    public List<Field> fields()
    {
        return Collections.unmodifiableList(fields);
    }

    /**
     * @return every enum table, in file order.
     */
    public List<Table> tables()
    {
        return Collections.unmodifiableList(tables);
    }

    /**
     * @param fid a field id.
     * @return the field, or null.
     */
    public Field field(final int fid)
    {
        return fieldByFid.get(fid);
    }

    /**
     * @param rwfTypeName an RWF type as the file spells it ({@code "INT64"}, {@code "REAL64"}...).
     * @param above       the smallest FID acceptable, minus one.
     * @return the first field of that type with a FID above {@code above}.
     */
    public Field firstField(final String rwfTypeName, final int above)
    {
        for (final Field field : fields)
        {
            if (field.fid() > above && field.rwfTypeName().equals(rwfTypeName))
            {
                return field;
            }
        }
        throw new IllegalArgumentException("no " + rwfTypeName + " field above " + above);
    }

    /**
     * @return the table with {@link #LARGE_TABLE_VALUES} values.
     */
    public Table largeTable()
    {
        return tables.get(0);
    }

    /**
     * Assert that an ETA dictionary has exactly the generated fields and tables.
     *
     * @param dictionary   loaded from the files or downloaded.
     * @param withMeanings check the meanings too (loaded from the files; a download carries none).
     */
    public void assertSameAs(final DataDictionary dictionary, final boolean withMeanings)
    {
        assertEquals(fields.size(), dictionary.numberOfEntries(), "number of fields");
        assertEquals(-NEGATIVE_FIDS, dictionary.minFid(), "smallest FID");
        assertEquals(fields.get(fields.size() - 1).fid(), dictionary.maxFid(), "largest FID");
        assertEquals(FIELD_VERSION, dictionary.infoFieldVersion().toString(), "field dictionary Version");
        for (final Field field : fields)
        {
            final DictionaryEntry entry = dictionary.entry(field.fid());
            assertNotNull(entry, () -> "field " + field);
            final String what = "field " + field.fid() + " " + field.acronym();
            assertEquals(field.acronym(), entry.acronym().toString(), what);
            assertEquals(field.ddeAcronym(), entry.ddeAcronym().toString(), what);
            assertEquals(field.fid(), entry.fid(), what);
            assertEquals(field.rippleTo(), entry.rippleToField(), what);
            assertEquals(field.fieldType(), entry.fieldType(), what);
            assertEquals(field.length(), entry.length(), what);
            assertEquals(field.enumLength(), entry.enumLength(), what);
            assertEquals(field.rwfType(), entry.rwfType(), what);
            assertEquals(field.rwfLength(), entry.rwfLength(), what);
        }

        assertEquals(ENUM_RT_VERSION, dictionary.infoEnumRTVersion().toString(), "enum RT_Version");
        assertEquals(ENUM_DT_VERSION, dictionary.infoEnumDTVersion().toString(), "enum DT_Version");
        assertEquals(tables.size(), dictionary.enumTableCount(), "number of enum tables");
        for (int i = 0; i < tables.size(); i++)
        {
            final Table table = tables.get(i);
            final EnumTypeTable actual = dictionary.enumTables()[i];
            final String what = "enum table " + i + " of fields " + table.fids();
            assertEquals(table.displays().lastKey(), actual.maxValue(), what);
            assertArrayEquals(table.fids().stream().mapToInt(Integer::intValue).toArray(),
                Arrays.copyOf(actual.fidReferences(), actual.fidReferenceCount()), what);
            for (int value = 0; value <= actual.maxValue(); value++)
            {
                final EnumType type = actual.enumTypes()[value];
                final byte[] display = table.displays().get(value);
                if (null == display)
                {
                    assertNull(type, what + " value " + value);
                    continue;
                }
                assertNotNull(type, what + " value " + value);
                assertEquals(value, type.value(), what);
                assertArrayEquals(display, bytes(type.display()), what + " display of " + value);
                if (withMeanings)
                {
                    assertEquals(table.meanings().get(value), type.meaning().toString(), what + " meaning");
                }
            }
            for (final int fid : table.fids())
            {
                assertSame(actual, dictionary.entry(fid).enumTypeTable(), what + " used by field " + fid);
            }
        }
    }

    private static byte[] bytes(final Buffer buffer)
    {
        final byte[] bytes = new byte[buffer.length()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = buffer.data().get(buffer.position() + i);
        }
        return bytes;
    }

    // ------------------------------------------------------------------ generation

    private void generate(final int fieldCount)
    {
        final int positives = fieldCount - NEGATIVE_FIDS;
        final int[] fids = new int[fieldCount];
        for (int i = 0; i < NEGATIVE_FIDS; i++)
        {
            fids[i] = i - NEGATIVE_FIDS; // -150 .. -1
        }
        for (int i = 0; i < positives; i++)
        {
            fids[NEGATIVE_FIDS + i] = 1 + i * 5 + (i % 3); // gaps, as in a real dictionary
        }
        if (fids[fieldCount - 1] > Short.MAX_VALUE)
        {
            throw new IllegalArgumentException("too many fields for the FID range: " + fieldCount);
        }

        final String[] acronyms = new String[fieldCount];
        for (int i = 0; i < fieldCount; i++)
        {
            final Object[] kind = KINDS[i % KINDS.length];
            acronyms[i] = "G" + ((String)kind[3]).replace("_", "") + (fids[i] < 0 ? "_N" + -fids[i] : "_" + fids[i]);
        }
        for (int i = 0; i < fieldCount; i++)
        {
            final Object[] kind = KINDS[i % KINDS.length];
            // a price ripples to the next price (defined later); every 50th field to the field after it
            int rippleTo = 0;
            if (i + 1 < fieldCount && 0 == i % 50)
            {
                rippleTo = fids[i + 1];
            }
            else if ("REAL64".equals(kind[3]) && i + KINDS.length < fieldCount && 0 == (i / KINDS.length) % 3)
            {
                rippleTo = fids[i + KINDS.length];
            }
            final Field field = new Field(fids[i], acronyms[i],
                ((String)kind[3]).replace('_', ' ') + " FIELD " + fids[i], rippleTo, mfType((String)kind[0]),
                (int)kind[1], (int)kind[2], (String)kind[3], (int)kind[4], (int)kind[5]);
            fields.add(field);
            fieldByFid.put(field.fid(), field);
        }

        // enum tables: the fields of type ENUM in pairs, each pair sharing a table; the first table is large
        final List<Integer> enumFids = new ArrayList<>();
        for (final Field field : fields)
        {
            if (DataTypes.ENUM == field.rwfType())
            {
                enumFids.add(field.fid());
            }
        }
        for (int t = 0; 2 * t < enumFids.size(); t++)
        {
            final List<Integer> users = 2 * t + 1 < enumFids.size() ?
                List.of(enumFids.get(2 * t), enumFids.get(2 * t + 1)) : List.of(enumFids.get(2 * t));
            final SortedMap<Integer, byte[]> displays = new TreeMap<>();
            final Map<Integer, String> meanings = new HashMap<>();
            final int values = 0 == t ? LARGE_TABLE_VALUES : 2 + (t * 7) % 60;
            for (int v = 0; v < values; v++)
            {
                final int value = 0 == t ? v : v * (1 + t % 4); // gaps in most tables
                final byte[] display = 3 == t % 10 && 1 == v ?
                    new byte[]{(byte)0xDE, (byte)t} : // a hexadecimal display, as the tick arrows
                    ("T" + t + "V" + value).getBytes(StandardCharsets.US_ASCII);
                displays.put(value, display);
                meanings.put(value, "Value " + value + " of table " + t);
            }
            tables.add(new Table(users, displays, meanings));
        }
    }

    private static int mfType(final String name)
    {
        switch (name)
        {
            case "INTEGER":
                return MfFieldTypes.INTEGER;
            case "PRICE":
                return MfFieldTypes.PRICE;
            case "ENUMERATED":
                return MfFieldTypes.ENUMERATED;
            case "TIME":
                return MfFieldTypes.TIME;
            case "TIME_SECONDS":
                return MfFieldTypes.TIME_SECONDS;
            case "DATE":
                return MfFieldTypes.DATE;
            case "ALPHANUMERIC":
                return MfFieldTypes.ALPHANUMERIC;
            case "BINARY":
                return MfFieldTypes.BINARY;
            case "NONE":
                return MfFieldTypes.NONE;
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private String fieldFileText()
    {
        final StringBuilder out = new StringBuilder(fields.size() * 110);
        out.append("!tag Filename  RWF.DAT\n")
            .append("!tag Desc      Generated field dictionary for MDHub tests\n")
            .append("!tag Type      1\n")
            .append("!tag Version   ").append(FIELD_VERSION).append('\n')
            .append("!tag Build     7\n")
            .append("!tag Date      2025-06-30\n")
            .append("!\n")
            .append("!ACRONYM    DDE ACRONYM          FID  RIPPLES TO  FIELD TYPE     LENGTH  RWF TYPE   RWF LEN\n")
            .append("!-------    -----------          ---  ----------  ----------     ------  --------   -------\n")
            .append("!\n");
        for (final Field field : fields)
        {
            final String rippleTo = 0 == field.rippleTo() ? "NULL" : field(field.rippleTo()).acronym();
            final String length = MfFieldTypes.ENUMERATED == field.fieldType() ?
                field.length() + " ( " + field.enumLength() + " )" : Integer.toString(field.length());
            final String type = fieldTypeName(field);
            out.append(String.format("%-14s %-24s %6d  %-14s %-12s %9s  %-14s %3d\n", field.acronym(),
                "\"" + field.ddeAcronym() + "\"", field.fid(), rippleTo, type, length, field.rwfTypeName(),
                field.rwfLength()));
            if (0 == field.fid() % 97)
            {
                out.append("! a comment line, as the real file has after many fields\n");
            }
        }
        return out.toString();
    }

    private static String fieldTypeName(final Field field)
    {
        switch (field.fieldType())
        {
            case MfFieldTypes.INTEGER:
                return "INTEGER";
            case MfFieldTypes.PRICE:
                return "PRICE";
            case MfFieldTypes.ENUMERATED:
                return "ENUMERATED";
            case MfFieldTypes.TIME:
                return "TIME";
            case MfFieldTypes.TIME_SECONDS:
                return "TIME_SECONDS";
            case MfFieldTypes.DATE:
                return "DATE";
            case MfFieldTypes.ALPHANUMERIC:
                return "ALPHANUMERIC";
            case MfFieldTypes.BINARY:
                return "BINARY";
            default:
                return "NONE";
        }
    }

    private String enumFileText()
    {
        final StringBuilder out = new StringBuilder(LARGE_TABLE_VALUES * 60 + tables.size() * 1200);
        out.append("!tag Filename    ENUMTYPE.001\n")
            .append("!tag Desc        Generated enumerated types for MDHub tests\n")
            .append("!tag RT_Version  ").append(ENUM_RT_VERSION).append('\n')
            .append("!tag DT_Version  ").append(ENUM_DT_VERSION).append('\n')
            .append("!tag Date        2025-06-30\n")
            .append("!\n");
        for (final Table table : tables)
        {
            out.append("! ACRONYM    FID\n! -------    ---\n");
            for (final int fid : table.fids())
            {
                out.append(String.format("%-14s %6d\n", field(fid).acronym(), fid));
            }
            out.append("!\n! VALUE      DISPLAY   MEANING\n! -----      -------   -------\n");
            for (final Map.Entry<Integer, byte[]> value : table.displays().entrySet())
            {
                out.append(String.format("%7d      %-12s %s\n", value.getKey(), display(value.getValue()),
                    table.meanings().get(value.getKey())));
            }
            out.append("!\n");
        }
        return out.toString();
    }

    private static String display(final byte[] display)
    {
        boolean printable = true;
        for (final byte b : display)
        {
            printable &= b >= 0x20 && b < 0x7F && b != '"';
        }
        if (printable)
        {
            return "\"" + new String(display, StandardCharsets.US_ASCII) + "\"";
        }
        final StringBuilder hex = new StringBuilder("#");
        for (final byte b : display)
        {
            hex.append(String.format("%02X", b & 0xFF));
        }
        return hex.append('#').toString();
    }
}
