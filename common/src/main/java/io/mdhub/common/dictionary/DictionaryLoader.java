package io.mdhub.common.dictionary;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.TransportFactory;

/**
 * Builds an ETA {@link DataDictionary} from MDHub's bundled dictionary files or from files the user names. ETA loads
 * only from a file path, so the bundled resources are copied to a temporary file that is deleted right after. Runs at
 * start-up, never on a hot path; failures throw with ETA's own error text.
 */
public final class DictionaryLoader
{
    /** Class-path resource of MDHub's field dictionary (RDMFieldDictionary format). */
    public static final String FIELD_DICTIONARY_RESOURCE = "/io/mdhub/common/dictionary/RDMFieldDictionary";

    /** Class-path resource of MDHub's enumerated types (enumtype.def format). */
    public static final String ENUM_TYPE_DICTIONARY_RESOURCE = "/io/mdhub/common/dictionary/enumtype.def";

    /** Name under which the field dictionary is downloaded (Dictionary domain). */
    public static final String FIELD_DICTIONARY_NAME = "RWFFld";

    /** Name under which the enumerated types are downloaded (Dictionary domain). */
    public static final String ENUM_TYPE_DICTIONARY_NAME = "RWFEnum";

    private DictionaryLoader()
    {
    }

    /**
     * @return a dictionary with MDHub's bundled fields and enumerated types.
     */
    public static DataDictionary loadBundled()
    {
        final DataDictionary dictionary = CodecFactory.createDataDictionary();
        loadFieldResource(dictionary, FIELD_DICTIONARY_RESOURCE);
        loadEnumTypeResource(dictionary, ENUM_TYPE_DICTIONARY_RESOURCE);
        return dictionary;
    }

    /**
     * @param fieldDictionary    path of an RDMFieldDictionary file.
     * @param enumTypeDictionary path of an enumtype.def file.
     * @return a dictionary loaded from the two files.
     */
    public static DataDictionary load(final Path fieldDictionary, final Path enumTypeDictionary)
    {
        final DataDictionary dictionary = CodecFactory.createDataDictionary();
        loadFieldFile(dictionary, fieldDictionary);
        loadEnumTypeFile(dictionary, enumTypeDictionary);
        return dictionary;
    }

    /**
     * Add the fields of an RDMFieldDictionary file.
     *
     * @param dictionary to add to.
     * @param path       of the file.
     */
    public static void loadFieldFile(final DataDictionary dictionary, final Path path)
    {
        final Error error = TransportFactory.createError();
        if (dictionary.loadFieldDictionary(path.toString(), error) < CodecReturnCodes.SUCCESS)
        {
            throw new IllegalStateException("cannot load field dictionary " + path + ": " + error.text());
        }
    }

    /**
     * Add the tables of an enumtype.def file.
     *
     * @param dictionary to add to.
     * @param path       of the file.
     */
    public static void loadEnumTypeFile(final DataDictionary dictionary, final Path path)
    {
        final Error error = TransportFactory.createError();
        if (dictionary.loadEnumTypeDictionary(path.toString(), error) < CodecReturnCodes.SUCCESS)
        {
            throw new IllegalStateException("cannot load enum type dictionary " + path + ": " + error.text());
        }
    }

    /**
     * Add the fields of an RDMFieldDictionary class-path resource.
     *
     * @param dictionary to add to.
     * @param resource   absolute resource name.
     */
    public static void loadFieldResource(final DataDictionary dictionary, final String resource)
    {
        final Path file = extract(resource);
        try
        {
            loadFieldFile(dictionary, file);
        }
        finally
        {
            deleteQuietly(file);
        }
    }

    /**
     * Add the tables of an enumtype.def class-path resource.
     *
     * @param dictionary to add to.
     * @param resource   absolute resource name.
     */
    public static void loadEnumTypeResource(final DataDictionary dictionary, final String resource)
    {
        final Path file = extract(resource);
        try
        {
            loadEnumTypeFile(dictionary, file);
        }
        finally
        {
            deleteQuietly(file);
        }
    }

    private static Path extract(final String resource)
    {
        try (InputStream in = DictionaryLoader.class.getResourceAsStream(resource))
        {
            if (null == in)
            {
                throw new IllegalStateException("dictionary resource not found: " + resource);
            }
            final Path file = Files.createTempFile("mdhub-dictionary-", ".txt");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot extract dictionary resource " + resource, ex);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            file.toFile().deleteOnExit();
        }
    }
}
