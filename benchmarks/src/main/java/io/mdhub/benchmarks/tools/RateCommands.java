package io.mdhub.benchmarks.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import io.mdhub.common.concurrent.ToolShutdown;

/**
 * The commands a load tool takes on standard input while it runs, as the benches drive it: {@code ur <rate>}
 * changes the update rate, {@code quit} stops it. Read on a daemon thread of their own.
 */
public final class RateCommands
{
    private RateCommands()
    {
    }

    /**
     * Start reading commands.
     *
     * @param tool        the tool's name, the start of every line it prints.
     * @param rateControl takes a new rate (updates/s, not negative); an IllegalArgumentException refuses it.
     * @param out         where answers go.
     * @param shutdown    what {@code quit} stops.
     */
    public static void start(
        final String tool, final LongConsumer rateControl, final PrintWriter out, final ToolShutdown shutdown)
    {
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    onCommand(tool, rateControl, out, line.trim(), shutdown);
                }
            }
            catch (final IOException ex)
            {
                out.println(tool + ": standard input closed: " + ex.getMessage());
            }
        }, tool + "-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    static void onCommand(
        final String tool,
        final LongConsumer rateControl,
        final PrintWriter out,
        final String line,
        final ToolShutdown shutdown)
    {
        if (line.startsWith("ur "))
        {
            try
            {
                final long newRate = Long.parseLong(line.substring(3).trim());
                if (newRate < 0)
                {
                    throw new IllegalArgumentException("negative rate");
                }
                rateControl.accept(newRate);
                out.println(tool + ": rate now " + newRate + " updates/s");
            }
            catch (final IllegalArgumentException ex) // NumberFormatException included
            {
                out.println(tool + ": usage: ur <updates per second>");
            }
        }
        else if ("quit".equals(line) || "q".equals(line))
        {
            shutdown.stop();
        }
        else if (!line.isEmpty())
        {
            out.println(tool + ": commands: ur <rate>, quit");
        }
        out.flush();
    }
}
