package io.mdhub.orderprobe;

import java.util.Arrays;

import picocli.CommandLine;

/**
 * Main class of {@code mdhub-order-probe.jar}: {@code orders-load ...} runs the order load tool
 * ({@code bin/mdhub orders-load}). The order probe proper (create/send timestamps per publishing thread, GC-pause
 * tracing, analyser) will be a second tool here.
 */
public final class OrderProbeMain
{
    private static final String USAGE = "usage: mdhub-order-probe.jar orders-load [options] (--help for the options)";

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
        System.err.println(USAGE);
        return 2;
    }
}
