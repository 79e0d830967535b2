package io.mdhub.benchmarks.chaos;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The rounds of a chaos run as a table: one row per round, the verdict last, printed as aligned text (a row as each
 * round ends, the whole table at the end), CSV, markdown and JSON. Cells are text as printed; the JSON keeps the
 * column names as keys and writes cells that are numbers as numbers.
 */
public final class ChaosTable
{
    private static final JsonFactory JSON = new JsonFactory();
    private static final int FAULT_WIDTH = 16;
    private static final int NUMBER_WIDTH = 6;

    private final List<String> columns;
    private final List<List<String>> rows = new ArrayList<>();

    /**
     * @param columns the column names, the verdict last.
     */
    public ChaosTable(final List<String> columns)
    {
        this.columns = List.copyOf(columns);
    }

    /**
     * @param cells one round's cells, one per column.
     * @return this.
     */
    public ChaosTable add(final List<String> cells)
    {
        if (cells.size() != columns.size())
        {
            throw new IllegalArgumentException(columns.size() + " columns, " + cells.size() + " cells: " + cells);
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    /**
     * @return the rows so far.
     */
    public List<List<String>> rows()
    {
        return Collections.unmodifiableList(rows);
    }

    /**
     * @return the header and every row, columns aligned (the fault left, the figures right), the verdict unpadded.
     */
    public String text()
    {
        final int[] widths = widths();
        final StringBuilder text = new StringBuilder(line(columns, widths)).append('\n');
        for (final List<String> row : rows)
        {
            text.append(line(row, widths)).append('\n');
        }
        return text.toString();
    }

    /**
     * @return the header line, aligned as {@link #row(int)} prints rows while the run goes on.
     */
    public String header()
    {
        return line(columns, headerWidths());
    }

    /**
     * @param index a row.
     * @return that row alone, aligned under {@link #header()}.
     */
    public String row(final int index)
    {
        return line(rows.get(index), headerWidths());
    }

    /**
     * @return RFC 4180 CSV: the header, then a line per round.
     */
    public String csv()
    {
        final StringBuilder csv = new StringBuilder();
        csvLine(csv, columns);
        for (final List<String> row : rows)
        {
            csvLine(csv, row);
        }
        return csv.toString();
    }

    /**
     * @return a markdown table.
     */
    public String markdown()
    {
        final StringBuilder md = new StringBuilder("| ").append(String.join(" | ", columns)).append(" |\n|");
        for (int c = 0; c < columns.size(); c++)
        {
            md.append(c == 0 || c == columns.size() - 1 ? "---|" : "---:|");
        }
        md.append('\n');
        for (final List<String> row : rows)
        {
            md.append("| ");
            for (int c = 0; c < row.size(); c++)
            {
                md.append(0 == c ? "" : " | ").append(row.get(c).replace("|", "\\|"));
            }
            md.append(" |\n");
        }
        return md.toString();
    }

    /**
     * @param header the run's settings and outcome, written first (strings, numbers and booleans as such).
     * @return a JSON object: the header's fields, then {@code rounds}, an object per row keyed by column name.
     */
    public String json(final Map<String, Object> header)
    {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out).useDefaultPrettyPrinter())
        {
            json.writeStartObject();
            for (final Map.Entry<String, Object> field : header.entrySet())
            {
                json.writeFieldName(field.getKey());
                writeValue(json, field.getValue());
            }
            json.writeArrayFieldStart("rounds");
            for (final List<String> row : rows)
            {
                json.writeStartObject();
                for (int c = 0; c < columns.size(); c++)
                {
                    json.writeFieldName(columns.get(c));
                    writeValue(json, row.get(c));
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.append('\n').toString();
    }

    private static void writeValue(final JsonGenerator json, final Object value) throws IOException
    {
        if (value instanceof Number || value instanceof Boolean)
        {
            json.writeRawValue(value.toString());
        }
        else if (value instanceof String && isNumber((String)value))
        {
            json.writeRawValue((String)value);
        }
        else
        {
            json.writeString(null == value ? "" : value.toString());
        }
    }

    private static boolean isNumber(final String cell)
    {
        return cell.matches("-?\\d+(\\.\\d+)?");
    }

    private int[] headerWidths()
    {
        final int[] widths = new int[columns.size()];
        for (int c = 0; c < columns.size(); c++)
        {
            // the second column names the fault, up to "both (0 then 1)" or "catch-up 0 (had caught up)"
            widths[c] = Math.max(columns.get(c).length(), 1 == c ? FAULT_WIDTH : NUMBER_WIDTH);
        }
        return widths;
    }

    private int[] widths()
    {
        final int[] widths = headerWidths();
        for (final List<String> row : rows)
        {
            for (int c = 0; c < row.size(); c++)
            {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        return widths;
    }

    private static String line(final List<String> cells, final int[] widths)
    {
        final StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++)
        {
            final String cell = cells.get(c);
            final boolean isLast = c == cells.size() - 1;
            if (0 != c)
            {
                line.append("  ");
            }
            if (isLast)
            {
                line.append(cell);
            }
            else if (1 != c)
            {
                line.append(" ".repeat(Math.max(0, widths[c] - cell.length()))).append(cell);
            }
            else
            {
                line.append(cell).append(" ".repeat(Math.max(0, widths[c] - cell.length())));
            }
        }
        return line.toString();
    }

    private static void csvLine(final StringBuilder csv, final List<String> cells)
    {
        for (int c = 0; c < cells.size(); c++)
        {
            final String cell = cells.get(c);
            if (0 != c)
            {
                csv.append(',');
            }
            if (cell.contains(",") || cell.contains("\"") || cell.contains("\n"))
            {
                csv.append('"').append(cell.replace("\"", "\"\"")).append('"');
            }
            else
            {
                csv.append(cell);
            }
        }
        csv.append('\n');
    }
}
