package io.mdhub.common.dictionary;

import io.mdhub.common.config.ConfigValues;

/**
 * Which data dictionary the servers serve: the only place the {@code mdhub.dictionary.*} system properties are read.
 * Both files empty (the default) means MDHub's bundled subset; both set means an RDMFieldDictionary and an
 * enumtype.def, typically the full ones of an LSEG installation. {@link DictionaryLoader#supplier(String, String)}
 * turns the pair into a loader and refuses a pair with only one file.
 */
public final class DictionaryConfiguration
{
    /**
     * Path of the field dictionary (RDMFieldDictionary format) served as RWFFld; set together with
     * {@link #ENUM_FILE_PROP_NAME}.
     */
    public static final String FIELD_FILE_PROP_NAME = "mdhub.dictionary.field.file";

    /**
     * Default of {@link #FIELD_FILE_PROP_NAME}: none, the bundled subset.
     */
    public static final String FIELD_FILE_DEFAULT = "";

    /**
     * Path of the enumerated types (enumtype.def format) served as RWFEnum; set together with
     * {@link #FIELD_FILE_PROP_NAME}.
     */
    public static final String ENUM_FILE_PROP_NAME = "mdhub.dictionary.enum.file";

    /**
     * Default of {@link #ENUM_FILE_PROP_NAME}: none, the bundled subset.
     */
    public static final String ENUM_FILE_DEFAULT = "";

    private DictionaryConfiguration()
    {
    }

    /**
     * @return the field dictionary file, or empty for the bundled subset.
     */
    public static String fieldFile()
    {
        return ConfigValues.getString(FIELD_FILE_PROP_NAME, FIELD_FILE_DEFAULT);
    }

    /**
     * @return the enumerated types file, or empty for the bundled subset.
     */
    public static String enumFile()
    {
        return ConfigValues.getString(ENUM_FILE_PROP_NAME, ENUM_FILE_DEFAULT);
    }
}
