package io.mdhub.common.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import io.mdhub.common.test.InterruptAfter;

/**
 * A flood of one kind of event: a few lines of their own, then one summary line with the count and the last detail,
 * at the level of the event; other kinds keep their own allowance.
 */
@InterruptAfter(10)
class LogSummaryTest
{
    private final List<String> lines = new ArrayList<>();
    private final Logger logger = (Logger)Proxy.newProxyInstance(Logger.class.getClassLoader(),
        new Class<?>[] {Logger.class}, (proxy, method, args) ->
        {
            if (("warn".equals(method.getName()) || "info".equals(method.getName())) && null != args)
            {
                lines.add(method.getName() + " " + args[0] + " " +
                    (args.length > 1 ? Arrays.deepToString(Arrays.copyOfRange(args, 1, args.length)) : ""));
            }
            return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
        });

    @Test
    void aFloodGetsAFewLinesAndOneSummary()
    {
        final LogSummary summary = new LogSummary(logger, "p2p", "disconnects", 2);
        for (int i = 0; i < LogSummary.LINES_PER_INTERVAL; i++)
        {
            assertTrue(summary.admit(0, "bad-handshake", true, "remote=" + i));
        }
        for (int i = 0; i < 1_000; i++)
        {
            assertFalse(summary.admit(0, "bad-handshake", true, "remote=x" + i));
        }
        assertTrue(summary.admit(1, "peer-closed", false, "remote=y"), "another key has its own allowance");
        assertTrue(lines.isEmpty(), "nothing logged by the summary yet: " + lines);

        summary.flush();
        assertEquals(1, lines.size(), lines::toString);
        assertTrue(lines.get(0).startsWith("warn "), lines::toString);
        assertTrue(lines.get(0).contains("[[p2p, 1000, disconnects, bad-handshake, remote=x999]]") ||
            lines.get(0).contains("p2p, 1000, disconnects, bad-handshake, remote=x999"), lines::toString);
        summary.flush();
        assertEquals(1, lines.size(), "a summary is logged once");
    }
}
