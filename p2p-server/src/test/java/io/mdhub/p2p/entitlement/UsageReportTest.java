package io.mdhub.p2p.entitlement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.P2pMain;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.wire.DocumentContext;
import picocli.CommandLine;

/**
 * The usage report's figures, checked exactly on a log written by three server lives (a clean stop, a crash, a
 * last one still running), over the whole log and over a window; the command's formats; and what a directory that
 * is not a usage log gives: a one-line reason and exit status 1.
 */
@InterruptAfter(60)
class UsageReportTest
{
    private static final long DAY_MS = 86_400_000L;
    /** Start of today (UTC), so the records' times fall in the day file Chronicle writes them to. */
    private static final long T = Math.floorDiv(System.currentTimeMillis(), DAY_MS) * DAY_MS;

    @TempDir
    Path dir;

    private long clockMs;
    private final EpochClock clock = () -> clockMs;

    private static UsageRecord item(
        final UsageEvent event, final long at, final long connectionId, final String user, final String item,
        final String codes)
    {
        final UsageRecord record = ChronicleUsageLogTest.record(event, T + at, connectionId, user);
        record.service = "ELEKTRON_DD";
        record.item = item;
        record.domainType = 6;
        record.codes = codes;
        return record;
    }

    private static UsageRecord closed(
        final long at, final long openedAt, final long connectionId, final String user, final String item,
        final String codes)
    {
        final UsageRecord record = item(UsageEvent.ITEM_CLOSED, at, connectionId, user, item, codes);
        record.openedMs = T + openedAt;
        return record;
    }

    private static UsageRecord login(final UsageEvent event, final long at, final long connectionId, final String user)
    {
        return ChronicleUsageLogTest.record(event, T + at, connectionId, user);
    }

