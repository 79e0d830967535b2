package io.mdhub.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class BaseContextTest
{
    static final class SampleContext extends BaseContext<SampleContext>
    {
        private int limit = 5;
        private int concludeCount;

        SampleContext limit(final int limit)
        {
            checkNotConcluded();
            this.limit = limit;
            return this;
        }

        @Override
        protected void concludeContext()
        {
            requireRange("limit", limit, 1, 10);
            concludeCount++;
        }
    }

    @Test
    void concludesOnceAndRejectsASecondConclude()
    {
        final SampleContext ctx = new SampleContext().conclude();
        assertTrue(ctx.isConcluded());
        assertEquals(1, ctx.concludeCount);
        assertThrows(IllegalStateException.class, ctx::conclude);
        assertThrows(IllegalStateException.class, () -> ctx.limit(3));
    }

    @Test
    void cloneIsNotConcludedAndKeepsSettings()
    {
        final SampleContext ctx = new SampleContext().limit(7).conclude();
        final SampleContext copy = ctx.clone();
        assertFalse(copy.isConcluded());
        assertEquals(7, copy.limit);
        copy.limit(8).conclude();
        assertEquals(7, ctx.limit);
    }

    @Test
    void concludeValidatesRanges()
    {
        assertThrows(IllegalArgumentException.class, new SampleContext().limit(11)::conclude);
    }

    @Test
    void filesDoNotOverrideJvmPropertiesButCommandLineDoes(@TempDir final Path dir) throws IOException
    {
        final Path file = dir.resolve("mdhub.properties");
        Files.writeString(file, "mdhub.test.a=file\nmdhub.test.b=file\nmdhub.test.c=file\n");
        System.setProperty("mdhub.test.a", "jvm");
        System.setProperty("mdhub.test.b", "jvm");
        try
        {
            ConfigLoader.load(List.of(file.toString()), Map.of("mdhub.test.b", "cli"));
            assertEquals("jvm", System.getProperty("mdhub.test.a"));
            assertEquals("cli", System.getProperty("mdhub.test.b"));
            assertEquals("file", System.getProperty("mdhub.test.c"));
        }
        finally
        {
            System.clearProperty("mdhub.test.a");
            System.clearProperty("mdhub.test.b");
            System.clearProperty("mdhub.test.c");
        }
    }

    @Test
    void missingConfigurationFileIsAnError(@TempDir final Path dir)
    {
        final String missing = dir.resolve("no-such.properties").toString();
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> ConfigLoader.load(List.of(missing), Map.of("mdhub.test.x", "y")));
        assertTrue(ex.getMessage().contains(missing), ex.getMessage());
        assertEquals(null, System.getProperty("mdhub.test.x"), "nothing applied when a file is missing");
    }
}
