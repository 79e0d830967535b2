package io.mdhub.benchmarks.console;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.mdhub.common.management.jmx.JmxClient;

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
    /** The environment variable holding the password when no --password-file is given. */
    static final String PASSWORD_ENV = "MDHUB_JMX_PASSWORD";

    @Option(names = "--once", description = "Print the overview once and exit (two readings --interval-ms apart, " +
        "so rates are filled in).")
    boolean isOnce;

    @Option(names = "--format", description = "With --once: table or json (default table).")
    String format = "table";

    @Option(names = "--remote", split = ",", paramLabel = "HOST:PORT",
        description = "Remote processes' JMX connectors (mdhub.jmx.port, or the JDK's " +
            "com.sun.management.jmxremote.port), comma separated.")
    List<String> remotes = new ArrayList<>();

    @Option(names = "--user", paramLabel = "NAME", description = "Log in to the remote processes as this user.")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE", description = "The user's password: the first line " +
        "of a file only its owner may read. Else the environment variable " + PASSWORD_ENV + ". Never on the " +
        "command line.")
    Path passwordFile;

    @Option(names = "--tls", description = "TLS to the remote processes (mdhub.jmx.ssl): the server certificate " +
        "is checked against the JVM's trust store (-Djavax.net.ssl.trustStore in JAVA_OPTS; a client certificate " +
        "for mutual TLS from -Djavax.net.ssl.keyStore).")
    boolean isTls;

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
        try (ConsoleModel model = ConsoleModel.of(remotes, remoteEnvironment(), !isNoLocal))
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

    private Map<String, Object> remoteEnvironment()
    {
        if (null == user)
        {
            if (null != passwordFile)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "--password-file needs --user");
            }
            return JmxClient.environment(null, null, isTls);
        }
        final String password;
        if (null != passwordFile)
        {
            try
            {
                password = JmxClient.password(passwordFile);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
            }
        }
        else
        {
            password = System.getenv(PASSWORD_ENV);
            if (null == password)
            {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--user needs --password-file FILE or the environment variable " + PASSWORD_ENV);
            }
        }
        return JmxClient.environment(user, password, isTls);
    }
}
