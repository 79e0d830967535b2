package io.mdhub.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.util.HierarchicalNameMapper;

/**
 * Turns a meter id into the {@code name} of its JMX ObjectName: {@code name.tagKey.tagValue...} with tags in key
 * order, as Micrometer's default does, but with every character that an unquoted ObjectName value may not hold
 * ({@code , = : " * ? \} and newlines) and every space replaced by {@code _}, a run of
 * them by one. Counter labels such as {@code "rcv-pos: aeron:udp?endpoint=127.0.0.1:40123"} thus stay readable in
 * JConsole instead of being quoted.
 */
public final class JmxSafeNameMapper implements HierarchicalNameMapper
{
    @Override
    public String toHierarchicalName(final Meter.Id id, final NamingConvention convention)
    {
        final StringBuilder name = new StringBuilder(64);
        appendSafe(name, id.getConventionName(convention));
        for (final Tag tag : id.getConventionTags(convention))
        {
            name.append('.');
            appendSafe(name, tag.getKey());
            name.append('.');
            appendSafe(name, tag.getValue());
        }
        return name.toString();
    }

    /**
     * Append text with unsafe characters replaced.
     *
     * @param out  where to append.
     * @param text the text.
     */
    static void appendSafe(final StringBuilder out, final String text)
    {
        boolean lastReplaced = false;
        for (int i = 0, length = text.length(); i < length; i++)
        {
            final char c = text.charAt(i);
            if (isSafe(c))
            {
                out.append(c);
                lastReplaced = false;
            }
            else if (!lastReplaced)
            {
                out.append('_');
                lastReplaced = true;
            }
        }
    }

    private static boolean isSafe(final char c)
    {
        return c > ' ' && c < 0x7F && c != ',' && c != '=' && c != ':' && c != '"' && c != '*' && c != '?' &&
            c != '\\';
    }
}
