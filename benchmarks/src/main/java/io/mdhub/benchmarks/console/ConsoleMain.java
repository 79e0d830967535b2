package io.mdhub.benchmarks.console;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub console}: the overview of this host's MDHub servers (and remote ones), live in the terminal, or
 * once as a table or JSON.
 */
@Command(
    name = "mdhub console",
    mixinStandardHelpOptions = true,
    description = "The operator's console over JMX: every MDHub server of this host (found through the attach API, " +
        "run it as the servers' user) and remote ones, refreshed every second.")
public final class ConsoleMain implements Callable<Integer>
{
    @Option(names = "--once", description = "Print the overview once and exit (two readings --interval-ms apart, " +
        "so rates are filled in).")
    boolean isOnce;

    @Option(names = "--format", description = "With --once: table or json (default table).")
    String format = "table";

    @Option(names = "--remote", split = ",", paramLabel = "HOST:PORT",
        description = "Remote processes' JMX RMI connectors (com.sun.management.jmxremote.port), comma separated.")
    List<String> remotes = new ArrayList<>();

    @Option(names = "--no-local", description = "Do not look for this host's servers.")
    boolean isNoLocal;

    @Option(names = "--interval-ms", description = "Refresh period (default 1000).")
    long intervalMs = 1000;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (!"table".equals(format) && !"json".equals(format))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--format is table or json: " + format);
        }
        if (intervalMs < 100 || intervalMs > 60_000)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--interval-ms is 100 to 60000");
        }
        try (ConsoleModel model = ConsoleModel.of(remotes, !isNoLocal))
        {
            if (!isOnce)
            {
                new ConsoleScreen(model, intervalMs).run();
                return 0;
            }
            model.refresh();
            Thread.sleep(intervalMs);
            final List<ProcessRow> rows = model.refresh();
            final PrintWriter out = spec.commandLine().getOut();
            out.print("json".equals(format) ? OverviewFormat.json(rows) : OverviewFormat.table(rows));
            out.flush();
            return rows.stream().anyMatch((row) -> null != row.error()) ? 1 : 0;
        }
    }
}
