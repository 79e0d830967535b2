package io.mdhub.orderprobe;

import java.util.Arrays;

import io.mdhub.orderprobe.analysis.AnalyseMain;
import io.mdhub.orderprobe.probe.ProbeMain;
import picocli.CommandLine;

/**
 * Main class of {@code mdhub-order-probe.jar}: {@code orders-load ...} runs the order load tool
 * ({@code bin/mdhub orders-load}), {@code probe ...} the order probe ({@code bin/mdhub probe}) and
 * {@code probe analyse ...} its analyser.
 */
public final class OrderProbeMain
{
    private static final String USAGE =
        "usage: mdhub-order-probe.jar orders-load|probe|probe analyse [options] (--help for the options)";

    private OrderProbeMain()
    {
    }

    /**
     * @param args a tool name and its arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * Run a tool and return its exit status (for tests; does not exit the JVM).
     *
     * @param args a tool name and its arguments.
     * @return the exit status: 0 success, 1 failure, 2 bad usage.
     */
    public static int run(final String[] args)
    {
        final String tool = 0 == args.length ? "" : args[0];
        final String[] rest = 0 == args.length ? args : Arrays.copyOfRange(args, 1, args.length);
        if ("orders-load".equals(tool))
        {
            return new CommandLine(new OrdersLoadMain()).execute(rest);
        }
        if ("probe".equals(tool) && rest.length > 0 && "analyse".equals(rest[0]))
        {
            return new CommandLine(new AnalyseMain()).execute(Arrays.copyOfRange(rest, 1, rest.length));
        }
        if ("probe".equals(tool))
        {
            return new CommandLine(new ProbeMain()).execute(rest);
        }
        System.err.println(USAGE);
        return 2;
    }
}
