package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.util.Map;

import javax.management.remote.JMXServiceURL;

import io.mdhub.common.management.jmx.JmxClient;

/**
 * An MDHub process the console reads: a local one found through the attach API (its JMX agent started on demand),
 * or a remote one given as {@code host:port} of its JMX RMI connector.
 */
interface ConsoleTarget
{
    /**
     * @return how the process is named in the overview ({@code pid 1234 p2p}, {@code blade7:9010}).
     */
    String label();

    /**
     * @return where its JMX connector listens (for a local process, starting its local agent the first time).
     * @throws IOException when it cannot be reached.
     */
    JMXServiceURL serviceUrl() throws IOException;

    /**
     * @return the connector's environment: credentials and TLS for a remote process, nothing for a local one.
     */
    default Map<String, ?> environment()
    {
        return Map.of();
    }

    /**
     * A remote process's JMX RMI connector: MDHub's own ({@code mdhub.jmx.port}) or the JDK's agent.
     *
     * @param hostAndPort {@code host:port}.
     * @param environment its credentials and TLS settings ({@link JmxClient#environment}).
     * @return the target.
     */
    static ConsoleTarget remote(final String hostAndPort, final Map<String, ?> environment)
    {
        final JMXServiceURL url = JmxClient.serviceUrl(hostAndPort);
        return new ConsoleTarget()
        {
            @Override
            public String label()
            {
                return hostAndPort;
            }

            @Override
            public JMXServiceURL serviceUrl()
            {
                return url;
            }

            @Override
            public Map<String, ?> environment()
            {
                return environment;
            }
        };
    }
}
