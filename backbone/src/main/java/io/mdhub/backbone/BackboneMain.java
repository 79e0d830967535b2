package io.mdhub.backbone;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;

import io.aeron.AeronVersion;
import io.aeron.exceptions.AeronException;
import io.mdhub.common.config.ConfigLoader;
import io.mdhub.common.management.ManagementServer;
import io.mdhub.common.management.jmx.JmxServer;
import io.mdhub.common.metrics.CountersExport;
import io.mdhub.common.status.MdCounters;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The standalone backbone daemon ({@code mdhub-backbone.jar}, {@code bin/mdhub backbone}): one Aeron media driver
 * that every MDHub process on the host shares, like the RMDS rrcpd. It loads configuration files and overrides into
 * system properties, launches a {@link BackboneNode}, exports the driver's counters over JMX, prints the concluded
 * configuration and a ready line, then runs until SIGINT or SIGTERM and closes cleanly (exit status 0).
 * Exit status 2 means bad usage or configuration, 1 a failure to start or run.
 */
@Command(
    name = "mdhub-backbone",
    mixinStandardHelpOptions = true,
    versionProvider = BackboneMain.VersionProvider.class,
    sortOptions = false,
    description = "Runs the MDHub backbone: the Aeron media driver shared by every MDHub process on this host.%n" +
        "Settings are mdhub.backbone.* keys (and aeron.* keys for anything else), from --config files, then " +
        "JVM -D options, then -D options given here, then the shortcut options.")
public final class BackboneMain implements Callable<Integer>
{
    /**
     * Start of the line printed once the driver accepts clients; tests and scripts wait for it.
     */
    public static final String READY_LINE_PREFIX = "mdhub-backbone ready";

    /**
     * Line printed after a clean close.
     */
    public static final String CLOSED_LINE = "mdhub-backbone closed";

    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;

    @Option(names = "--config", paramLabel = "FILE",
        description = "Properties file (path, classpath resource or URL); repeatable, later files do not replace " +
            "keys set by earlier ones.")
    private final List<String> configFiles = new ArrayList<>();

    @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
        description = "Set a configuration key, replacing any file or JVM value; repeatable.")
    private final Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Aeron directory; same as -D " + BackboneConfiguration.AERON_DIR_PROP_NAME + "=DIR.")
    private String aeronDir;

    @Option(names = "--threading-mode", paramLabel = "MODE",
        description = "SHARED, SHARED_NETWORK or DEDICATED; same as -D " +
            BackboneConfiguration.THREADING_MODE_PROP_NAME + "=MODE.")
    private String threadingMode;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Entry point of {@code mdhub-backbone.jar}.
     *
     * @param args command-line arguments; {@code --help} lists them.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * Parse, run until signalled, and return the exit status (for tests and embedding; does not exit the JVM).
     *
     * @param args command-line arguments.
     * @return the exit status.
     */
    public static int run(final String[] args)
    {
        return new CommandLine(new BackboneMain())
            .setExecutionExceptionHandler(BackboneMain::onExecutionException)
            .execute(args);
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        ConfigLoader.loadChecked(configFiles, shortcutOverrides());

        final BackboneNode.Context ctx = new BackboneNode.Context();
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        // remote JMX first: a bad or unsafe setting stops the daemon before it starts a driver
        try (JmxServer jmx = JmxServer.launch("mdhub-backbone");
            BackboneNode node = BackboneNode.launch(ctx))
        {
            // The export reads the driver's mapped counters: it closes before the driver unmaps them.
            try (CountersExport export = CountersExport.start(node.countersReader(), "aeron", MdCounters::isMonotonic);
                ManagementServer http = ManagementServer.launch(new ManagementServer.Context()
                    .port(BackboneConfiguration.httpPort(), BackboneConfiguration.HTTP_PORT_PROP_NAME)
                    .checks(BackboneHealth.of("mdhub-backbone", node.aeronDirectoryName()))))
            {
                out.print(ctx);
                out.println(READY_LINE_PREFIX + ": aeronDir=" + node.aeronDirectoryName() + " threadingMode=" +
                    ctx.concludedThreadingMode() + " " + ManagementServer.describe(http) + " " +
                    JmxServer.describe(jmx) + " pid=" +
                    ProcessHandle.current().pid() + " aeron=" + AeronVersion.VERSION);
                out.flush();
                barrier.await();
            }
        }
        finally
        {
            barrier.remove();
        }
        out.println(CLOSED_LINE);
        out.flush();
        return EXIT_OK;
    }

    private Map<String, String> shortcutOverrides()
    {
        final Map<String, String> all = new LinkedHashMap<>(overrides);
        if (null != aeronDir)
        {
            all.put(BackboneConfiguration.AERON_DIR_PROP_NAME, aeronDir);
        }
        if (null != threadingMode)
        {
            all.put(BackboneConfiguration.THREADING_MODE_PROP_NAME, threadingMode);
        }
        return all;
    }

    private static int onExecutionException(
        final Exception ex, final CommandLine commandLine, final CommandLine.ParseResult parseResult)
    {
        final PrintWriter err = commandLine.getErr();
        if (ex instanceof IllegalArgumentException)
        {
            err.println("mdhub-backbone: bad configuration: " + ex.getMessage());
            err.flush();
            return EXIT_USAGE;
        }
        if (ex instanceof AeronException)
        {
            // e.g. ActiveDriverException: another driver is live in this directory.
            err.println("mdhub-backbone: cannot start the media driver: " + ex.getMessage());
            err.flush();
            return EXIT_FAILURE;
        }
        err.println("mdhub-backbone: failed: " + ex);
        ex.printStackTrace(err);
        err.flush();
        return EXIT_FAILURE;
    }

    /**
     * Version from the jar manifest, with the Aeron version it embeds.
     */
    static final class VersionProvider implements CommandLine.IVersionProvider
    {
        public String[] getVersion()
        {
            final String version = BackboneMain.class.getPackage().getImplementationVersion();
            return new String[] {
                "mdhub-backbone " + (null == version ? "(not run from the jar)" : version),
                "Aeron " + AeronVersion.VERSION + " (" + AeronVersion.GIT_SHA + ")",
                "Java " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name")
            };
        }
    }
}
