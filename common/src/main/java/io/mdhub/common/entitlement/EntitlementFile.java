package io.mdhub.common.entitlement;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the entitlement file: one statement per line, {@code #} starts a comment. Top-level statements:
 * <pre>
 * code 62 NYSE                         a permission code's name (for usage reports)
 * items SERVICE PATTERN LOCK           the lock of items whose provider sends none: "items DIRECT_FEED *.N 62"
 * user NAME                            starts a user; the lines after it, up to the next user/provider, are its:
 *   application ID...                  application ids it may log in with (none listed: any)
 *   position PATTERN...                positions it may log in from, e.g. 10.1.* (none listed: any)
 *   token-sha256 HEX                   SHA-256 (hex) of a token it may log in with instead of its name
 *   service SERVICE CODE... | *        a service it may use and the permission codes it holds there (* = all items)
 *   post SERVICE                       it may post to items of the service
 * provider NAME                        starts a provider login; its lines:
 *   publish SERVICE... | *             services it may publish
 * </pre>
 * A name or pattern is one word; a pattern may hold {@code *} for any run of characters. A lock is {@code 62},
 * {@code 62,144} (any of) or {@code 62+144} (all of).
 */
public final class EntitlementFile
{
    /**
     * The largest file read, in bytes: a bigger one (a wrong path, a runaway generator) is refused before it is held in
     * memory. Some hundred thousand users fit.
     */
    public static final int MAX_FILE_BYTES = 16 * 1024 * 1024;

    private EntitlementFile()
    {
    }

    /**
     * @param file the file.
     * @return its table.
     * @throws EntitlementFileException if it cannot be read, is too large or is not valid.
     */
    public static EntitlementTable read(final Path file)
    {
        try
        {
            return parse(readBytes(file), file.toString());
        }
        catch (final IOException | RuntimeException ex)
        {
            if (ex instanceof EntitlementFileException)
            {
                throw (EntitlementFileException)ex;
            }
            throw new EntitlementFileException("cannot read entitlement file " + file + ": " + ex);
        }
    }

    /**
     * @param file the file.
     * @return its bytes.
     * @throws IOException              if it cannot be read (e.g. it is missing).
     * @throws EntitlementFileException if it holds more than {@link #MAX_FILE_BYTES}.
     */
    static byte[] readBytes(final Path file) throws IOException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            final byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES)
            {
                throw new EntitlementFileException(
                    "entitlement file " + file + " is larger than " + MAX_FILE_BYTES + " bytes: not read");
            }
            return bytes;
        }
    }

    /**
     * @param bytes  the file's bytes (UTF-8).
     * @param origin the file's name, for messages.
     * @return the table.
     * @throws EntitlementFileException if the bytes are not UTF-8 text, or naming the first invalid line.
     */
    public static EntitlementTable parse(final byte[] bytes, final String origin)
    {
        if (0 == bytes.length)
        {
            // what an editor that rewrites in place leaves for a moment; one that means "nobody" says so in a comment
            throw new EntitlementFileException(origin + ": the file is empty (a file that refuses everyone holds at " +
                "least a comment line)");
        }
        final String text;
        try
        {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new EntitlementFileException(origin + ": not UTF-8 text: " + ex);
        }
        return parse(text.lines().toList(), origin);
    }

    /**
     * @param lines  the file's lines.
     * @param origin the file's name, for messages.
     * @return the table.
     * @throws EntitlementFileException naming the first invalid line.
     */
    public static EntitlementTable parse(final List<String> lines, final String origin)
    {
        final Reader reader = new Reader(origin);
        for (int i = 0; i < lines.size(); i++)
        {
            reader.line(i + 1, lines.get(i));
        }
        return reader.finish();
    }

    private static final class Reader
    {
        private final String origin;
        private final EntitlementTable.Builder table = new EntitlementTable.Builder();
        private final Set<String> seenUsers = new HashSet<>();
        private int lineNumber;
        private String userName;
        private List<String> applications;
        private List<NamePattern> positions;
        private Map<String, CodeSet> services;
        private Set<String> postServices;
        private String providerName;
        private Set<String> publishes;

        Reader(final String origin)
        {
            this.origin = origin;
        }

        void line(final int number, final String line)
        {
            lineNumber = number;
            final int comment = line.indexOf('#');
            final String text = (comment >= 0 ? line.substring(0, comment) : line).trim();
            if (text.isEmpty())
            {
                return;
            }
            final String[] words = text.split("\\s+");
            final String keyword = words[0].toLowerCase(Locale.ROOT);
            switch (keyword)
            {
                case "code" -> code(words);
                case "items" -> items(words);
                case "user" -> startUser(words);
                case "provider" -> startProvider(words);
                case "application", "position", "token-sha256", "service", "post" -> userLine(keyword, words);
                case "publish" -> publish(words);
                default -> fail("unknown statement '" + words[0] + "'");
            }
        }

        private void code(final String[] words)
        {
            expect(words, 3, "code CODE NAME");
            table.codeNames.put(number(words[1]), words[2]);
        }

        private void items(final String[] words)
        {
            expect(words, 4, "items SERVICE PATTERN LOCK");
            table.itemLocks.add(new EntitlementTable.ItemLockRule(words[1], NamePattern.of(words[2]), lock(words[3])));
        }

        private void startUser(final String[] words)
        {
            expect(words, 2, "user NAME");
            endBlock();
            if (!seenUsers.add(words[1]))
            {
                fail("user " + words[1] + " is defined twice");
            }
            userName = words[1];
            applications = new ArrayList<>();
            positions = new ArrayList<>();
            services = new HashMap<>();
            postServices = new HashSet<>();
        }

        private void startProvider(final String[] words)
        {
            expect(words, 2, "provider NAME");
            endBlock();
            if (table.providers.containsKey(words[1]))
            {
                fail("provider " + words[1] + " is defined twice");
            }
            providerName = words[1];
            publishes = new HashSet<>();
            table.providers.put(providerName, publishes);
        }

        private void userLine(final String keyword, final String[] words)
        {
            if (null == userName)
            {
                fail("'" + keyword + "' belongs after a 'user NAME' line");
            }
            if (words.length < 2)
            {
                fail("'" + keyword + "' needs a value");
            }
            switch (keyword)
            {
                case "application" -> applications.addAll(List.of(words).subList(1, words.length));
                case "position" ->
                {
                    for (int i = 1; i < words.length; i++)
                    {
                        positions.add(NamePattern.of(words[i]));
                    }
                }
                case "token-sha256" -> token(words);
                case "service" -> service(words);
                default -> post(words);
            }
        }

        private void token(final String[] words)
        {
            expect(words, 2, "token-sha256 HEX");
            final String hash = words[1].toLowerCase(Locale.ROOT);
            if (64 != hash.length() || !hash.chars().allMatch((c) -> Character.digit(c, 16) >= 0))
            {
                fail("token-sha256 needs 64 hex digits (the SHA-256 of the token)");
            }
            final String other = table.userByTokenHash.putIfAbsent(hash, userName);
            if (null != other)
            {
                fail("the token is already user " + other + "'s");
            }
        }

        private void service(final String[] words)
        {
            if (services.containsKey(words[1]))
            {
                fail("service " + words[1] + " is listed twice for user " + userName);
            }
            if (3 == words.length && "*".equals(words[2]))
            {
                services.put(words[1], CodeSet.ALL);
                return;
            }
            final int[] codes = new int[words.length - 2];
            for (int i = 2; i < words.length; i++)
            {
                codes[i - 2] = number(words[i]);
            }
            services.put(words[1], CodeSet.of(codes));
        }

        private void post(final String[] words)
        {
            expect(words, 2, "post SERVICE");
            postServices.add(words[1]);
        }

        private void publish(final String[] words)
        {
            if (null == providerName)
            {
                fail("'publish' belongs after a 'provider NAME' line");
            }
            if (words.length < 2)
            {
                fail("'publish' needs a service name or *");
            }
            publishes.addAll(List.of(words).subList(1, words.length));
        }

        private void endBlock()
        {
            if (null != userName)
            {
                table.users.put(userName,
                    new UserRights(userName, applications, positions, services, postServices, false));
            }
            userName = null;
            providerName = null;
        }

        EntitlementTable finish()
        {
            endBlock();
            return table.build();
        }

        private PermissionLock lock(final String text)
        {
            final PermissionLock lock = PermissionLock.parse(text);
            if (null == lock)
            {
                fail("'" + text + "' is not a lock (62, 62,144 for any of, 62+144 for all of)");
            }
            return lock;
        }

        private int number(final String text)
        {
            try
            {
                final int code = Integer.parseInt(text);
                if (code < 0)
                {
                    fail("a permission code is not negative: " + text);
                }
                return code;
            }
            catch (final NumberFormatException ex)
            {
                fail("'" + text + "' is not a permission code");
                return 0;
            }
        }

        private void expect(final String[] words, final int count, final String form)
        {
            if (words.length != count)
            {
                fail("expected '" + form + "'");
            }
        }

        private void fail(final String why)
        {
            throw new EntitlementFileException(origin + ":" + lineNumber + ": " + why);
        }
    }
}