    /**
     * Three lives of a server on one directory: the first stops cleanly, the second crashes (no close records),
     * the third is still running.
     */
    private void writeThreeLives()
    {
        clockMs = T;
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir, null, null, clock))
        {
            log.append(login(UsageEvent.LOGIN_GRANTED, 1000, 1, "alice"));
            log.append(login(UsageEvent.LOGIN_DENIED, 1500, 2, "mallory"));
            log.append(item(UsageEvent.ITEM_GRANTED, 2000, 1, "alice", "IBM.N", "62,144"));
            log.append(item(UsageEvent.ITEM_GRANTED, 3000, 1, "alice", "VOD.L", "62"));
            log.append(item(UsageEvent.ITEM_DENIED, 3500, 1, "alice", "SECRET", "999"));
            log.append(login(UsageEvent.LOGIN_GRANTED, 4000, 3, "bob"));
            log.append(item(UsageEvent.ITEM_GRANTED, 5000, 3, "bob", "IBM.N", "62,144"));
            log.append(item(UsageEvent.POST_DENIED, 6000, 3, "bob", "IBM.N", "62,144"));
            log.append(closed(12_000, 2000, 1, "alice", "IBM.N", "62,144"));
            clockMs = T + 20_000; // stops: alice's VOD.L and bob's IBM.N end here
        }

        // the second life crashes: its records end without a LOG_CLOSED
        try (ChronicleQueue queue = ChronicleQueue.singleBuilder(dir).rollCycle(RollCycles.FAST_DAILY).build();
            ExcerptAppender appender = queue.createAppender())
        {
            final UsageRecord opened = ChronicleUsageLogTest.record(UsageEvent.LOG_OPENED, T + 30_000, 0, null);
            for (final UsageRecord record : new UsageRecord[] {opened,
                login(UsageEvent.LOGIN_GRANTED, 31_000, 1, "alice"),
                item(UsageEvent.ITEM_GRANTED, 32_000, 1, "alice", "IBM.N", "62,144"),
                item(UsageEvent.ITEM_GRANTED, 33_000, 2, "carol", "MSFT.O", "200"),
                item(UsageEvent.ITEM_DENIED, 35_000, 2, "carol", "AAPL.O", "200")})
            {
                try (DocumentContext context = appender.writingDocument())
                {
                    UsageWire.write(context.wire().bytes(), record);
                }
            }
        }

        clockMs = T + 40_000; // the third life: its opening ends the crashed life's streams at 35 s
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir, null, null, clock))
        {
            log.append(login(UsageEvent.LOGIN_GRANTED, 40_500, 5, "bob"));
            log.append(item(UsageEvent.ITEM_GRANTED, 41_000, 5, "bob", "TRI.N", "144"));
            log.append(login(UsageEvent.LOGIN_GRANTED, 42_000, 6, "dave"));
            log.append(item(UsageEvent.ITEM_GRANTED, 42_000, 6, "dave", "IBM.N", "62,144"));
            log.append(login(UsageEvent.LOGOFF, 43_000, 6, "dave"));
            log.append(closed(43_001, 42_000, 6, "dave", "IBM.N", "62,144")); // ended by the logoff already
            clockMs = T + 50_000;
        }
    }

    private static void assertUser(
        final UsageReport report, final String user, final String expected)
    {
        final UsageReport.UserFigures figures = report.user(user);
        assertEquals(expected, null == figures ? "none" : figures.loginsGranted + " " + figures.loginsDenied + " " +
            figures.itemsGranted + " " + figures.itemsDenied + " " + figures.items.size() + " " + figures.watchMs +
            " " + figures.open + " " + figures.postsDenied, user + ": logins granted, denied, items granted, " +
            "denied, distinct, watch ms, open, posts denied");
    }

    private static void assertCode(final UsageReport report, final String code, final String expected)
    {
        final UsageReport.CodeFigures figures = report.code(code);
        assertEquals(expected, null == figures ? "none" : figures.users.size() + " " + figures.items.size() + " " +
            figures.grants + " " + figures.watchMs + " " + figures.open,
            "code " + code + ": users, distinct items, grants, watch ms, open");
    }

    @Test
    void theWholeLog()
    {
        writeThreeLives();
        final UsageReport report = UsageReportMain.read(dir, Long.MIN_VALUE, Long.MAX_VALUE, T + 60_000);

        assertUser(report, "alice", "2 0 3 1 2 30000 0 0"); // 10 s + 17 s to the stop + 3 s to the crash's last
        assertUser(report, "mallory", "0 1 0 0 0 0 0 0");
        assertUser(report, "bob", "2 0 2 0 2 24000 0 1"); // 15 s to the stop + 9 s to the third life's close
        assertUser(report, "carol", "0 0 1 1 1 2000 0 0");
        assertUser(report, "dave", "1 0 1 0 1 1000 0 0"); // ended by its logoff, its late close not counted again
        assertCode(report, "62", "3 2 5 46000 0");
        assertCode(report, "144", "3 2 5 38000 0");
        assertCode(report, "200", "1 1 1 2000 0");
        assertCode(report, "999", "none"); // a denial is no use of the exchange
        assertEquals(2, report.endedByRestart());
        assertEquals(24, report.records());
    }

    @Test
    void aWindowClipsWatchTimeAndCountsWhatIsOpenAtItsEnd()
    {
        writeThreeLives();
        final UsageReport report = UsageReportMain.read(dir, T + 4000, T + 45_000, T + 60_000);

        assertUser(report, "alice", "1 0 1 0 1 27000 0 0"); // 8 s (from 4 s) + 16 s + 3 s
        assertUser(report, "mallory", "none");
        assertUser(report, "bob", "2 0 2 0 2 19000 1 1"); // 15 s + TRI.N open from 41 s to the window's 45 s
        assertUser(report, "carol", "0 0 1 1 1 2000 0 0");
        assertCode(report, "62", "3 1 3 43000 0");
        assertCode(report, "144", "3 2 4 31000 1");
        assertEquals(T + 45_000, report.endMs());
    }

    private String[] run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine command = new CommandLine(new P2pMain());
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        final int status = command.execute(args);
        return new String[] {Integer.toString(status), out.toString(), err.toString()};
    }

    @Test
    void theCommandPrintsEachFormat() throws IOException
    {
        writeThreeLives();
        final Path names = dir.resolveSibling(dir.getFileName() + "-names");
        Files.writeString(names, "# code name\n62 NYSE\n144 LSE\n", StandardCharsets.UTF_8);
        final String to = java.time.Instant.ofEpochMilli(T + 45_000).toString();

        final String[] csv = run("usage-report", "--dir", dir.toString(), "--to", to, "--format", "csv",
            "--code-names", names.toString());
        assertEquals("0", csv[0], csv[2]);
        assertTrue(csv[1].contains("\nalice,2,0,3,1,2,30000,0,0\n"), csv[1]);
        assertTrue(csv[1].contains("\n144,LSE,3,2,5,33000,1\n"), csv[1]);

        final String[] json = run("usage-report", "--dir", dir.toString(), "--to", to, "--format", "json");
        assertEquals("0", json[0], json[2]);
        assertTrue(json[1].replaceAll("\\s", "").contains("\"user\":\"bob\",\"loginsGranted\":2,\"loginsDenied\":0," +
            "\"itemsGranted\":2,\"itemsDenied\":0,\"distinctItems\":2,\"watchMs\":19000,\"openStreams\":1"), json[1]);

        final String[] table = run("usage-report", "--dir", dir.toString(), "--to", to, "--code-names",
            names.toString());
        assertEquals("0", table[0], table[2]);
        assertTrue(table[1].contains("0:00:46.000"), table[1]);
        assertTrue(table[1].contains("NYSE"), table[1]);
        System.out.print(table[1]);

        final String[] badFormat = run("usage-report", "--dir", dir.toString(), "--format", "xml");
        assertEquals("2", badFormat[0]);
    }

    private void assertRefused(final Path directory, final String reason)
    {
        final String[] result = run("usage-report", "--dir", directory.toString());
        assertEquals("1", result[0], result[1] + result[2]);
        assertTrue(result[2].startsWith("usage-report: " + directory), result[2]);
        assertTrue(result[2].contains(reason), result[2]);
        assertFalse(result[2].contains("\tat "), "no stack trace: " + result[2]);
        assertEquals("", result[1]);
    }

    @Test
    void aDirectoryThatIsNotAUsageLogIsRefusedInOneLine() throws IOException
    {
        assertRefused(dir.resolve("missing"), "no such directory");

        final Path empty = Files.createDirectories(dir.resolve("empty"));
        Files.writeString(empty.resolve("notes.txt"), "nothing here");
        assertRefused(empty, "not a usage log");

        final Path foreign = dir.resolve("orders");
        try (ChronicleQueue queue = ChronicleQueue.singleBuilder(foreign).build();
            ExcerptAppender appender = queue.createAppender())
        {
            try (DocumentContext context = appender.writingDocument())
            {
                context.wire().bytes().write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
            }
        }
        assertRefused(foreign, "is not a usage record");

        final Path damaged = Files.createDirectories(dir.resolve("damaged"));
        final byte[] noise = new byte[64 * 1024];
        new Random(7).nextBytes(noise);
        Files.write(damaged.resolve("20261130F.cq4"), noise);
        Files.write(damaged.resolve("metadata.cq4t"), noise);
        final String[] result = run("usage-report", "--dir", damaged.toString());
        assertEquals("1", result[0], result[1] + result[2]);
        assertTrue(result[2].startsWith("usage-report: " + damaged), result[2]);
        assertFalse(result[2].contains("\tat "), "no stack trace: " + result[2]);
    }

    /**
     * How long a report over many records takes (printed for the operations guide, not asserted).
     */
    @Test
    void reportTimeOverManyRecords()
    {
        final int users = 500;
        final int records = 300_000;
        clockMs = T;
        try (ChronicleUsageLog log = new ChronicleUsageLog(dir, null, null, clock))
        {
            final UsageRecord record = new UsageRecord();
            for (int i = 0; i < records; i += 2)
            {
                final int connection = i % users;
                record.reset();
                record.event = UsageEvent.ITEM_GRANTED;
                record.timeMs = T + i;
                record.connectionId = connection;
                record.user = "user" + connection;
                record.service = "ELEKTRON_DD";
                record.item = "RIC" + (i % 10_000);
                record.domainType = 6;
                record.codes = 0 == i % 3 ? "62,144" : "62";
                log.append(record);
                record.event = UsageEvent.ITEM_CLOSED;
                record.openedMs = record.timeMs;
                record.timeMs += 1;
                log.append(record);
            }
        }
        long startNs = System.nanoTime();
        long count = 0;
        try (UsageLogReader reader = UsageLogReader.open(dir))
        {
            final UsageRecord r = new UsageRecord();
            while (reader.next(r))
            {
                count++;
            }
        }
        System.out.printf("read only: %d records in %d ms%n", count, (System.nanoTime() - startNs) / 1_000_000);
        startNs = System.nanoTime();
        final UsageReport report = UsageReportMain.read(dir, Long.MIN_VALUE, Long.MAX_VALUE, T + records);
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        System.out.printf("usage report: %d records in %d ms%n", report.records(), elapsedMs);
        assertEquals(records + 2, report.records());
        assertEquals(records / 2, report.code("62").grants);
        assertEquals(records / 2, report.code("62").watchMs);
    }
}
