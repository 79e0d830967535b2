package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.googlecode.lanterna.SGR;
import com.googlecode.lanterna.TerminalSize;
import com.googlecode.lanterna.TextColor;
import com.googlecode.lanterna.graphics.TextGraphics;
import com.googlecode.lanterna.input.KeyStroke;
import com.googlecode.lanterna.input.KeyType;
import com.googlecode.lanterna.screen.Screen;
import com.googlecode.lanterna.screen.TerminalScreen;
import com.googlecode.lanterna.terminal.DefaultTerminalFactory;
import com.googlecode.lanterna.terminal.Terminal;

/**
 * The interactive console: the overview redrawn at each refresh, a selected process (arrow keys) whose details
 * (its services, connections, partitions and counters) Enter opens and Escape closes, and its operations behind a
 * confirmation ({@link ConsoleOperations}). Keys are read by a thread of their own that blocks on the terminal, so
 * the screen thread sleeps until a key or the next refresh is due.
 */
final class ConsoleScreen
{
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final ConsoleModel model;
    private final long intervalMs;
    private final BlockingQueue<KeyStroke> keys = new LinkedBlockingQueue<>();
    private List<ProcessRow> rows = List.of();
    private int selected;
    private boolean isDetail;
    private ConsoleOperations.Pending pending;
    private String message = "";

    ConsoleScreen(final ConsoleModel model, final long intervalMs)
    {
        this.model = model;
        this.intervalMs = intervalMs;
    }

    /**
     * Run until the user quits (q, or Ctrl-C).
     *
     * @throws IOException          when the terminal fails.
     * @throws InterruptedException when interrupted.
     */
    void run() throws IOException, InterruptedException
    {
        final Terminal terminal = new DefaultTerminalFactory().createTerminal();
        final Screen screen = new TerminalScreen(terminal);
        screen.startScreen();
        screen.setCursorPosition(null);
        final Thread reader = new Thread(() -> readKeys(screen), "console-keys");
        reader.setDaemon(true);
        reader.start();
        try
        {
            long nextRefreshNs = 0;
            while (true)
            {
                if (System.nanoTime() - nextRefreshNs >= 0)
                {
                    rows = model.refresh();
                    selected = Math.min(selected, Math.max(0, rows.size() - 1));
                    nextRefreshNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(intervalMs);
                }
                draw(screen);
                final KeyStroke key = keys.poll(
                    Math.max(1, nextRefreshNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (null != key && !onKey(key))
                {
                    return;
                }
            }
        }
        finally
        {
            screen.stopScreen();
        }
    }

    private void readKeys(final Screen screen)
    {
        try
        {
            while (true)
            {
                final KeyStroke key = screen.readInput();
                if (null == key || KeyType.EOF == key.getKeyType())
                {
                    keys.add(new KeyStroke('q', false, false));
                    return;
                }
                keys.add(key);
            }
        }
        catch (final IOException ex)
        {
            keys.add(new KeyStroke('q', false, false));
        }
    }

    /**
     * @return false to quit.
     */
    private boolean onKey(final KeyStroke key)
    {
        final Character character = key.getCharacter();
        if (null != pending)
        {
            message = 'y' == (null == character ? 0 : character) ? pending.confirm() : "cancelled: " + pending.what();
            pending = null;
            return true;
        }
        if (KeyType.Character == key.getKeyType() && ('q' == character || 'Q' == character) ||
            key.isCtrlDown() && 'c' == (null == character ? 0 : character))
        {
            return false;
        }
        switch (key.getKeyType())
        {
            case ArrowUp -> selected = Math.max(0, selected - 1);
            case ArrowDown -> selected = Math.min(Math.max(0, rows.size() - 1), selected + 1);
            case Enter -> isDetail = !rows.isEmpty();
            case Escape -> isDetail = false;
            case Character ->
            {
                if (isDetail && !rows.isEmpty())
                {
                    final ProcessRow row = rows.get(selected);
                    pending = ConsoleOperations.ask(model, row, character);
                    message = null == pending ? "" : pending.what() + "? y to confirm, any other key to cancel";
                }
            }
            default ->
            {
            }
        }
        return true;
    }

    private void draw(final Screen screen)
    {
        screen.doResizeIfNecessary();
        screen.clear();
        final TerminalSize size = screen.getTerminalSize();
        final TextGraphics g = screen.newTextGraphics();
        g.enableModifiers(SGR.BOLD);
        g.putString(0, 0, "MDHub console  " + LocalTime.now().format(CLOCK) + "  " + rows.size() + " process(es)  " +
            (isDetail ? "Esc back, letters for operations, q quit" : "Up/Down select, Enter details, q quit"));
        g.disableModifiers(SGR.BOLD);
        if (isDetail && !rows.isEmpty())
        {
            drawDetail(g, rows.get(selected), size);
        }
        else
        {
            drawOverview(g, size);
        }
        g.putString(0, size.getRows() - 1, message);
        try
        {
            screen.refresh();
        }
        catch (final IOException ex)
        {
            message = "screen: " + ex.getMessage();
        }
    }

    private void drawOverview(final TextGraphics g, final TerminalSize size)
    {
        g.putString(0, 2, OverviewFormat.heading());
        for (int i = 0; i < rows.size() && i + 3 < size.getRows() - 1; i++)
        {
            if (i == selected)
            {
                g.setBackgroundColor(TextColor.ANSI.BLUE);
                g.setForegroundColor(TextColor.ANSI.WHITE);
            }
            g.putString(0, i + 3, OverviewFormat.line(rows.get(i)));
            g.setBackgroundColor(TextColor.ANSI.DEFAULT);
            g.setForegroundColor(TextColor.ANSI.DEFAULT);
        }
    }

    private void drawDetail(final TextGraphics g, final ProcessRow row, final TerminalSize size)
    {
        final List<String> lines = new ArrayList<>();
        lines.add(OverviewFormat.heading());
        lines.add(OverviewFormat.line(row));
        lines.add("");
        lines.add("operations: " + ConsoleOperations.menu(row));
        final ProcessSample sample = model.sample(row.target());
        if (null != sample)
        {
            section(lines, "services", sample.services);
            section(lines, "connections", sample.connections);
            section(lines, "partitions", sample.partitions);
            lines.add("counters:");
            sample.counters.forEach((label, value) -> lines.add("  " + value + "  " + label));
        }
        for (int i = 0; i < lines.size() && i + 2 < size.getRows() - 1; i++)
        {
            g.putString(0, i + 2, lines.get(i));
        }
    }

    private static void section(final List<String> lines, final String title, final String[] entries)
    {
        if (entries.length > 0)
        {
            lines.add(title + ":");
            for (final String entry : entries)
            {
                lines.add("  " + entry);
            }
        }
    }
}
