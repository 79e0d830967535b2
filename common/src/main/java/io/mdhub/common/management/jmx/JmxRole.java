package io.mdhub.common.management.jmx;

import java.util.Locale;

/**
 * What a JMX user may do once logged in.
 */
public enum JmxRole
{
    /** Read: attributes, names, MBean info, notifications (the JDK's {@code readonly}). */
    MONITOR,
    /** Read and act: also invoke operations and set attributes (the JDK's {@code readwrite}). */
    CONTROL;

    /**
     * @param word a role as the access file spells it: {@code monitor} or {@code control}, or the JDK's
     *             {@code readonly} or {@code readwrite}.
     * @return the role, or null when the word names none.
     */
    static JmxRole parse(final String word)
    {
        return switch (word.toLowerCase(Locale.ROOT))
        {
            case "monitor", "readonly" -> MONITOR;
            case "control", "readwrite" -> CONTROL;
            default -> null;
        };
    }
}
