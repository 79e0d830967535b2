package io.mdhub.orderprobe.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds {@link OrderTarget}s other than the order client by name, among the {@link OrderTarget.Factory} services on
 * the class path.
 */
public final class OrderTargets
{
    private OrderTargets()
    {
    }

    /**
     * @param name    a factory's {@link OrderTarget.Factory#name() name}.
     * @param options the target's options.
     * @return the target it made.
     * @throws IllegalArgumentException when no factory has that name (the message lists the names there are), or
     *                                  the factory refuses the options.
     */
    public static OrderTarget create(final String name, final Map<String, String> options)
    {
        final List<String> names = new ArrayList<>();
        for (final OrderTarget.Factory factory : ServiceLoader.load(OrderTarget.Factory.class))
        {
            if (factory.name().equals(name))
            {
                return factory.create(options);
            }
            names.add(factory.name());
        }
        throw new IllegalArgumentException("no order target named '" + name + "' on the class path (there are: " +
            OrderClientTarget.NAME + (names.isEmpty() ? "" : ", " + String.join(", ", names)) + ")");
    }

    /**
     * @param options the target's options.
     * @param target  the target's name, for the message.
     * @param key     the option.
     * @param form    what its value looks like, for the message ({@code HOST:PORT}).
     * @return its value.
     * @throws IllegalArgumentException when it is not given.
     */
    public static String required(
        final Map<String, String> options, final String target, final String key, final String form)
    {
        final String value = options.get(key);
        if (null == value)
        {
            throw new IllegalArgumentException("the " + target + " target needs --target-option " + key + "=" + form);
        }
        return value;
    }

    /**
     * @param options      the target's options.
     * @param key          the option.
     * @param defaultValue its value when not given.
     * @return its value.
     * @throws IllegalArgumentException when it is not a whole number.
     */
    public static int intOption(final Map<String, String> options, final String key, final int defaultValue)
    {
        final String value = options.get(key);
        try
        {
            return null == value ? defaultValue : Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--target-option " + key + " is not a whole number: " + value, ex);
        }
    }
}
