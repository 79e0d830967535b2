package io.mdhub.common.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.codec.Enum;
import com.refinitiv.eta.codec.EnumType;

import io.mdhub.common.test.InterruptAfter;

/**
 * MDHub's own dictionary files load into ETA and give the public acronyms and RWF types.
 */
@InterruptAfter(10)
public class DictionaryLoaderTest
{
    /** fid, acronym, RWF type, ripples-to fid (0 = none). */
    static final Object[][] EXPECTED =
    {
        {FieldIds.PROD_PERM, "PROD_PERM", DataTypes.UINT, 0},
        {FieldIds.RDNDISPLAY, "RDNDISPLAY", DataTypes.UINT, 0},
        {FieldIds.DSPLY_NAME, "DSPLY_NAME", DataTypes.RMTES_STRING, 0},
        {FieldIds.RDN_EXCHID, "RDN_EXCHID", DataTypes.ENUM, 0},
        {FieldIds.TIMACT, "TIMACT", DataTypes.TIME, 0},
        {FieldIds.TRDPRC_1, "TRDPRC_1", DataTypes.REAL, FieldIds.TRDPRC_2},
        {FieldIds.TRDPRC_2, "TRDPRC_2", DataTypes.REAL, FieldIds.TRDPRC_3},
        {FieldIds.TRDPRC_3, "TRDPRC_3", DataTypes.REAL, FieldIds.TRDPRC_4},
        {FieldIds.TRDPRC_4, "TRDPRC_4", DataTypes.REAL, FieldIds.TRDPRC_5},
        {FieldIds.TRDPRC_5, "TRDPRC_5", DataTypes.REAL, 0},
        {FieldIds.NETCHNG_1, "NETCHNG_1", DataTypes.REAL, 0},
        {FieldIds.HIGH_1, "HIGH_1", DataTypes.REAL, 0},
        {FieldIds.LOW_1, "LOW_1", DataTypes.REAL, 0},
        {FieldIds.PRCTCK_1, "PRCTCK_1", DataTypes.ENUM, 0},
        {FieldIds.CURRENCY, "CURRENCY", DataTypes.ENUM, 0},
        {FieldIds.TRADE_DATE, "TRADE_DATE", DataTypes.DATE, 0},
        {FieldIds.ACTIV_DATE, "ACTIV_DATE", DataTypes.DATE, 0},
        {FieldIds.TRDTIM_1, "TRDTIM_1", DataTypes.TIME, 0},
        {FieldIds.OPEN_PRC, "OPEN_PRC", DataTypes.REAL, 0},
        {FieldIds.HST_CLOSE, "HST_CLOSE", DataTypes.REAL, 0},
        {FieldIds.BID, "BID", DataTypes.REAL, FieldIds.BID_1},
        {FieldIds.BID_1, "BID_1", DataTypes.REAL, FieldIds.BID_2},
        {FieldIds.BID_2, "BID_2", DataTypes.REAL, 0},
        {FieldIds.ASK, "ASK", DataTypes.REAL, FieldIds.ASK_1},
        {FieldIds.ASK_1, "ASK_1", DataTypes.REAL, FieldIds.ASK_2},
        {FieldIds.ASK_2, "ASK_2", DataTypes.REAL, 0},
        {FieldIds.BIDSIZE, "BIDSIZE", DataTypes.REAL, 0},
        {FieldIds.ASKSIZE, "ASKSIZE", DataTypes.REAL, 0},
        {FieldIds.ACVOL_1, "ACVOL_1", DataTypes.REAL, 0},
        {FieldIds.PCTCHNG, "PCTCHNG", DataTypes.REAL, 0},
        {FieldIds.NUM_MOVES, "NUM_MOVES", DataTypes.REAL, 0},
        {FieldIds.HSTCLSDATE, "HSTCLSDATE", DataTypes.DATE, 0},
        {FieldIds.TURNOVER, "TURNOVER", DataTypes.REAL, 0},
        {FieldIds.TRDVOL_1, "TRDVOL_1", DataTypes.REAL, 0},
        {FieldIds.BID_TIME, "BID_TIME", DataTypes.TIME, 0},
        {FieldIds.ASK_TIME, "ASK_TIME", DataTypes.TIME, 0},
        {FieldIds.QUOTIM, "QUOTIM", DataTypes.TIME, 0},
        {FieldIds.MDH_UPDSEQ, "MDH_UPDSEQ", DataTypes.UINT, 0},
        {FieldIds.MDH_ORGTIM, "MDH_ORGTIM", DataTypes.INT, 0},
    };

