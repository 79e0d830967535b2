package io.mdhub.p2p.order;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub verify-orders}: checks the queues of a pair after a run (see {@link OrderVerifier}); exit status
 * 0 if everything holds, 1 otherwise.
 */
@Command(
    name = "verify-orders",
    mixinStandardHelpOptions = true,
    description = "Check the write-behind queues of an order pair for contiguity, equality and completeness.")
public final class VerifyOrdersMain implements Callable<Integer>
{
    @Option(names = "--queue", required = true, description = "A server's queue directory (give both of a pair).")
    List<Path> queues;

    @Option(names = "--acked", description = "CSV of acknowledged orders: clientId,orderId,partition,epoch,sequence.")
    Path acked;

    @Option(names = "--allow-behind", description = "Accept a queue that is a prefix of the other (a server that " +
        "died and has not rejoined).")
    boolean allowBehind;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final OrderVerifier verifier = new OrderVerifier();
        final boolean isOk = verifier.verify(queues, acked, allowBehind);
        for (final String note : verifier.notes())
        {
            out.println("verify-orders: " + note);
        }
        for (final String problem : verifier.problems())
        {
            out.println("verify-orders: PROBLEM " + problem);
        }
        out.println("verify-orders: " + (isOk ? "OK" : "FAILED (" + verifier.problems().size() + " problems)"));
        out.flush();
        return isOk ? 0 : 1;
    }
}
