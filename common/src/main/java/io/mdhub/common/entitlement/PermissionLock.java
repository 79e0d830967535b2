package io.mdhub.common.entitlement;

import java.util.Arrays;

import org.agrona.DirectBuffer;

/**
 * An item's lock: the permission codes a user needs to see it, either any one of them (the default, as a DACS lock's
 * OR) or all of them. Providers put it in the {@code PermData} of their refreshes as ASCII: {@code "62"},
 * {@code "62,144"} (any of) or {@code "62+144"} (all of); the entitlement file can give items the same codes by name.
 */
public final class PermissionLock
{
    /**
     * What an item gets whose PermData is not a lock in this format (a binary DACS lock, say): only a user holding
     * every code of the service ({@code service NAME *}) opens it, so an unreadable lock never shows an item to a user
     * it was not meant for.
     */
    public static final PermissionLock UNREADABLE = new PermissionLock(new int[]{-1}, false);

    private final int[] codes;
    private final boolean isAllRequired;

    private PermissionLock(final int[] codes, final boolean isAllRequired)
    {
        this.codes = codes;
        this.isAllRequired = isAllRequired;
    }

    /**
     * @param codes         the codes, at least one.
     * @param isAllRequired true if a user needs every code, false if any one is enough.
     * @return the lock.
     */
    public static PermissionLock of(final int[] codes, final boolean isAllRequired)
    {
        if (0 == codes.length)
        {
            throw new IllegalArgumentException("a lock needs at least one code");
        }
        final int[] sorted = codes.clone();
        Arrays.sort(sorted);
        return new PermissionLock(sorted, isAllRequired);
    }

    /**
     * Reads a lock as providers write it in {@code PermData}.
     *
     * @param buffer holds it.
     * @param offset where it starts.
     * @param length its length in bytes.
     * @return the lock, or null when the bytes are not a lock in this format (e.g. a binary DACS lock).
     */
    public static PermissionLock parse(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length <= 0 || length > 1024)
        {
            return null;
        }
        final StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            text.append((char)(buffer.getByte(offset + i) & 0xFF));
        }
        return parse(text.toString());
    }

    /**
     * @param text a lock as text ({@code "62,144"} or {@code "62+144"}).
     * @return the lock, or null if the text is not one.
     */
    public static PermissionLock parse(final String text)
    {
        final String trimmed = text.trim();
        final boolean hasAll = trimmed.indexOf('+') >= 0;
        final boolean hasAny = trimmed.indexOf(',') >= 0;
        if (trimmed.isEmpty() || (hasAll && hasAny))
        {
            return null;
        }
        final String[] words = trimmed.split(hasAll ? "\\+" : ",", -1);
        final int[] codes = new int[words.length];
        for (int i = 0; i < words.length; i++)
        {
            final String word = words[i].trim();
            if (word.isEmpty() || word.length() > 9 || !word.chars().allMatch(Character::isDigit))
            {
                return null;
            }
            codes[i] = Integer.parseInt(word);
        }
        return of(codes, hasAll);
    }

    /**
     * @param granted the codes a user holds for the item's service.
     * @return true if they open this lock.
     */
    public boolean opensWith(final CodeSet granted)
    {
        for (final int code : codes)
        {
            final boolean has = granted.contains(code);
            if (has && !isAllRequired)
            {
                return true;
            }
            if (!has && isAllRequired)
            {
                return false;
            }
        }
        return isAllRequired;
    }

    /**
     * @return the lock as text, the way providers write it.
     */
    @Override
    public String toString()
    {
        if (this == UNREADABLE)
        {
            return "unreadable";
        }
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < codes.length; i++)
        {
            if (i > 0)
            {
                text.append(isAllRequired ? '+' : ',');
            }
            text.append(codes[i]);
        }
        return text.toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PermissionLock && isAllRequired == ((PermissionLock)other).isAllRequired &&
            Arrays.equals(codes, ((PermissionLock)other).codes);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(codes) + (isAllRequired ? 1 : 0);
    }
}
