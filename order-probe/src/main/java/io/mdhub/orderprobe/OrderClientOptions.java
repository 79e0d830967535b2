package io.mdhub.orderprobe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.mdhub.common.config.ConfigLoader;
import io.mdhub.common.order.client.OrderClientConfiguration;
import picocli.CommandLine.Option;

/**
 * The order-client options the order tools share (a picocli mixin): where the servers are, and the usual {@code
 * --config} files and {@code -D} overrides. The shortcuts are
 * {@code mdhub.order.client.*} keys; they win over files, JVM properties and {@code -D}.
 */
public final class OrderClientOptions
{
    @Option(names = "--servers", paramLabel = "HOST:PORT,...",
        description = "Order servers, two per pair in server-id order; same as -D " +
            OrderClientConfiguration.SERVERS_PROP_NAME + "=... (default " + OrderClientConfiguration.SERVERS_DEFAULT +
            ").")
    String servers;

    @Option(names = "--config", paramLabel = "FILE",
        description = "Properties file; repeatable, later files do not replace keys set by earlier ones.")
    List<String> configFiles = new ArrayList<>();

    @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
        description = "Set a configuration key, replacing any file or JVM value; repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    /**
     * Load the configuration: files, then JVM properties, then {@code -D}, then the shortcuts.
     *
     * @param moreShortcuts further key → value shortcuts of the tool (null values are left out).
     */
    public void load(final Map<String, Object> moreShortcuts)
    {
        final Map<String, String> all = new LinkedHashMap<>(overrides);
        put(all, OrderClientConfiguration.SERVERS_PROP_NAME, servers);
        for (final Map.Entry<String, Object> shortcut : moreShortcuts.entrySet())
        {
            put(all, shortcut.getKey(), shortcut.getValue());
        }
        ConfigLoader.loadChecked(configFiles, all);
    }

    private static void put(final Map<String, String> map, final String key, final Object value)
    {
        if (null != value)
        {
            map.put(key, value.toString());
        }
    }
}
