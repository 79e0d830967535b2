package io.mdhub.common.config;

import java.util.Locale;

import org.agrona.SystemUtil;

/**
 * Strict readers of system properties for {@code *Configuration} classes. Unlike {@link Integer#getInteger} and
 * {@link Boolean#getBoolean}, which silently turn a typo into the default (or false), every reader here rejects a
 * malformed value with an {@link IllegalArgumentException} naming the key, so a bad configuration fails at start.
 */
public final class ConfigValues
{
    private ConfigValues()
    {
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set.
     * @return {@code true} or {@code false} (case-insensitive, trimmed).
     */
    public static boolean getBoolean(final String name, final boolean defaultValue)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        switch (value.trim().toLowerCase(Locale.ROOT))
        {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(name + " must be true or false: '" + value + "'");
        }
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set.
     * @return the value as a decimal int ({@code _} separators allowed).
     */
    public static int getInt(final String name, final int defaultValue)
    {
        final long value = getLong(name, defaultValue);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(name + " is out of int range: " + value);
        }
        return (int)value;
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set.
     * @return the value as a decimal long ({@code _} separators allowed).
     */
    public static long getLong(final String name, final long defaultValue)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            return Long.parseLong(value.trim().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " must be an integer: '" + value + "'", ex);
        }
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set, in bytes.
     * @return a size in bytes; the value may carry a {@code k}, {@code m} or {@code g} suffix (powers of 1024).
     */
    public static int getSizeAsInt(final String name, final int defaultValue)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            final long size = SystemUtil.parseSize(name, value.trim());
            if (size > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException(name + " is larger than 2 GiB: " + value);
            }
            return (int)size;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " must be a size such as 65536, 64k or 16m: '" + value + "'", ex);
        }
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set.
     * @return the trimmed value.
     */
    public static String getString(final String name, final String defaultValue)
    {
        final String value = System.getProperty(name);
        return null == value ? defaultValue : value.trim();
    }
}
