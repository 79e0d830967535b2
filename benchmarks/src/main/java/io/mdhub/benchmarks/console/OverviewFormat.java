package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The overview as text: a fixed-width table (the screen and {@code --format table}) or JSON
 * ({@code --format json}: one object per process, every figure under its row name, missing ones as null).
 */
final class OverviewFormat
{
    /** The table's columns: heading and width. */
    static final String[][] COLUMNS = {
        {"ROLE", "11"}, {"PROCESS", "16"}, {"NAME", "24"}, {"UP", "8"}, {"IN/s", "9"}, {"OUT/s", "9"},
        {"ITEMS", "8"}, {"CONS", "5"}, {"PROV", "5"}, {"SLOW", "5"}, {"GAPS", "5"}, {"RECOV", "6"},
        {"ORD/s", "7"}, {"ORDERS", "18"}, {"QUEUE", "6"}, {"RTTus", "6"}, {"ACK99us", "7"}, {"GCms/s", "7"},
        {"CPU%", "6"}, {"HEAP", "6"}, {"PAUSES", "6"},
    };
    private static final JsonFactory JSON = new JsonFactory();

    private OverviewFormat()
    {
    }

    /**
     * @return the table's heading line.
     */
    static String heading()
    {
        final List<String> cells = new ArrayList<>();
        for (final String[] column : COLUMNS)
        {
            cells.add(column[0]);
        }
        return line(cells);
    }

    /**
     * @param row a process.
     * @return its line of the table; an unreadable process shows its error after its target.
     */
    static String line(final ProcessRow row)
    {
        if (null != row.error())
        {
            return String.format(Locale.ROOT, "%-" + COLUMNS[0][1] + "s %-" + COLUMNS[1][1] + "s %s", row.role(),
                row.target(), "unreadable: " + row.error());
        }
        final List<String> cells = List.of(
            row.role(),
            row.target(),
            row.name(),
            duration(row.uptimeMs()),
            rate(row.updatesInPerSec()),
            rate(row.updatesOutPerSec()),
            count(row.items()),
            count(row.consumers()),
            count(row.providers()),
            count(row.slowConsumers()),
            count(row.gaps()),
            count(row.recoveries()),
            rate(row.ordersPerSec()),
            null == row.orderState() ? "-" : row.orderState() + "/" + row.standing(),
            count(row.queueDepth()),
            count(row.replicationRttUs()),
            count(row.ackP99Us()),
            decimal(row.gcMsPerSec()),
            decimal(row.cpuPercent()),
            row.heapUsedMb() < 0 ? "-" : row.heapUsedMb() + "M",
            count(row.pauses()));
        return line(cells);
    }

    /**
     * @param rows the processes.
     * @return the whole table, heading first, one line per process, and each order server's partitions below it.
     */
    static String table(final List<ProcessRow> rows)
    {
        final StringBuilder text = new StringBuilder(heading()).append('\n');
        for (final ProcessRow row : rows)
        {
            text.append(line(row)).append('\n');
            if (null != row.partitions() && !row.partitions().isEmpty())
            {
                text.append("            partitions ").append(row.partitions()).append('\n');
            }
        }
        return text.toString();
    }

    /**
     * @param rows the processes.
     * @return a JSON array, one object per process.
     */
    static String json(final List<ProcessRow> rows)
    {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out))
        {
            json.writeStartArray();
            for (final ProcessRow row : rows)
            {
                json.writeStartObject();
                json.writeStringField("target", row.target());
                json.writeStringField("role", row.role());
                if (null != row.error())
                {
                    json.writeStringField("error", row.error());
                    json.writeEndObject();
                    continue;
                }
                json.writeStringField("name", row.name());
                json.writeNumberField("pid", row.pid());
                json.writeNumberField("uptimeMs", row.uptimeMs());
                number(json, "updatesInPerSec", row.updatesInPerSec());
                number(json, "updatesOutPerSec", row.updatesOutPerSec());
                count(json, "items", row.items());
                count(json, "consumers", row.consumers());
                count(json, "providers", row.providers());
                count(json, "slowConsumerDisconnects", row.slowConsumers());
                count(json, "backboneGaps", row.gaps());
                count(json, "backboneRecoveries", row.recoveries());
                number(json, "ordersAckedPerSec", row.ordersPerSec());
                json.writeStringField("orderState", row.orderState());
                json.writeStringField("standing", row.standing());
                json.writeStringField("partitions", row.partitions());
                count(json, "queueDepth", row.queueDepth());
                count(json, "replicationRttUs", row.replicationRttUs());
                count(json, "orderAckP50Us", row.ackP50Us());
                count(json, "orderAckP99Us", row.ackP99Us());
                number(json, "gcMsPerSec", row.gcMsPerSec());
                number(json, "cpuPercent", row.cpuPercent());
                count(json, "heapUsedMb", row.heapUsedMb());
                count(json, "pauses", row.pauses());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("overview not written", ex); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }

    private static void number(final JsonGenerator json, final String name, final double value) throws IOException
    {
        if (Double.isNaN(value))
        {
            json.writeNullField(name);
        }
        else
        {
            json.writeNumberField(name, Math.round(value * 10) / 10.0);
        }
    }

    private static void count(final JsonGenerator json, final String name, final long value) throws IOException
    {
        if (value < 0)
        {
            json.writeNullField(name);
        }
        else
        {
            json.writeNumberField(name, value);
        }
    }

    private static String line(final List<String> cells)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < cells.size(); i++)
        {
            final int width = Integer.parseInt(COLUMNS[i][1]);
            final String cell = cells.get(i).length() > width ? cells.get(i).substring(0, width) : cells.get(i);
            text.append(i < 4 || 13 == i ? String.format(Locale.ROOT, "%-" + width + "s", cell) :
                String.format(Locale.ROOT, "%" + width + "s", cell));
            text.append(i == cells.size() - 1 ? "" : " ");
        }
        return text.toString().stripTrailing();
    }

    static String duration(final long ms)
    {
        if (ms < 0)
        {
            return "-";
        }
        final long seconds = ms / 1000;
        return seconds < 3600 ? String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60) :
            seconds < 86_400 ? String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds / 60 % 60) :
            String.format(Locale.ROOT, "%dd%02dh", seconds / 86_400, seconds / 3600 % 24);
    }

    private static String rate(final double value)
    {
        if (Double.isNaN(value))
        {
            return "-";
        }
        return value >= 10_000_000 ? String.format(Locale.ROOT, "%.1fM", value / 1e6) :
            String.format(Locale.ROOT, "%.0f", value);
    }

    private static String decimal(final double value)
    {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String count(final long value)
    {
        return value < 0 ? "-" : Long.toString(value);
    }
}
