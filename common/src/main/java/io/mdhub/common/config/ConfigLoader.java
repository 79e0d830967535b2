package io.mdhub.common.config;

import java.util.List;
import java.util.Map;

import org.agrona.PropertyAction;
import org.agrona.SystemUtil;

/**
 * Puts configuration into system properties, where every {@code *Configuration} class reads its defaults.
 * Precedence, lowest first: built-in default, properties files (in the order given), JVM {@code -D} options,
 * command-line overrides. Files therefore never replace a key already set on the JVM command line.
 */
public final class ConfigLoader
{
    private ConfigLoader()
    {
    }

    /**
     * Load properties files and then apply command-line overrides.
     *
     * @param files     properties files (paths, classpath resources or URLs, as Agrona's {@link SystemUtil}
     *                  accepts), applied without replacing keys that are already set.
     * @param overrides key/value pairs from the command line, which replace any earlier value.
     */
    public static void load(final List<String> files, final Map<String, String> overrides)
    {
        for (final String file : files)
        {
            SystemUtil.loadPropertiesFile(PropertyAction.PRESERVE, file);
        }
        for (final Map.Entry<String, String> entry : overrides.entrySet())
        {
            System.setProperty(entry.getKey(), entry.getValue());
        }
    }
}
