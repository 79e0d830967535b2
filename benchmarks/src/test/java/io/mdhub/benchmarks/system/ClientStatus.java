package io.mdhub.benchmarks.system;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * Reads the test client's status lines (one a second: items open, items Suspect now, items recovered so far) from its
 * log, for system tests that break something and wait for the client to be whole again.
 */
final class ClientStatus
{
    private static final Pattern STATE = Pattern.compile("open (\\d+)/\\d+, suspect (\\d+), recovered (\\d+),");

    private ClientStatus()
    {
    }

    /**
     * Wait for a status line saying {@code open} items are open, none is Suspect, and at least {@code recoveries}
     * Suspect items came back Ok since the client started.
     *
     * @return the recoveries that line reports.
     */
    static long awaitAllOpenAndOk(final Path clientLog, final long open, final long recoveries, final String what)
    {
        final long[] seen = new long[1];
        MdTests.await(() -> what + ":\n" + SystemProcesses.tail(clientLog), () ->
        {
            final Matcher line = STATE.matcher(SystemProcesses.read(clientLog));
            boolean isOk = false;
            while (line.find())
            {
                seen[0] = Long.parseLong(line.group(3));
                isOk = open == Long.parseLong(line.group(1)) && 0 == Long.parseLong(line.group(2)) &&
                    seen[0] >= recoveries;
            }
            return isOk;
        });
        return seen[0];
    }

    /**
     * Wait for a status line saying {@code open} items are open and {@code suspect} of them Suspect now.
     */
    static void awaitOpenAndSuspect(final Path clientLog, final long open, final long suspect, final String what)
    {
        MdTests.await(() -> what + ":\n" + SystemProcesses.tail(clientLog), () ->
        {
            final Matcher line = STATE.matcher(SystemProcesses.read(clientLog));
            boolean isThere = false;
            while (line.find())
            {
                isThere = open == Long.parseLong(line.group(1)) && suspect == Long.parseLong(line.group(2));
            }
            return isThere;
        });
    }
}
