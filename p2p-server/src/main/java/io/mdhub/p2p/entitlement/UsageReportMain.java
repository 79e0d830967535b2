package io.mdhub.p2p.entitlement;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.mdhub.common.entitlement.EntitlementFile;
import io.mdhub.common.entitlement.EntitlementFileException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub usage-report}: who watched what, from a p2p-server's usage directory ({@link ChronicleUsageLog}),
 * per user and per exchange permission code. Exit status 0, 1 when the directory is not a readable usage log (the
 * reason on standard error), 2 for bad arguments.
 */
@Command(
    name = "usage-report",
    mixinStandardHelpOptions = true,
    description = "Report the usage records of a p2p-server: per user (logins, items, watch time, posts denied) and " +
        "per exchange permission code (users, items, grants, watch time).")
public final class UsageReportMain implements Callable<Integer>
{
    @Option(names = "--dir", required = true, description = "The server's usage directory (mdhub.p2p.usage.dir).")
    Path dir;

    @Option(names = "--from", converter = TimeConverter.class,
        description = "Window start, inclusive: an ISO date-time with offset (2026-11-30T00:00Z) or a date (UTC " +
        "midnight). Reading starts at that day's file. Default: the first record.")
    Long fromMs;

    @Option(names = "--to", converter = TimeConverter.class,
        description = "Window end, exclusive; streams still open then count up to it. Default: now.")
    Long toMs;

    @Option(names = "--format", defaultValue = "table", description = "table, csv or json (default ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--code-names", description = "File of permission code names, a line each: '62 NYSE'.")
    Path codeNames;

    @Option(names = "--entitlements", description = "The servers' entitlement file: its 'code 62 NYSE' lines name "
        + "the permission codes (with --code-names, that file's names win).")
    Path entitlements;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Parses {@code --from}/{@code --to}.
     */
    static final class TimeConverter implements CommandLine.ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            try
            {
                return OffsetDateTime.parse(value).toInstant().toEpochMilli();
            }
            catch (final DateTimeParseException ex)
            {
                try
                {
                    return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
                }
                catch (final DateTimeParseException ignore)
                {
                    throw new CommandLine.TypeConversionException(
                        "not an ISO date-time with offset (2026-11-30T00:00Z) or date (2026-11-30): " + value);
                }
            }
        }
    }

    @Override
    public Integer call()
    {
        if (!List.of("table", "csv", "json").contains(format))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--format is table, csv or json: " + format);
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final Map<String, String> names = new HashMap<>();
            if (null != entitlements)
            {
                readEntitlementCodeNames(entitlements, names);
            }
            if (null != codeNames)
            {
                names.putAll(readCodeNames(codeNames));
            }
            final UsageReport report = read(dir, null == fromMs ? Long.MIN_VALUE : fromMs,
                null == toMs ? Long.MAX_VALUE : toMs, System.currentTimeMillis());
            out.print(switch (format)
            {
                case "csv" -> UsageReportFormat.csv(report, names);
                case "json" -> UsageReportFormat.json(report, names);
                default -> UsageReportFormat.table(report, names);
            });
            out.flush();
            return 0;
        }
        catch (final UsageLogException ex)
        {
            err.println("usage-report: " + ex.getMessage());
            err.flush();
            return 1;
        }
    }

    /**
     * Read a usage directory into a report.
     *
     * @param dir    the usage directory.
     * @param fromMs window start (Long.MIN_VALUE: from the first record).
     * @param toMs   window end (Long.MAX_VALUE: none).
     * @param nowMs  when streams still open stop counting if the window has no end.
     * @return the finished report.
     * @throws UsageLogException if the directory is not a readable usage log.
     */
    public static UsageReport read(final Path dir, final long fromMs, final long toMs, final long nowMs)
    {
        final UsageReport report = new UsageReport(fromMs, toMs);
        final UsageRecord record = new UsageRecord();
        try (UsageLogReader reader = UsageLogReader.open(dir))
        {
            if (Long.MIN_VALUE != fromMs)
            {
                reader.skipToDayOf(fromMs);
            }
            while (reader.next(record))
            {
                report.accept(record);
            }
        }
        return report.finish(Math.min(nowMs, toMs));
    }

    private static void readEntitlementCodeNames(final Path file, final Map<String, String> names)
    {
        try
        {
            EntitlementFile.read(file).codeNames().forEach((code, name) -> names.put(Integer.toString(code), name));
        }
        catch (final EntitlementFileException ex)
        {
            throw new UsageLogException("--entitlements: " + ex.getMessage(), ex);
        }
    }

    private static Map<String, String> readCodeNames(final Path file)
    {
        final Map<String, String> names = new HashMap<>();
        try
        {
            for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
            {
                final String trimmed = line.trim();
                if (trimmed.isEmpty() || trimmed.startsWith("#"))
                {
                    continue;
                }
                final String[] parts = trimmed.split("\\s+", 2);
                names.put(parts[0], parts.length > 1 ? parts[1] : "");
            }
        }
        catch (final IOException ex)
        {
            throw new UsageLogException("cannot read --code-names " + file + ": " + ex.getMessage(), ex);
        }
        return names;
    }
}
