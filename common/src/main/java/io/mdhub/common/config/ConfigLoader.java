package io.mdhub.common.config;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.List;
import java.util.Map;

import org.agrona.PropertyAction;
import org.agrona.SystemUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts configuration into system properties, where every {@code *Configuration} class reads its defaults.
 * Precedence, lowest first: built-in default, properties files (in the order given), JVM {@code -D} options,
 * command-line overrides. Files therefore never replace a key already set on the JVM command line. A file that is
 * neither an existing file, a classpath resource nor a URL is an error (Agrona alone would skip it silently, and a
 * mistyped {@code --config} would then run with defaults).
 */
public final class ConfigLoader
{
    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);

    private ConfigLoader()
    {
    }

    /**
     * Load properties files and then apply command-line overrides.
     *
     * @param files     properties files (paths, classpath resources or URLs, as Agrona's {@link SystemUtil}
     *                  accepts), applied without replacing keys that are already set.
     * @param overrides key/value pairs from the command line, which replace any earlier value.
     * @throws IllegalArgumentException if a file cannot be found; nothing is loaded then.
     */
    public static void load(final List<String> files, final Map<String, String> overrides)
    {
        for (final String file : files)
        {
            requireFound(file);
        }
        for (final String file : files)
        {
            SystemUtil.loadPropertiesFile(PropertyAction.PRESERVE, file);
        }
        for (final Map.Entry<String, String> entry : overrides.entrySet())
        {
            System.setProperty(entry.getKey(), entry.getValue());
        }
    }

    /**
     * {@link #load}, then refuse (or, with {@code mdhub.config.strict=false}, report) every {@code mdhub.*} key set
     * that no component knows: a misspelt key would otherwise leave its setting at the default without a word.
     *
     * @param files     properties files, as for {@link #load}.
     * @param overrides key/value pairs from the command line.
     * @throws IllegalArgumentException if a file cannot be found or a key is unknown (strict).
     */
    public static void loadChecked(final List<String> files, final Map<String, String> overrides)
    {
        load(files, overrides);
        KnownKeys.check(System.getProperties(), LOG::warn);
    }

    private static void requireFound(final String file)
    {
        if (new File(file).isFile() || null != ClassLoader.getSystemClassLoader().getResource(file))
        {
            return;
        }
        try
        {
            new URL(file);
        }
        catch (final MalformedURLException ex)
        {
            throw new IllegalArgumentException("configuration file not found: " + file, ex);
        }
    }
}
