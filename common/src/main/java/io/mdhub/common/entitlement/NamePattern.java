package io.mdhub.common.entitlement;

/**
 * A name or a glob with {@code *} for any run of characters ({@code "10.1.*"}, {@code "*.L"}, {@code "*"}), as the
 * entitlement file writes positions and item names. Matching allocates nothing.
 */
public final class NamePattern
{
    private final String text;
    private final String[] parts;

    private NamePattern(final String text)
    {
        this.text = text;
        this.parts = text.indexOf('*') < 0 ? null : text.split("\\*", -1);
    }

    /**
     * @param text the name or glob.
     * @return its pattern.
     */
    public static NamePattern of(final String text)
    {
        return new NamePattern(text);
    }

    /**
     * @param name the name to test (null never matches).
     * @return true if the pattern matches the whole name.
     */
    public boolean matches(final CharSequence name)
    {
        if (null == name)
        {
            return false;
        }
        if (null == parts)
        {
            return text.contentEquals(name);
        }
        final String first = parts[0];
        final String last = parts[parts.length - 1];
        final int length = name.length();
        if (length < first.length() + last.length() || !regionEquals(name, 0, first) ||
            !regionEquals(name, length - last.length(), last))
        {
            return false;
        }
        int at = first.length();
        final int end = length - last.length();
        for (int i = 1; i < parts.length - 1; i++)
        {
            at = indexOf(name, parts[i], at, end);
            if (at < 0)
            {
                return false;
            }
            at += parts[i].length();
        }
        return true;
    }

    private static boolean regionEquals(final CharSequence name, final int from, final String part)
    {
        for (int i = 0; i < part.length(); i++)
        {
            if (name.charAt(from + i) != part.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(final CharSequence name, final String part, final int from, final int end)
    {
        for (int at = from; at + part.length() <= end; at++)
        {
            if (regionEquals(name, at, part))
            {
                return at;
            }
        }
        return -1;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
