package io.mdhub.common.management.jmx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JMX users, read once at start from a password file and an access file in the JDK's formats
 * ({@code jmxremote.password}: {@code NAME PASSWORD} a line; {@code jmxremote.access}: {@code NAME ROLE} a line;
 * {@code #} starts a comment line). Roles are {@code monitor} and {@code control} (the JDK's {@code readonly} and
 * {@code readwrite} are read as those); the JDK's {@code create}/{@code unregister} clauses are refused, since no user
 * may create or remove MBeans remotely. Without an access file every user is a {@code monitor}. A file that group or
 * others may read or write is refused, as the JDK refuses its own. Immutable: a change of users needs a restart.
 */
public final class JmxUsers
{
    private static final int MAX_NAME_LENGTH = 64;
    private final Map<String, byte[]> passwordDigests;
    private final Map<String, JmxRole> roles;

    private JmxUsers(final Map<String, byte[]> passwordDigests, final Map<String, JmxRole> roles)
    {
        this.passwordDigests = passwordDigests;
        this.roles = roles;
    }

    /**
     * @param passwordFile the password file.
     * @param accessFile   the access file, or null for every user a {@code monitor}.
     * @return the users.
     * @throws IllegalArgumentException naming the key and the file when one is missing, malformed or readable by
     *                                  group or others.
     */
    public static JmxUsers load(final Path passwordFile, final Path accessFile)
    {
        final Map<String, byte[]> passwords = new HashMap<>();
        for (final String[] entry : entries(passwordFile, JmxConfiguration.PASSWORD_FILE_PROP_NAME, true))
        {
            if (null != passwords.put(entry[0], digest(entry[1])))
            {
                throw new IllegalArgumentException(JmxConfiguration.PASSWORD_FILE_PROP_NAME + " " + passwordFile +
                    ": user " + entry[0] + " is listed twice");
            }
        }
        if (passwords.isEmpty())
        {
            throw new IllegalArgumentException(JmxConfiguration.PASSWORD_FILE_PROP_NAME + " " + passwordFile +
                " lists no user");
        }
        final Map<String, JmxRole> roles = new HashMap<>();
        if (null == accessFile)
        {
            passwords.keySet().forEach((name) -> roles.put(name, JmxRole.MONITOR));
        }
        else
        {
            for (final String[] entry : entries(accessFile, JmxConfiguration.ACCESS_FILE_PROP_NAME, false))
            {
                final JmxRole role = JmxRole.parse(entry[1]);
                if (null == role)
                {
                    throw new IllegalArgumentException(JmxConfiguration.ACCESS_FILE_PROP_NAME + " " + accessFile +
                        ": user " + entry[0] + " has role '" + entry[1] + "': the roles are monitor and control " +
                        "(no create or unregister clause: MBeans are not created or removed remotely)");
                }
                if (null != roles.put(entry[0], role))
                {
                    throw new IllegalArgumentException(JmxConfiguration.ACCESS_FILE_PROP_NAME + " " + accessFile +
                        ": user " + entry[0] + " is listed twice");
                }
            }
        }
        return new JmxUsers(passwords, roles);
    }

    /**
     * Refuse a secrets file that anyone but its owner may read or write (the JDK's rule for its password file).
     *
     * @param file    the file.
     * @param keyName the key that named it, for the message.
     * @throws IllegalArgumentException when it is missing or too open.
     */
    public static void requireOwnerOnly(final Path file, final String keyName)
    {
        if (!Files.isRegularFile(file) || !Files.isReadable(file))
        {
            throw new IllegalArgumentException(keyName + " " + file + " is not a readable file");
        }
        final Set<PosixFilePermission> permissions;
        try
        {
            permissions = Files.getPosixFilePermissions(file);
        }
        catch (final UnsupportedOperationException ex)
        {
            return; // not a POSIX file system: nothing this check can read
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(keyName + " " + file + " cannot be read: " + ex.getMessage(), ex);
        }
        for (final PosixFilePermission permission : permissions)
        {
            if (permission != PosixFilePermission.OWNER_READ && permission != PosixFilePermission.OWNER_WRITE &&
                permission != PosixFilePermission.OWNER_EXECUTE)
            {
                throw new IllegalArgumentException(keyName + " " + file + " may be read or written by group or " +
                    "others (" + PosixFilePermissions.toString(permissions) + "): restrict it to its owner " +
                    "(chmod 600), as the JDK requires of its own password file");
            }
        }
    }

    /**
     * @param file    a file whose first line is a secret (a password), readable by its owner only.
     * @param keyName the key or option that named it, for messages.
     * @return the first line, without its line end.
     * @throws IllegalArgumentException when it is missing, too open or empty.
     */
    public static String readSecret(final Path file, final String keyName)
    {
        requireOwnerOnly(file, keyName);
        try
        {
            final String content = Files.readString(file, StandardCharsets.UTF_8);
            final int end = content.indexOf('\n');
            final String secret = (end < 0 ? content : content.substring(0, end)).strip();
            if (secret.isEmpty())
            {
                throw new IllegalArgumentException(keyName + " " + file + " holds no secret on its first line");
            }
            return secret;
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(keyName + " " + file + " cannot be read: " + ex.getMessage(), ex);
        }
    }

    /**
     * @param name     a user name.
     * @param password the password given.
     * @return true when the user exists and the password is right; as slow for an unknown user as for a known one.
     */
    public boolean verify(final String name, final String password)
    {
        final byte[] expected = passwordDigests.get(name);
        final byte[] given = digest(password);
        return MessageDigest.isEqual(null == expected ? new byte[given.length] : expected, given) && null != expected;
    }

    /**
     * @param name a user name.
     * @return the user's role, or null when the access file gives it none.
     */
    public JmxRole roleOf(final String name)
    {
        return roles.get(name);
    }

    /**
     * @return how many users may log in (have a password and a role).
     */
    public int size()
    {
        return (int)passwordDigests.keySet().stream().filter(roles::containsKey).count();
    }

    private static List<String[]> entries(final Path file, final String keyName, final boolean isSecret)
    {
        if (isSecret)
        {
            requireOwnerOnly(file, keyName);
        }
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(keyName + " " + file + " cannot be read: " + ex.getMessage(), ex);
        }
        final List<String[]> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] words = line.split("\\s+", 2);
            if (words.length != 2 || words[0].length() > MAX_NAME_LENGTH ||
                (!isSecret && words[1].split("\\s+").length != 1))
            {
                // the line itself may hold a password: name only its number
                throw new IllegalArgumentException(keyName + " " + file + " line " + (i + 1) + " is not " +
                    (isSecret ? "NAME PASSWORD" : "NAME ROLE") + " (names of at most " + MAX_NAME_LENGTH +
                    " characters)");
            }
            entries.add(words);
        }
        return entries;
    }

    private static byte[] digest(final String password)
    {
        try
        {
            // digests of equal length, so the comparison's time says nothing of the password's length
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
        }
    }
}
