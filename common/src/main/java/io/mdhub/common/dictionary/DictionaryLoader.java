package io.mdhub.common.dictionary;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DictionaryEntry;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.TransportFactory;

/**
 * Builds an ETA {@link DataDictionary} from MDHub's bundled dictionary files or from files the user names (for
 * example the full RDMFieldDictionary and enumtype.def of an LSEG installation, see {@link DictionaryConfiguration}).
 * ETA loads only from a file path, so the bundled resources are copied to a temporary file that is deleted right
 * after. Runs at start-up, never on a hot path; failures throw naming the file, with ETA's own error text.
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
     * The dictionary loader a server uses for the configured files: the bundled subset when both are empty, else
     * the two files. The files are loaded here, once, so a missing, unreadable or malformed file fails start-up; the
     * first {@link Supplier#get()} returns that dictionary and every later one loads its own copy (an ETA dictionary
     * encodes with state of its own, so each thread that serves it needs one).
     *
     * @param fieldFile path of an RDMFieldDictionary file, or empty (or null).
     * @param enumFile  path of an enumtype.def file, or empty (or null).
     * @return a loader of the dictionary.
     * @throws IllegalArgumentException if only one file is given or a path is malformed.
     * @throws IllegalStateException    if a file cannot be loaded.
     */
    public static Supplier<DataDictionary> supplier(final String fieldFile, final String enumFile)
    {
        final boolean hasFieldFile = null != fieldFile && !fieldFile.isBlank();
        final boolean hasEnumFile = null != enumFile && !enumFile.isBlank();
        if (hasFieldFile != hasEnumFile)
        {
            throw new IllegalArgumentException(DictionaryConfiguration.FIELD_FILE_PROP_NAME + " and " +
                DictionaryConfiguration.ENUM_FILE_PROP_NAME + " are set together or not at all: field file '" +
                fieldFile + "', enum file '" + enumFile + "'");
        }
        if (!hasFieldFile)
        {
            return DictionaryLoader::loadBundled;
        }
        final Path fieldPath = path(DictionaryConfiguration.FIELD_FILE_PROP_NAME, fieldFile);
        final Path enumPath = path(DictionaryConfiguration.ENUM_FILE_PROP_NAME, enumFile);
        final AtomicReference<DataDictionary> loaded = new AtomicReference<>(load(fieldPath, enumPath));
        return () ->
        {
            final DataDictionary first = loaded.getAndSet(null);
            return null != first ? first : load(fieldPath, enumPath);
        };
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
        final String what = "field dictionary";
        requireReadable(what, path);
        final int entriesBefore = dictionary.numberOfEntries();
        final Error error = TransportFactory.createError();
        if (dictionary.loadFieldDictionary(path.toString(), error) < CodecReturnCodes.SUCCESS)
        {
            throw cannotLoad(what, path, error);
        }
        if (dictionary.numberOfEntries() == entriesBefore)
        {
            throw new IllegalStateException("cannot load " + what + " " + path + ": it defines no field");
        }
        acronymsAsBytes(dictionary);
    }

    /**
     * ETA's loader keeps each acronym as a String, and a String-backed buffer copies itself into a new ByteBuffer
     * every time its bytes are asked for, as ETA's JSON converter does for every field of every message it writes:
     * the acronyms are given their bytes once.
     */
    private static void acronymsAsBytes(final DataDictionary dictionary)
    {
        for (int fid = dictionary.minFid(); fid <= dictionary.maxFid(); fid++)
        {
            final DictionaryEntry entry = dictionary.entry(fid);
            if (null != entry && null != entry.acronym() && entry.acronym().length() > 0)
            {
                final Buffer acronym = entry.acronym();
                acronym.data(ByteBuffer.wrap(acronym.toString().getBytes(StandardCharsets.US_ASCII)));
            }
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
        final String what = "enum type dictionary";
        requireReadable(what, path);
        final Error error = TransportFactory.createError();
        if (dictionary.loadEnumTypeDictionary(path.toString(), error) < CodecReturnCodes.SUCCESS)
        {
            throw cannotLoad(what, path, error);
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

    private static Path path(final String propName, final String file)
    {
        try
        {
            return Path.of(file.trim());
        }
        catch (final InvalidPathException ex)
        {
            throw new IllegalArgumentException(propName + " is not a valid path: '" + file + "'", ex);
        }
    }

    private static void requireReadable(final String what, final Path path)
    {
        if (!Files.isRegularFile(path))
        {
            throw new IllegalStateException("cannot load " + what + " " + path + ": " +
                (Files.exists(path) ? "not a regular file" : "no such file"));
        }
        if (!Files.isReadable(path))
        {
            throw new IllegalStateException("cannot load " + what + " " + path + ": not readable");
        }
    }

    private static IllegalStateException cannotLoad(final String what, final Path path, final Error error)
    {
        // ETA's enum type loader fails some malformed files without setting a text
        final String text = null == error.text() || error.text().isBlank() ?
            "ETA rejected the file without saying why (malformed?)" : error.text();
        return new IllegalStateException("cannot load " + what + " " + path + ": " + text);
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
