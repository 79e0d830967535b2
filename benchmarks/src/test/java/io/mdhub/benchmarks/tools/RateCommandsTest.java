package io.mdhub.benchmarks.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.mdhub.common.concurrent.ToolShutdown;

@Timeout(10)
class RateCommandsTest
{
    @Test
    void aRateIsTakenAndAnsweredAndBadOnesAreRefusedWithTheUsage() throws Exception
    {
        final StringWriter text = new StringWriter();
        final PrintWriter out = new PrintWriter(text);
        final List<Long> rates = new ArrayList<>();
        try (ToolShutdown shutdown = ToolShutdown.install("test"))
        {
            RateCommands.onCommand("tool", rates::add, out, "ur 3000", shutdown);
            RateCommands.onCommand("tool", rates::add, out, "ur -1", shutdown);
            RateCommands.onCommand("tool", rates::add, out, "ur lots", shutdown);
            RateCommands.onCommand("tool", (rate) ->
            {
                throw new IllegalArgumentException("the tool refuses it");
            }, out, "ur 5", shutdown);
            RateCommands.onCommand("tool", rates::add, out, "hello", shutdown);
            RateCommands.onCommand("tool", rates::add, out, "quit", shutdown);

            assertEquals(List.of(3000L), rates);
            assertEquals(String.join(System.lineSeparator(), "tool: rate now 3000 updates/s",
                "tool: usage: ur <updates per second>", "tool: usage: ur <updates per second>",
                "tool: usage: ur <updates per second>", "tool: commands: ur <rate>, quit", ""), text.toString());
            assertTrue(shutdown.isStopped());
        }
    }
}