    public static void assertMdHubEntries(final DataDictionary dictionary)
    {
        assertEquals(EXPECTED.length, dictionary.numberOfEntries());
        for (final Object[] row : EXPECTED)
        {
            final DictionaryEntry entry = dictionary.entry((Integer)row[0]);
            assertNotNull(entry, "fid " + row[0]);
            assertEquals(row[1], entry.acronym().toString(), "fid " + row[0]);
            assertEquals(row[2], entry.rwfType(), "rwf type of " + row[1]);
            assertEquals(row[3], entry.rippleToField(), "ripple of " + row[1]);
        }
        assertNull(dictionary.entry(20), "fid 20 is not defined");
    }

    public static void assertMdHubEnums(final DataDictionary dictionary)
    {
        assertEquals("NYS", display(dictionary, FieldIds.RDN_EXCHID, 2));
        assertEquals("LSE", display(dictionary, FieldIds.RDN_EXCHID, 64));
        assertEquals("USD", display(dictionary, FieldIds.CURRENCY, 840));
        assertEquals("GBP", display(dictionary, FieldIds.CURRENCY, 826));
        assertEquals("EUR", display(dictionary, FieldIds.CURRENCY, 978));
        assertEquals(0xDE, display(dictionary, FieldIds.PRCTCK_1, 1).charAt(0) & 0xFF);
        assertEquals(3, dictionary.enumTableCount());
    }

    private static String display(final DataDictionary dictionary, final int fid, final int value)
    {
        final Enum enumValue = CodecFactory.createEnum();
        enumValue.value(value);
        final EnumType type = dictionary.entryEnumType(dictionary.entry(fid), enumValue);
        assertNotNull(type, "enum " + value + " of fid " + fid);
        final byte[] bytes = new byte[type.display().length()];
        type.display().copy(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Test
    void bundledDictionaryLoadsIntoEta()
    {
        final DataDictionary dictionary = DictionaryLoader.loadBundled();
        assertMdHubEntries(dictionary);
        assertMdHubEnums(dictionary);
        assertEquals(1, dictionary.infoDictionaryId());
    }

    @Test
    void acronymsHaveTheirBytesOnceSoReadingThemAllocatesNothing()
    {
        final DataDictionary dictionary = DictionaryLoader.loadBundled();
        final Buffer bid = dictionary.entry(FieldIds.BID).acronym();
        assertEquals("BID", bid.toString());
        assertSame(bid.data(), bid.data(), "the same bytes every time, not a copy");
        assertEquals(FieldIds.BID, dictionary.entry("BID").fid(), "lookups by name are as before");
    }

    @Test
    void loadsUserSuppliedFiles(@TempDir final Path dir) throws IOException
    {
        final Path fields = dir.resolve("RDMFieldDictionary");
        final Path enums = dir.resolve("enumtype.def");
        copy(DictionaryLoader.FIELD_DICTIONARY_RESOURCE, fields);
        copy(DictionaryLoader.ENUM_TYPE_DICTIONARY_RESOURCE, enums);
        final DataDictionary dictionary = DictionaryLoader.load(fields, enums);
        assertMdHubEntries(dictionary);
        assertMdHubEnums(dictionary);
    }

    @Test
    void reportsEtaErrorText(@TempDir final Path dir) throws IOException
    {
        final Path broken = dir.resolve("broken");
        Files.writeString(broken, "BID \"BID\" 22 NULL PRICE 17 NOT_A_TYPE 7\n");
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.loadFieldFile(CodecFactory.createDataDictionary(), broken));
        assertTrue(ex.getMessage().contains("broken"), ex.getMessage());
        assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.loadFieldFile(CodecFactory.createDataDictionary(), dir.resolve("missing")));
    }

    private static void copy(final String resource, final Path target) throws IOException
    {
        try (InputStream in = DictionaryLoader.class.getResourceAsStream(resource))
        {
            Files.copy(in, target);
        }
    }
}
