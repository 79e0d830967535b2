package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ItemUniverseTest
{
    @TempDir
    Path dir;

    @Test
    void anItemFileGivesItsNamesInOrderSkippingBlankAndCommentLines() throws Exception
    {
        final Path file = Files.writeString(dir.resolve("items.txt"),
            "# RIC list\nTRI.N\n\n  VOD.L  \n#IBM.N\nEUR=\n", StandardCharsets.US_ASCII);
        final ItemUniverse universe = ItemUniverse.fromFile(file);
        assertEquals(3, universe.size());
        assertEquals("TRI.N", universe.name(0).getStringWithoutLengthAscii(0, universe.name(0).capacity()));
        assertEquals("VOD.L", universe.name(1).getStringWithoutLengthAscii(0, universe.name(1).capacity()));
        assertEquals("EUR=", universe.name(2).getStringWithoutLengthAscii(0, universe.name(2).capacity()));
    }

    @Test
    void aFileWithoutNamesOrWithANameTooLongIsRefusedWithTheReason() throws Exception
    {
        final Path empty = Files.writeString(dir.resolve("empty.txt"), "# nothing\n\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ItemUniverse.fromFile(empty)).getMessage()
            .startsWith("no item names in"));
        final Path tooLong = Files.writeString(dir.resolve("long.txt"), "A".repeat(256) + "\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ItemUniverse.fromFile(tooLong)).getMessage()
            .startsWith("item name longer than 255 bytes"));
    }

    @Test
    void generatedNamesAreNumbered()
    {
        final ItemUniverse universe = ItemUniverse.generated(2);
        assertEquals("MD000001.X", universe.name(1).getStringWithoutLengthAscii(0, universe.name(1).capacity()));
        assertThrows(IllegalArgumentException.class, () -> ItemUniverse.generated(0));
    }
}
