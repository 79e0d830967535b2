package io.mdhub.p2p.entitlement;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * A {@link UsageReport} as text: an aligned table for people, CSV (two blocks, users then codes, each with its
 * header) or JSON for tools. Durations are milliseconds in CSV and JSON, {@code h:mm:ss.mmm} in the table.
 */
final class UsageReportFormat
{
    private static final String[] USER_HEADER = {
        "user", "logins", "logins-denied", "items", "items-denied", "distinct-items", "watch", "open", "posts-denied"};
    private static final String[] CODE_HEADER = {"code", "name", "users", "distinct-items", "grants", "watch", "open"};

    private UsageReportFormat()
    {
    }

    static String table(final UsageReport report, final Map<String, String> names)
    {
        final StringBuilder out = new StringBuilder();
        out.append("Usage ").append(window(report)).append(": ").append(report.recordsInWindow())
            .append(" records in the window (").append(report.records()).append(" read)\n\n");
        out.append("Per user\n");
        final List<String[]> userRows = new ArrayList<>();
        userRows.add(USER_HEADER);
        for (final UsageReport.UserFigures user : report.users())
        {
            userRows.add(userRow(user, UsageReportFormat::duration));
        }
        align(out, userRows);
        out.append("\nPer exchange (permission code)\n");
        final List<String[]> codeRows = new ArrayList<>();
        codeRows.add(CODE_HEADER);
        for (final UsageReport.CodeFigures code : report.codes())
        {
            codeRows.add(codeRow(code, names, UsageReportFormat::duration));
        }
        align(out, codeRows);
        notes(out, report);
        return out.toString();
    }

    static String csv(final UsageReport report, final Map<String, String> names)
    {
        final StringBuilder out = new StringBuilder();
        final String[] userHeader = USER_HEADER.clone();
        userHeader[6] = "watch-ms";
        csvLine(out, userHeader);
        for (final UsageReport.UserFigures user : report.users())
        {
            csvLine(out, userRow(user, Long::toString));
        }
        out.append('\n');
        final String[] codeHeader = CODE_HEADER.clone();
        codeHeader[5] = "watch-ms";
        csvLine(out, codeHeader);
        for (final UsageReport.CodeFigures code : report.codes())
        {
            csvLine(out, codeRow(code, names, Long::toString));
        }
        return out.toString();
    }

    static String json(final UsageReport report, final Map<String, String> names)
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text))
        {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("from", Long.MIN_VALUE == report.fromMs() ? null : iso(report.fromMs()));
            json.writeStringField("to", Long.MAX_VALUE == report.toMs() ? null : iso(report.toMs()));
            json.writeStringField("openCountedTo", iso(report.endMs()));
            json.writeNumberField("records", report.records());
            json.writeNumberField("recordsInWindow", report.recordsInWindow());
            json.writeNumberField("streamsEndedByRestart", report.endedByRestart());
            json.writeNumberField("unknownEvents", report.unknownEvents());
            json.writeArrayFieldStart("users");
            for (final UsageReport.UserFigures user : report.users())
            {
                json.writeStartObject();
                json.writeStringField("user", user.user);
                json.writeNumberField("loginsGranted", user.loginsGranted);
                json.writeNumberField("loginsDenied", user.loginsDenied);
                json.writeNumberField("itemsGranted", user.itemsGranted);
                json.writeNumberField("itemsDenied", user.itemsDenied);
                json.writeNumberField("distinctItems", user.items.size());
                json.writeNumberField("watchMs", user.watchMs);
                json.writeNumberField("openStreams", user.open);
                json.writeNumberField("postsDenied", user.postsDenied);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("exchanges");
            for (final UsageReport.CodeFigures code : report.codes())
            {
                json.writeStartObject();
                json.writeStringField("code", code.code);
                json.writeStringField("name", names.get(code.code));
                json.writeNumberField("users", code.users.size());
                json.writeNumberField("distinctItems", code.items.size());
                json.writeNumberField("grants", code.grants);
                json.writeNumberField("watchMs", code.watchMs);
                json.writeNumberField("openStreams", code.open);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return text + "\n";
    }

    private static String[] userRow(
        final UsageReport.UserFigures user, final java.util.function.LongFunction<String> watch)
    {
        return new String[] {user.user, Long.toString(user.loginsGranted), Long.toString(user.loginsDenied),
            Long.toString(user.itemsGranted), Long.toString(user.itemsDenied), Integer.toString(user.items.size()),
            watch.apply(user.watchMs), Long.toString(user.open), Long.toString(user.postsDenied)};
    }

    private static String[] codeRow(
        final UsageReport.CodeFigures code,
        final Map<String, String> names,
        final java.util.function.LongFunction<String> watch)
    {
        return new String[] {code.code, names.getOrDefault(code.code, ""), Integer.toString(code.users.size()),
            Integer.toString(code.items.size()), Long.toString(code.grants), watch.apply(code.watchMs),
            Long.toString(code.open)};
    }

    private static void notes(final StringBuilder out, final UsageReport report)
    {
        out.append("\nOpen streams counted up to ").append(iso(report.endMs())).append('.');
        if (report.endedByRestart() > 0)
        {
            out.append(' ').append(report.endedByRestart()).append(" streams were ended by a restart without close " +
                "records: counted up to the last record before it.");
        }
        if (report.unknownEvents() > 0)
        {
            out.append(' ').append(report.unknownEvents())
                .append(" records of events this version does not know were skipped.");
        }
        out.append('\n');
    }

    private static String window(final UsageReport report)
    {
        return (Long.MIN_VALUE == report.fromMs() ? "from the start" : "from " + iso(report.fromMs())) +
            (Long.MAX_VALUE == report.toMs() ? " to the end" : " to " + iso(report.toMs()));
    }

    private static String iso(final long timeMs)
    {
        return Instant.ofEpochMilli(timeMs).toString();
    }

    /**
     * @param ms a duration in milliseconds.
     * @return it as {@code h:mm:ss.mmm}.
     */
    static String duration(final long ms)
    {
        return String.format("%d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    }

    private static void align(final StringBuilder out, final List<String[]> rows)
    {
        final int[] widths = new int[rows.get(0).length];
        for (final String[] row : rows)
        {
            for (int i = 0; i < row.length; i++)
            {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (final String[] row : rows)
        {
            final StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++)
            {
                line.append(0 == i ? "" : "  ");
                if (0 == i || 1 == i && row.length == CODE_HEADER.length)
                {
                    line.append(String.format("%-" + widths[i] + "s", row[i]));
                }
                else
                {
                    line.append(String.format("%" + widths[i] + "s", row[i]));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static void csvLine(final StringBuilder out, final String[] cells)
    {
        for (int i = 0; i < cells.length; i++)
        {
            out.append(0 == i ? "" : ",").append(csvCell(cells[i]));
        }
        out.append('\n');
    }

    private static String csvCell(final String cell)
    {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0)
        {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }
}
