package io.mdhub.benchmarks.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The item names a source publishes and a test client opens: generated ({@code MD000000.X} ...) or read from an item
 * file (one name per line; blank lines and lines starting with {@code #} are skipped). Names are ASCII, at most 255
 * bytes (the RWF key name limit).
 */
public final class ItemUniverse
{
    private static final int MAX_NAME_LENGTH = 255;

    private final UnsafeBuffer[] names;

    private ItemUniverse(final UnsafeBuffer[] names)
    {
        this.names = names;
    }

    /**
     * @param count how many items.
     * @return {@code MD000000.X}, {@code MD000001.X}, ...
     */
    public static ItemUniverse generated(final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("item count must be positive: " + count);
        }
        final UnsafeBuffer[] names = new UnsafeBuffer[count];
        for (int i = 0; i < count; i++)
        {
            names[i] = new UnsafeBuffer(String.format("MD%06d.X", i).getBytes(StandardCharsets.US_ASCII));
        }
        return new ItemUniverse(names);
    }

    /**
     * @param file one item name per line.
     * @return the names in file order.
     * @throws IOException if the file cannot be read.
     */
    public static ItemUniverse fromFile(final Path file) throws IOException
    {
        final List<UnsafeBuffer> names = new ArrayList<>();
        for (final String line : Files.readAllLines(file, StandardCharsets.US_ASCII))
        {
            final String name = line.trim();
            if (name.isEmpty() || name.startsWith("#"))
            {
                continue;
            }
            if (name.length() > MAX_NAME_LENGTH)
            {
                throw new IllegalArgumentException("item name longer than 255 bytes in " + file + ": " + name);
            }
            names.add(new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII)));
        }
        if (names.isEmpty())
        {
            throw new IllegalArgumentException("no item names in " + file);
        }
        return new ItemUniverse(names.toArray(new UnsafeBuffer[0]));
    }

    /**
     * @return how many items.
     */
    public int size()
    {
        return names.length;
    }

    /**
     * @param index 0 to size - 1.
     * @return the name's bytes (do not modify).
     */
    public UnsafeBuffer name(final int index)
    {
        return names[index];
    }

    /**
     * @param index 0 to size - 1.
     * @return the name as a String.
     */
    public String nameString(final int index)
    {
        return names[index].getStringWithoutLengthAscii(0, names[index].capacity());
    }
}
