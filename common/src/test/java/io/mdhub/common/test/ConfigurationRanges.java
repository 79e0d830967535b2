package io.mdhub.common.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks that a {@code *Configuration} class refuses absurd values of its keys at start: for each
 * {@code *_PROP_NAME} key it declares, the key is set to a huge negative and then a huge positive number and every
 * static reader of the class is called; some reader must throw an {@link IllegalArgumentException} that names the
 * key. Keys whose values are text (addresses, channels, names, strategies) are listed by the caller and skipped; a
 * boolean key passes because its reader refuses anything but true or false.
 */
public final class ConfigurationRanges
{
    /** Values no numeric key accepts: far below zero, and far above any size, count or duration that makes sense. */
    private static final List<String> ABSURD_VALUES = List.of("-99999999999999", "99999999999999");

    private ConfigurationRanges()
    {
    }

    /**
     * @param configuration the class declaring the keys and their static readers.
     * @param textKeys      keys whose values are text, not checked here.
     */
    public static void assertEveryNumericKeyIsRangeChecked(final Class<?> configuration, final Set<String> textKeys)
    {
        assertEveryNumericKeyIsRangeChecked(configuration, textKeys, Set.of());
    }

    /**
     * @param configuration the class declaring the keys and their static readers.
     * @param textKeys      keys whose values are text, not checked here.
     * @param idKeys        identifiers for which every non-negative value of their type is valid: only a negative value
     *                      must be refused.
     */
    public static void assertEveryNumericKeyIsRangeChecked(
        final Class<?> configuration, final Set<String> textKeys, final Set<String> idKeys)
    {
        final TreeSet<String> keys = declaredKeys(configuration);
        assertTrue(keys.containsAll(textKeys), "text keys not declared by " + configuration.getSimpleName() + ": " +
            textKeys);
        final List<String> accepted = new ArrayList<>();
        for (final String key : keys)
        {
            if (!textKeys.contains(key))
            {
                for (final String value : idKeys.contains(key) ? ABSURD_VALUES.subList(0, 1) : ABSURD_VALUES)
                {
                    if (!refused(configuration, key, value))
                    {
                        accepted.add(key + "=" + value);
                    }
                }
            }
        }
        assertEquals(List.of(), accepted, configuration.getSimpleName() + " accepted out-of-range values");
    }

    private static TreeSet<String> declaredKeys(final Class<?> configuration)
    {
        final TreeSet<String> keys = new TreeSet<>();
        for (final Field field : configuration.getDeclaredFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_PROP_NAME") &&
                String.class == field.getType())
            {
                try
                {
                    field.setAccessible(true);
                    final String key = (String)field.get(null);
                    if (key.startsWith("mdhub."))
                    {
                        keys.add(key);
                    }
                }
                catch (final IllegalAccessException ex)
                {
                    throw new IllegalStateException(ex);
                }
            }
        }
        assertTrue(!keys.isEmpty(), configuration.getSimpleName() + " declares no keys");
        return keys;
    }

    private static boolean refused(final Class<?> configuration, final String key, final String value)
    {
        final String before = System.getProperty(key);
        System.setProperty(key, value);
        try
        {
            boolean refused = false;
            for (final Method reader : configuration.getDeclaredMethods())
            {
                if (Modifier.isStatic(reader.getModifiers()) && 0 == reader.getParameterCount() &&
                    !reader.isSynthetic() && void.class != reader.getReturnType())
                {
                    refused |= refusedBy(reader, key);
                }
            }
            return refused;
        }
        finally
        {
            if (null == before)
            {
                System.clearProperty(key);
            }
            else
            {
                System.setProperty(key, before);
            }
        }
    }

    private static boolean refusedBy(final Method reader, final String key)
    {
        try
        {
            reader.setAccessible(true);
            reader.invoke(null);
            return false;
        }
        catch (final InvocationTargetException ex)
        {
            final Throwable cause = ex.getCause();
            return cause instanceof IllegalArgumentException && null != cause.getMessage() &&
                cause.getMessage().contains(key);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
