package io.mdhub.backbone;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mdhub.common.config.ConfigLoader;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The command-line options every MDHub server main shares (a picocli mixin): configuration files, {@code -D}
 * overrides, the listening port, and how to reach the backbone. {@link #loadConfiguration(String)} turns them into
 * system properties, where the components' {@code *Configuration} classes read them.
 */
public final class ServerOptions
{
    @Option(names = "--config", paramLabel = "FILE", description = "Properties file; repeatable.")
    private final List<String> configFiles = new ArrayList<>();

    @Option(names = "-D", paramLabel = "KEY=VALUE", description = "Set a configuration key; repeatable.")
    private final Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--port", description = "Listening port (overrides the component's port key).")
    private Integer port;

    @Option(names = "--aeron-dir", paramLabel = "DIR", description = "Aeron directory of the backbone.")
    private String aeronDir;

    @Option(names = "--embedded-driver", description = "Run a media driver in this process.")
    private boolean embeddedDriver;

    /**
     * Load files and overrides into system properties; {@code --port} and {@code --aeron-dir} win over both.
     *
     * @param portPropertyName the component's port key.
     */
    public void loadConfiguration(final String portPropertyName)
    {
        if (null != port)
        {
            overrides.put(portPropertyName, port.toString());
        }
        if (null != aeronDir)
        {
            overrides.put(BackboneConfiguration.AERON_DIR_PROP_NAME, aeronDir);
        }
        ConfigLoader.loadChecked(configFiles, overrides);
    }

    /**
     * A launcher's handler for what its command throws: a bad configuration (an unknown key, a value out of range,
     * a missing file) is one line on stderr and exit status 2; anything else is the stack trace and status 1.
     *
     * @param component the launcher's name at the start of the line.
     * @return the handler to give picocli.
     */
    public static CommandLine.IExecutionExceptionHandler exitOnBadConfiguration(final String component)
    {
        return (ex, commandLine, parseResult) ->
        {
            if (ex instanceof IllegalArgumentException)
            {
                commandLine.getErr().println(component + ": bad configuration: " + ex.getMessage());
                commandLine.getErr().flush();
                return 2;
            }
            throw ex;
        };
    }

    /**
     * @return true to run a media driver in this process instead of joining the host's daemon.
     */
    public boolean isEmbeddedDriver()
    {
        return embeddedDriver;
    }
}
