package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.mdhub.benchmarks.peers.PeerSystem;
import io.mdhub.common.net.LocalPorts;

/**
 * One pub/sub peer through {@code bench latency}'s rates: its server (the distribution's binary on its defaults,
 * on loopback), a subscriber to every item and a publisher at the commanded rate, each a separate process, started
 * afresh after MDHub's processes have gone, measured as MDHub is ({@link LatencySteps}) with the same items, update
 * size, pacing and timestamps.
 */
final class PeerSweep
{
    private static final long SERVER_START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int CONNECT_TIMEOUT_MS = 200;

    private final PeerSystem peer;
    private final Path server;

    private PeerSweep(final PeerSystem peer, final Path server)
    {
        this.peer = peer;
        this.server = server;
    }

    /**
     * @param peer    the system.
     * @param console where a missing server is said.
     * @return the sweep, or null (said on the console) when the server binary is not installed.
     */
    static PeerSweep find(final PeerSystem peer, final PrintWriter console)
    {
        if (peer.relays() > 0 || peer.isMdhub())
        {
            return new PeerSweep(peer, null);
        }
        final Path server = peer.findServer();
        if (null == server)
        {
            console.printf("bench latency: %s skipped: %s is not on the PATH (apt-get install %s)%n", peer.label(),
                peer.binaryName(), peer.debianPackage());
            console.flush();
            return null;
        }
        return new PeerSweep(peer, server);
    }

    /**
     * @return the system's name in the report.
     */
    String label()
    {
        return peer.label();
    }

    /**
     * Run the peer through the rates.
     *
     * @param processes   fresh for this peer: its processes end with it.
     * @param dir         the report directory.
     * @param items       items, a channel or subject each.
     * @param openingRate the publisher's rate while the steps are set up.
     * @param tickUs      the publisher's pacing period.
     * @param every       every n-th update is timestamped.
     * @param rates       the rates, in order.
     * @param steps       how a step is measured.
     * @param cpuRows     where the steps' CPU rows go.
     * @param console     where progress goes.
     * @return a row per rate run, the sweep ending at the first not sustained.
     */
    List<SystemRow> run(
        final BenchProcesses processes,
        final Path dir,
        final int items,
        final long openingRate,
        final long tickUs,
        final int every,
        final RateSweep rates,
        final LatencySteps steps,
        final List<String> cpuRows,
        final PrintWriter console) throws Exception
    {
        final String name = peer.optionName();
        final List<BenchProcess> servers = new ArrayList<>();
        final int publisherPort = LocalPorts.unused();
        final int subscriberPort;
        if (peer.isMdhub())
        {
            subscriberPort = LocalPorts.unused();
            startMdhub(processes, publisherPort, subscriberPort, items, servers);
        }
        else if (peer.relays() > 0)
        {
            subscriberPort = startRelays(processes, publisherPort, servers);
        }
        else
        {
            subscriberPort = publisherPort;
            servers.add(processes.startProgram(name + "-server", peer.serverCommand(server, publisherPort)));
            awaitListening(servers.get(0), publisherPort);
        }
        final Path hlog = dir.resolve(name + "-subscriber.hlog");
        final List<String> subscriberArgs = List.of("peer-subscriber", "--system", name,
            "--port", Integer.toString(subscriberPort), "--items", Integer.toString(items), "--hlog", hlog.toString());
        final List<String> publisherArgs = List.of("peer-publisher", "--system", name,
            "--port", Integer.toString(publisherPort), "--items", Integer.toString(items),
            "--rate", Long.toString(openingRate), "--tick-us", Long.toString(tickUs),
            "--timestamp-every", Integer.toString(every));
        final BenchProcess subscriber;
        final BenchProcess publisher;
        if (peer.isMdhub())
        {
            // MDHub's items exist once published: the provider first, then the consumer's requests
            publisher = startPublisher(processes, name, publisherArgs);
            subscriber = startSubscriber(processes, name, subscriberArgs);
        }
        else
        {
            subscriber = startSubscriber(processes, name, subscriberArgs);
            publisher = startPublisher(processes, name, publisherArgs);
        }
        console.printf("bench latency: %s up (%s), %d items subscribed%n", peer.label(), null != server ?
            server + ", port " + publisherPort : peer.isMdhub() ? "backbone, distributor and p2p-server" :
            servers.size() + " tcp-relay process(es)", items);
        console.flush();
        final List<SystemRow> rows = new ArrayList<>();
        rates.run((rate) ->
        {
            final List<BenchProcess> all = new ArrayList<>(servers);
            all.add(publisher);
            all.add(subscriber);
            final SystemRow row = steps.measure(name, rate, publisher, subscriber, hlog, new StepCpu(all), cpuRows,
                console);
            rows.add(new SystemRow(peer.label(), row.row(), row.cpuUsPerUpdate()));
            return row.row();
        }, console, peer.label());
        return rows;
    }

    private static BenchProcess startSubscriber(
        final BenchProcesses processes, final String name, final List<String> args)
    {
        final BenchProcess subscriber = processes.start(name + "-subscriber", BenchProcesses.BENCH_JAR,
            args.toArray(new String[0]));
        TestClients.awaitWholeWatchlist(subscriber);
        return subscriber;
    }

    private static BenchProcess startPublisher(
        final BenchProcesses processes, final String name, final List<String> args)
    {
        final BenchProcess publisher = processes.start(name + "-publisher", BenchProcesses.BENCH_JAR,
            args.toArray(new String[0]));
        publisher.awaitLine("mdhub-peer-publisher: sent/s", 60);
        return publisher;
    }

    /**
     * Start MDHub on its defaults as {@code bench latency} starts it for its own row: the backbone, a distributor
     * taking the publisher's connection and a p2p-server taking the subscriber's.
     */
    private static void startMdhub(
        final BenchProcesses processes,
        final int distributorPort,
        final int p2pPort,
        final int items,
        final List<BenchProcess> servers)
    {
        servers.addAll(processes.startMdhub("mdhub-eta-", distributorPort, p2pPort,
            "-D", "mdhub.p2p.max.items=" + Math.max(items, 100_000)));
    }

    /**
     * Start the floor's relays, each listening for the next hop before the previous connects to it.
     *
     * @return the port the subscriber connects to.
     */
    private int startRelays(final BenchProcesses processes, final int publisherPort, final List<BenchProcess> relays)
    {
        int from = 0;
        for (int i = 1; i <= peer.relays(); i++)
        {
            final int outPort = LocalPorts.unused();
            final BenchProcess relay = processes.start(peer.optionName() + "-relay-" + i, BenchProcesses.BENCH_JAR,
                "tcp-relay", 1 == i ? "--in-port" : "--from", Integer.toString(1 == i ? publisherPort : from),
                "--out-port", Integer.toString(outPort));
            relay.awaitLine("mdhub-tcp-relay: listening", 60); // a probe connection would be taken as its outbound
            relays.add(relay);
            from = outPort;
        }
        return from;
    }

    private static void awaitListening(final BenchProcess server, final int port) throws IOException
    {
        final long deadlineNs = System.nanoTime() + SERVER_START_TIMEOUT_NS;
        while (true)
        {
            try (Socket socket = new Socket())
            {
                socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MS);
                return;
            }
            catch (final IOException ex)
            {
                if (System.nanoTime() > deadlineNs || !server.isAlive())
                {
                    throw new IOException(server.name() + " is not listening on port " + port + ":\n" +
                        server.tail(), ex);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }
}
