package io.mdhub.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Keeps docs/configuration.md true: every {@code *_PROP_NAME = "mdhub..."} key declared in any module's main code
 * must be documented there, and every key the reference's tables list must still be declared in the code.
 */
@InterruptAfter(30)
class DocumentedConfigurationTest
{
    private static final Pattern KEY_DECLARATION =
        Pattern.compile("_PROP_NAME\\s*=\\s*\"(mdhub\\.[a-zA-Z0-9.\\-]+)\"");
    private static final Pattern TABLE_ROW_KEY = Pattern.compile("(?m)^\\| `(mdhub\\.[a-zA-Z0-9.\\-]+)` \\|");

    @Test
    void everyKeyInTheCodeIsInTheConfigurationReference() throws IOException
    {
        final Path root = projectRoot();
        final String doc = Files.readString(root.resolve("docs/configuration.md"));

        final TreeSet<String> keys = new TreeSet<>();
        for (final Path source : mainSources(root))
        {
            final Matcher matcher = KEY_DECLARATION.matcher(Files.readString(source));
            while (matcher.find())
            {
                keys.add(matcher.group(1));
            }
        }

        assertTrue(keys.size() > 10, "expected to find the configuration keys, found " + keys);
        final List<String> missing = new ArrayList<>();
        for (final String key : keys)
        {
            if (!doc.contains("`" + key + "`"))
            {
                missing.add(key);
            }
        }
        assertTrue(missing.isEmpty(), "keys missing from docs/configuration.md: " + missing);
    }

    @Test
    void theLaunchersKnowEveryKeyTheCodeDeclaresAndNoOther() throws IOException
    {
        final TreeSet<String> declared = new TreeSet<>();
        for (final Path source : mainSources(projectRoot()))
        {
            final Matcher matcher = KEY_DECLARATION.matcher(Files.readString(source));
            while (matcher.find())
            {
                declared.add(matcher.group(1));
            }
        }
        final TreeSet<String> unlisted = new TreeSet<>(declared);
        unlisted.removeAll(KnownKeys.all());
        final TreeSet<String> stale = new TreeSet<>(KnownKeys.all());
        stale.removeAll(declared);
        assertEquals("[] []", unlisted + " " + stale,
            "common/src/main/resources/io/mdhub/common/config/keys must list exactly the declared keys: " +
            "missing there, then listed but not declared");
    }

    @Test
    void everyKeyInTheConfigurationReferenceIsInTheCode() throws IOException
    {
        final Path root = projectRoot();
        final StringBuilder code = new StringBuilder();
        for (final Path source : mainSources(root))
        {
            code.append(Files.readString(source));
        }
        final Matcher row = TABLE_ROW_KEY.matcher(Files.readString(root.resolve("docs/configuration.md")));
        final TreeSet<String> documented = new TreeSet<>();
        while (row.find())
        {
            documented.add(row.group(1));
        }

        assertTrue(documented.size() > 10, "expected to find the documented keys, found " + documented);
        final List<String> stale = new ArrayList<>();
        for (final String key : documented)
        {
            if (!code.toString().contains("\"" + key + "\""))
            {
                stale.add(key);
            }
        }
        assertTrue(stale.isEmpty(), "keys in docs/configuration.md that no code declares: " + stale);
    }

    private static Path projectRoot()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (null != dir && !Files.isDirectory(dir.resolve("docs")))
        {
            dir = dir.getParent();
        }
        assertTrue(null != dir, "no docs/ folder above " + Path.of("").toAbsolutePath());
        return dir;
    }

    private static List<Path> mainSources(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            return files
                .filter((p) -> p.toString().endsWith(".java"))
                .filter((p) -> p.toString().contains("/src/main/java/"))
                .filter((p) -> !p.toString().contains("/target/"))
                .toList();
        }
        catch (final UncheckedIOException ex)
        {
            throw ex.getCause();
        }
    }
}
