package io.mdhub.benchmarks.console;

import java.io.IOException;

import javax.management.remote.JMXServiceURL;

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
     * A remote process's JMX RMI connector.
     *
     * @param hostAndPort {@code host:port}.
     * @return the target.
     */
    static ConsoleTarget remote(final String hostAndPort)
    {
        final int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostAndPort.length() - 1)
        {
            throw new IllegalArgumentException("a remote process is host:port, not " + hostAndPort);
        }
        final String url = "service:jmx:rmi:///jndi/rmi://" + hostAndPort + "/jmxrmi";
        return new ConsoleTarget()
        {
            @Override
            public String label()
            {
                return hostAndPort;
            }

            @Override
            public JMXServiceURL serviceUrl() throws IOException
            {
                return new JMXServiceURL(url);
            }
        };
    }
}
