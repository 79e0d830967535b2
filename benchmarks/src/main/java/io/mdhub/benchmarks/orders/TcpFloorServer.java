package io.mdhub.benchmarks.orders;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mdhub-bench.jar tcp-floor-server --role primary|backup}: one process of the TCP floor, the transport floor
 * of this host under any replicated order service — client to primary to backup and back over plain blocking
 * sockets, nothing stored ({@link TcpFloorPrimary}, {@link TcpFloorBackup}). {@code bin/mdhub bench orders
 * --configurations tcp_floor} runs a pair of them with the order probe's {@code tcp-floor} target
 * ({@link TcpFloorTarget}). Runs until SIGTERM or SIGINT, then prints its counts.
 */
@Command(
    name = "tcp-floor-server",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "One server of the TCP floor: the primary passes each client's order to the backup over one " +
        "socket and the backup's answer back; the backup answers each order at once. Blocking sockets, nothing " +
        "stored: the transport floor of the host, for bench orders.")
public final class TcpFloorServer implements Callable<Integer>
{
    /** Printed once the server serves: what the bench waits for. */
    public static final String READY = "tcp floor server ready";

    @Option(names = "--role", required = true, paramLabel = "primary|backup", description = "This server's role.")
    String role;

    @Option(names = "--host", paramLabel = "ADDRESS",
        description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N",
        description = "Port to listen on: the primary's for clients, the backup's for the primary " +
            "(default ${DEFAULT-VALUE}: any free one, printed).")
    int port;

    @Option(names = "--backup", paramLabel = "HOST:PORT", description = "The backup's address (primary only).")
    String backup;

    @Option(names = "--backup-timeout", paramLabel = "S",
        description = "How long the primary waits for the backup to accept (default ${DEFAULT-VALUE}).")
    long backupTimeoutSeconds = 30;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if ("backup".equals(role))
        {
            try (TcpFloorBackup server = TcpFloorBackup.start(address))
            {
                ready(out, server.port());
                barrier.await();
                server.close();
                out.printf("tcp floor backup: %d orders answered%n", server.answered());
            }
        }
        else if ("primary".equals(role))
        {
            if (null == backup)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "a primary needs --backup HOST:PORT");
            }
            try (TcpFloorPrimary server = TcpFloorPrimary.start(address, parse(backup), backupTimeoutSeconds))
            {
                ready(out, server.port());
                barrier.await();
                server.close();
                out.printf("tcp floor primary: %d connections, %d orders forwarded, %d answered, %d answers " +
                    "dropped%n", server.accepted(), server.forwarded(), server.answered(), server.dropped());
            }
        }
        else
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--role is primary or backup: " + role);
        }
        out.flush();
        return 0;
    }

    private void ready(final PrintWriter out, final int boundPort)
    {
        out.printf("%s: %s on %s:%d%n", READY, role, host, boundPort);
        out.flush();
    }

    /**
     * @param hostAndPort {@code HOST:PORT}.
     * @return the address, resolved.
     */
    static InetSocketAddress parse(final String hostAndPort)
    {
        final int colon = hostAndPort.lastIndexOf(':');
        if (colon < 1)
        {
            throw new IllegalArgumentException("not HOST:PORT: " + hostAndPort);
        }
        return new InetSocketAddress(hostAndPort.substring(0, colon),
            Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
