package io.mdhub.common.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Every {@code mdhub.*} configuration key of every component, so that a launcher can tell a misspelt or unknown key
 * from a real one instead of running on defaults: the list ships as a resource (one key per line, kept equal to the
 * keys the code declares by {@code DocumentedConfigurationTest}), since one configuration file may carry keys of
 * components whose classes this process does not have. An unknown key is reported with the nearest known one, and
 * refused when {@link #STRICT_PROP_NAME} is on (the default).
 */
public final class KnownKeys
{
    /** Refuse to start on an unknown {@code mdhub.*} key (else it is only reported). */
    public static final String STRICT_PROP_NAME = "mdhub.config.strict";

    /** Default: refuse. */
    public static final boolean STRICT_DEFAULT = true;

    private static final String PREFIX = "mdhub.";
    private static final String RESOURCE = "/io/mdhub/common/config/keys";
    private static final Set<String> KEYS = load();

    private KnownKeys()
    {
    }

    /**
     * @return every known key, sorted.
     */
    public static Set<String> all()
    {
        return KEYS;
    }

    /**
     * @param properties where the keys are set (e.g. the system properties after the configuration was loaded).
     * @return the {@code mdhub.*} keys set there that no component knows, sorted.
     */
    public static List<String> unknown(final Properties properties)
    {
        final List<String> unknown = new ArrayList<>();
        for (final String key : new TreeSet<>(properties.stringPropertyNames()))
        {
            if (key.startsWith(PREFIX) && !KEYS.contains(key))
            {
                unknown.add(key);
            }
        }
        return unknown;
    }

    /**
     * @param key any key.
     * @return the known key closest to it by edit distance.
     */
    public static String nearest(final String key)
    {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String known : KEYS)
        {
            final int distance = distance(key, known);
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = known;
            }
        }
        return best;
    }

    /**
     * Report the unknown {@code mdhub.*} keys, and refuse them when {@link #STRICT_PROP_NAME} is on.
     *
     * @param properties where the keys are set.
     * @param warning    takes the report when keys are only reported.
     * @throws IllegalArgumentException naming each unknown key and the nearest known one, when strict.
     */
    public static void check(final Properties properties, final Consumer<String> warning)
    {
        final List<String> unknown = unknown(properties);
        if (unknown.isEmpty())
        {
            return;
        }
        final StringBuilder report = new StringBuilder("unknown configuration key");
        report.append(unknown.size() > 1 ? "s: " : ": ");
        for (int i = 0; i < unknown.size(); i++)
        {
            final String key = unknown.get(i);
            report.append(i > 0 ? "; " : "").append(key).append(" (did you mean ").append(nearest(key)).append("?)");
        }
        final String strict = properties.getProperty(STRICT_PROP_NAME);
        if (null == strict ? STRICT_DEFAULT : Boolean.parseBoolean(strict.trim()))
        {
            throw new IllegalArgumentException(report + "; set " + STRICT_PROP_NAME + "=false to start anyway");
        }
        warning.accept(report.toString());
    }

    private static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static Set<String> load()
    {
        try (InputStream in = KnownKeys.class.getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            final TreeSet<String> keys = new TreeSet<>();
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line; null != (line = reader.readLine()); )
            {
                if (!line.isBlank())
                {
                    keys.add(line.trim());
                }
            }
            return Collections.unmodifiableSet(keys);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
