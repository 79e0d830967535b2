package io.mdhub.common.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataDictionary;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.GeneratedDictionary;

/**
 * The dictionary files a server is pointed at ({@code mdhub.dictionary.field.file} and
 * {@code mdhub.dictionary.enum.file}): read from the settings, both or neither, loaded exactly by ETA, and refused at
 * once, naming the file and ETA's reason, when missing or malformed.
 */
@InterruptAfter(30)
class DictionaryFilesTest
{
    @Test
    void theSettingsKeysNameTheFilesAndDefaultToNone()
    {
        assertEquals("", DictionaryConfiguration.fieldFile());
        assertEquals("", DictionaryConfiguration.enumFile());
        System.setProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME, " /opt/lseg/etc/RDMFieldDictionary ");
        System.setProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME, "/opt/lseg/etc/enumtype.def");
        try
        {
            assertEquals("/opt/lseg/etc/RDMFieldDictionary", DictionaryConfiguration.fieldFile());
            assertEquals("/opt/lseg/etc/enumtype.def", DictionaryConfiguration.enumFile());
        }
        finally
        {
            System.clearProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME);
            System.clearProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME);
        }
    }

    @Test
    void noFilesMeansTheBundledSubset()
    {
        final Supplier<DataDictionary> supplier = DictionaryLoader.supplier("", " ");
        final DataDictionary dictionary = supplier.get();
        DictionaryLoaderTest.assertMdHubEntries(dictionary);
        DictionaryLoaderTest.assertMdHubEnums(dictionary);
        assertNotSame(dictionary, supplier.get(), "one dictionary per caller");
    }

    @Test
    void generatedFullDictionaryLoadsExactly(@TempDir final Path dir)
    {
        final GeneratedDictionary generated = GeneratedDictionary.write(dir, 6_000);
        final Supplier<DataDictionary> supplier =
            DictionaryLoader.supplier(generated.fieldFile().toString(), generated.enumFile().toString());
        final DataDictionary first = supplier.get();
        generated.assertSameAs(first, true);
        final DataDictionary second = supplier.get();
        assertNotSame(first, second, "one dictionary per caller: ETA's encoder state is not shared");
        generated.assertSameAs(second, true);
    }

    @Test
    void oneFileWithoutTheOtherIsRefused(@TempDir final Path dir)
    {
        final GeneratedDictionary generated = GeneratedDictionary.write(dir, 400);
        final IllegalArgumentException onlyField = assertThrows(IllegalArgumentException.class,
            () -> DictionaryLoader.supplier(generated.fieldFile().toString(), ""));
        assertMentions(onlyField, DictionaryConfiguration.FIELD_FILE_PROP_NAME,
            DictionaryConfiguration.ENUM_FILE_PROP_NAME, generated.fieldFile().toString());
        final IllegalArgumentException onlyEnum = assertThrows(IllegalArgumentException.class,
            () -> DictionaryLoader.supplier("", generated.enumFile().toString()));
        assertMentions(onlyEnum, generated.enumFile().toString());
    }

    @Test
    void aMissingFileIsRefusedNamingIt(@TempDir final Path dir)
    {
        final GeneratedDictionary generated = GeneratedDictionary.write(dir, 400);
        final Path missing = dir.resolve("no-such-RDMFieldDictionary");
        assertMentions(assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.supplier(missing.toString(), generated.enumFile().toString())),
            "field dictionary", missing.toString(), "no such file");
        assertMentions(assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.supplier(generated.fieldFile().toString(), dir.toString())),
            "enum type dictionary", dir.toString(), "not a regular file");
    }

    @Test
    void aMalformedFileIsRefusedWithEtasReason(@TempDir final Path dir) throws IOException
    {
        final GeneratedDictionary generated = GeneratedDictionary.write(dir, 400);
        final Path badFields = dir.resolve("bad-RDMFieldDictionary");
        Files.writeString(badFields, Files.readString(generated.fieldFile())
            .replaceFirst(" REAL64 ", " BOGUS  ")); // the RWF TYPE column of the first price field
        assertMentions(assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.supplier(badFields.toString(), generated.enumFile().toString())),
            badFields.toString(), "Illegal Rwf Type 'BOGUS'");

        final Path duplicateValue = dir.resolve("duplicate-enumtype.def");
        final String enums = Files.readString(generated.enumFile());
        Files.writeString(duplicateValue, enums.replaceFirst("(?m)^ +1 ", "      0 "));
        assertMentions(assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.supplier(generated.fieldFile().toString(), duplicateValue.toString())),
            duplicateValue.toString(), "Duplicate value");

        final Path empty = dir.resolve("empty-RDMFieldDictionary");
        Files.writeString(empty, "!tag Type 1\n! nothing but comments\n");
        assertMentions(assertThrows(IllegalStateException.class,
            () -> DictionaryLoader.supplier(empty.toString(), generated.enumFile().toString())),
            empty.toString(), "defines no field");
    }

    private static void assertMentions(final RuntimeException ex, final String... texts)
    {
        for (final String text : texts)
        {
            assertTrue(ex.getMessage().contains(text), () -> "'" + text + "' in: " + ex.getMessage());
        }
    }
}
