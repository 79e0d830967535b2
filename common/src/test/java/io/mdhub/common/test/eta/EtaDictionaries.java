package io.mdhub.common.test.eta;

import com.refinitiv.eta.codec.DataDictionary;

import io.mdhub.common.dictionary.DictionaryLoader;

/**
 * The data dictionary a test decodes with when it downloaded none: MDHub's shipped {@code RDMFieldDictionary} and
 * {@code enumtype.def} resources, loaded once by ETA's own {@link DataDictionary} loader. Read-only after loading, so
 * one instance serves every consumer of the JVM.
 */
public final class EtaDictionaries
{
    private static DataDictionary bundled;

    private EtaDictionaries()
    {
    }

    /**
     * @return the dictionary of MDHub's shipped dictionary files.
     */
    public static synchronized DataDictionary bundled()
    {
        if (null == bundled)
        {
            bundled = DictionaryLoader.loadBundled();
        }
        return bundled;
    }
}
