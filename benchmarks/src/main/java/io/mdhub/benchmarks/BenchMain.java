package io.mdhub.benchmarks;

import java.util.Arrays;

import io.mdhub.benchmarks.bench.LatencyBench;
import io.mdhub.benchmarks.bench.ThroughputBench;
import io.mdhub.benchmarks.client.TestClientMain;
import io.mdhub.benchmarks.demo.DemoMain;
import io.mdhub.benchmarks.source.SourceMain;
import io.mdhub.common.ripc.NettyProcessDefaults;
import picocli.CommandLine;

/**
 * Main class of {@code mdhub-bench.jar}: {@code source ...} runs the market data source, {@code client ...} the
 * test client, {@code latency ...} and {@code throughput ...} the published market data tests, {@code orders ...}
 * the published order test, {@code chaos orders|md ...} the random kill rounds, {@code tcp-floor-server ...}
 * and {@code hazelcast-member ...} the servers of its
 * references, and {@code probe ...} the order probe with every
 * target of this jar (as {@code mdhub-order-probe.jar probe});
 * {@code peer-publisher ...}, {@code peer-subscriber ...} and {@code tcp-relay ...} the ends of the pub/sub peers and
 * the relay floors bench latency measures beside MDHub; {@code jmh ...} hands the rest to JMH's own main; anything
 * else goes to JMH whole, so
 * {@code java -jar mdhub-bench.jar -prof gc 'io.mdhub.*'} works as JMH users expect.
 */
public final class BenchMain
{
    private static final String USAGE =
        "usage: mdhub-bench.jar (demo | source | client | console | latency | throughput | orders | idle | gate | " +
        "chaos | " +
        "tcp-floor-server " +
        "| hazelcast-member | peer-publisher | peer-subscriber | tcp-relay | probe [options] | [jmh] [JMH options])";

    private BenchMain()
    {
    }

    /**
     * @param args a tool name and its arguments.
     * @throws Exception from JMH.
     */
    public static void main(final String[] args) throws Exception
    {
        NettyProcessDefaults.apply();
        final String tool = 0 == args.length ? "" : args[0];
        final String[] rest = 0 == args.length ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (tool)
        {
            case "source":
                System.exit(new CommandLine(new SourceMain()).execute(rest));
                break;
            case "client":
                System.exit(new CommandLine(new TestClientMain()).execute(rest));
                break;
            case "demo":
                System.exit(new CommandLine(new DemoMain()).execute(rest));
                break;
            case "latency":
                System.exit(new CommandLine(new LatencyBench()).execute(rest));
                break;
            case "throughput":
                System.exit(new CommandLine(new ThroughputBench()).execute(rest));
                break;
            case "orders":
                System.exit(new CommandLine(new io.mdhub.benchmarks.bench.OrdersBench()).execute(rest));
                break;
            case "chaos":
                System.exit(new CommandLine(new io.mdhub.benchmarks.chaos.ChaosMain()).execute(rest));
                break;
            case "gate":
                System.exit(new CommandLine(new io.mdhub.benchmarks.gate.GateMain()).execute(rest));
                break;
            case "console":
                System.exit(new CommandLine(new io.mdhub.benchmarks.console.ConsoleMain()).execute(rest));
                break;
            case "idle":
                System.exit(new CommandLine(new io.mdhub.benchmarks.bench.IdleBench()).execute(rest));
                break;
            case "tcp-floor-server":
                System.exit(new CommandLine(new io.mdhub.benchmarks.orders.TcpFloorServer()).execute(rest));
                break;
            case "hazelcast-member":
                System.exit(new CommandLine(new io.mdhub.benchmarks.orders.HazelcastMember()).execute(rest));
                break;
            case "peer-publisher":
                System.exit(new CommandLine(new io.mdhub.benchmarks.peers.PeerPublisherMain()).execute(rest));
                break;
            case "peer-subscriber":
                System.exit(new CommandLine(new io.mdhub.benchmarks.peers.PeerSubscriberMain()).execute(rest));
                break;
            case "tcp-relay":
                System.exit(new CommandLine(new io.mdhub.benchmarks.peers.TcpRelayMain()).execute(rest));
                break;
            case "probe":
                System.exit(io.mdhub.orderprobe.OrderProbeMain.run(args));
                break;
            case "jmh":
                org.openjdk.jmh.Main.main(rest);
                break;
            case "--tools":
                System.out.println(USAGE);
                break;
            default:
                org.openjdk.jmh.Main.main(args);
        }
    }
}
