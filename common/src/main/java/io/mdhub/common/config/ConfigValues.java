package io.mdhub.common.config;

import java.util.Locale;

import org.agrona.SystemUtil;

/**
 * Strict readers of system properties for {@code *Configuration} classes. Unlike {@link Integer#getInteger} and
 * {@link Boolean#getBoolean}, which silently turn a typo into the default (or false), every reader here rejects a
 * malformed value with an {@link IllegalArgumentException} naming the key, so a bad configuration fails at start.
 * Every numeric reader takes the range its key accepts: a value outside it fails at start too, naming the range,
 * instead of meaning something nobody intended (a negative buffer size, a timeout of three centuries).
 */
public final class ConfigValues
{
    private static final long[] SIZE_FACTORS = {1024L * 1024 * 1024, 1024L * 1024, 1024L};
    private static final String[] SIZE_UNITS = {"g", "m", "k"};
    private static final long[] DURATION_FACTORS = {1_000_000_000L, 1_000_000L, 1_000L};
    private static final String[] DURATION_UNITS = {"s", "ms", "us"};

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
     * @param min          smallest value accepted.
     * @param max          largest value accepted.
     * @return the value as a decimal int ({@code _} separators allowed).
     * @throws IllegalArgumentException naming the key if the value is malformed or outside {@code [min, max]}.
     */
    public static int getInt(final String name, final int defaultValue, final int min, final int max)
    {
        return (int)getLong(name, defaultValue, min, max);
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set.
     * @param min          smallest value accepted.
     * @param max          largest value accepted.
     * @return the value as a decimal long ({@code _} separators allowed).
     * @throws IllegalArgumentException naming the key if the value is malformed or outside {@code [min, max]}.
     */
    public static long getLong(final String name, final long defaultValue, final long min, final long max)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value.trim().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " must be an integer: '" + value + "'", ex);
        }
        return inRange(name, value, parsed, min, max, Long.toString(min), Long.toString(max));
    }

    /**
     * @param name         property name.
     * @param defaultValue value when the property is not set, in bytes.
     * @param min          smallest size accepted, in bytes.
     * @param max          largest size accepted, in bytes.
     * @return a size in bytes; the value may carry a {@code k}, {@code m} or {@code g} suffix (powers of 1024).
     * @throws IllegalArgumentException naming the key if the value is malformed or outside {@code [min, max]}.
     */
    public static int getSize(final String name, final int defaultValue, final int min, final int max)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        final long size;
        try
        {
            size = SystemUtil.parseSize(name, value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " must be a size such as 65536, 64k or 16m: '" + value + "'", ex);
        }
        return (int)inRange(name, value, size, min, max, size(min), size(max));
    }

    /**
     * @param name         property name.
     * @param defaultNs    value when the property is not set, in nanoseconds.
     * @param minNs        shortest duration accepted.
     * @param maxNs        longest duration accepted.
     * @return a duration in nanoseconds; the value is a number of nanoseconds or carries a unit: {@code ns},
     * {@code us}, {@code ms}, {@code s}.
     * @throws IllegalArgumentException naming the key if the value is malformed or outside {@code [minNs, maxNs]}.
     */
    public static long getDurationNs(final String name, final long defaultNs, final long minNs, final long maxNs)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultNs;
        }
        final long ns;
        try
        {
            ns = SystemUtil.parseDuration(name, value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + " must be a duration such as 500ms or 10s: '" + value + "'", ex);
        }
        return inRange(name, value, ns, minNs, maxNs, duration(minNs), duration(maxNs));
    }

    private static long inRange(
        final String name,
        final String text,
        final long value,
        final long min,
        final long max,
        final String minText,
        final String maxText)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(
                name + " must be in [" + minText + ", " + maxText + "]: '" + text.trim() + "'");
        }
        return value;
    }

    private static String size(final long bytes)
    {
        return inLargestUnit(bytes, SIZE_FACTORS, SIZE_UNITS, "");
    }

    private static String duration(final long ns)
    {
        return inLargestUnit(ns, DURATION_FACTORS, DURATION_UNITS, "ns");
    }

    /**
     * @return the value in the largest unit that divides it exactly ({@code 65536} as {@code 64k}), else as it is.
     */
    private static String inLargestUnit(final long value, final long[] factors, final String[] units, final String base)
    {
        for (int i = 0; i < factors.length; i++)
        {
            if (0 != value && 0 == value % factors[i])
            {
                return value / factors[i] + units[i];
            }
        }
        return value + base;
    }

    /**
     * @param name  the key the value is for, named in the error.
     * @param type  the enum.
     * @param value one of its constants' names, any case, surrounding blanks ignored.
     * @param <E>   the enum type.
     * @return the constant.
     * @throws IllegalArgumentException naming the key and the choices for any other value.
     */
    public static <E extends Enum<E>> E parseEnum(final String name, final Class<E> type, final String value)
    {
        final E[] choices = type.getEnumConstants();
        for (final E choice : choices)
        {
            if (choice.name().equalsIgnoreCase(value.trim()))
            {
                return choice;
            }
        }
        final StringBuilder names = new StringBuilder();
        for (final E choice : choices)
        {
            names.append(names.length() > 0 ? " or " : "").append(choice.name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException(name + " must be " + names + ": " + value);
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
