package io.mdhub.benchmarks.peers;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mdhub-bench.jar tcp-relay}: the floor of a market data relay on this host, built the simplest way it allows:
 * one thread, blocking loopback TCP sockets with TCP_NODELAY, every byte read from the inbound connection written
 * at once to the outbound one, nothing decoded, stored or fanned out. Its inbound connection is accepted on
 * {@code --in-port} (the publisher) or made to {@code --from} (the previous relay's out-port); its outbound one is
 * accepted on {@code --out-port} (the subscriber or the next relay). Chained, they price the hops MDHub's path has.
 */
@Command(name = "tcp-relay", mixinStandardHelpOptions = true,
    description = "Relay bytes from one TCP connection to another over blocking sockets (a latency floor).")
public final class TcpRelayMain implements Callable<Integer>
{
    private static final int BUFFER_BYTES = 64 * 1024;

    @Option(names = "--in-port", description = "Accept the inbound connection on this port of 127.0.0.1.")
    int inPort;

    @Option(names = "--from", description = "Or connect to this port of 127.0.0.1 for the inbound bytes.")
    int fromPort;

    @Option(names = "--out-port", required = true, description = "Accept the outbound connection on this port.")
    int outPort;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if ((0 == inPort) == (0 == fromPort))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of --in-port and --from");
        }
        final PrintWriter out = spec.commandLine().getOut();
        try (ServerSocketChannel outServer = listen(outPort);
            ServerSocketChannel inServer = 0 == inPort ? null : listen(inPort))
        {
            out.printf("mdhub-tcp-relay: listening (in %s, out %d)%n",
                0 == inPort ? "from " + fromPort : Integer.toString(inPort), outPort);
            out.flush();
            try (SocketChannel outbound = nodelay(outServer.accept());
                SocketChannel inbound = nodelay(null == inServer ? SocketChannel.open(
                    new InetSocketAddress("127.0.0.1", fromPort)) : inServer.accept()))
            {
                out.println("mdhub-tcp-relay: relaying");
                out.flush();
                final long relayed = relay(inbound, outbound);
                out.printf("mdhub-tcp-relay: the inbound connection ended after %d bytes%n", relayed);
            }
        }
        return 0;
    }

    private static long relay(final SocketChannel inbound, final SocketChannel outbound) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        long relayed = 0;
        while (inbound.read(buffer) >= 0)
        {
            buffer.flip();
            relayed += buffer.remaining();
            while (buffer.hasRemaining())
            {
                outbound.write(buffer);
            }
            buffer.clear();
        }
        return relayed;
    }

    private static ServerSocketChannel listen(final int port) throws IOException
    {
        final ServerSocketChannel server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(new InetSocketAddress("127.0.0.1", port));
        return server;
    }

    private static SocketChannel nodelay(final SocketChannel channel) throws IOException
    {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return channel;
    }
}
