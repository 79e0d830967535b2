package io.mdhub.benchmarks.bench;

import java.util.concurrent.TimeUnit;

import io.mdhub.benchmarks.source.InteractiveSource;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --source-tick-us} of the benches that run the interactive source ({@code bench latency}, {@code bench
 * throughput}), checked as the source checks it so that a bad value fails before any process starts.
 */
final class SourceTickOption
{
    @Option(names = "--source-tick-us", paramLabel = "US", description = "The interactive source's pacing period in "
        + "microseconds: each tick sends the updates due since the last as one burst, and a burst stops at Netty's "
        + "64 KiB high water mark, about 900 updates, so the period caps the rate: 1,000 us caps it near 936,000/s, "
        + "the default ${DEFAULT-VALUE} about twice that; 100 at the least.")
    long tickUs = 500;

    /**
     * @param commandLine the bench's command line, for the error.
     * @return the tick in microseconds.
     * @throws CommandLine.ParameterException if the source would refuse it.
     */
    long checked(final CommandLine commandLine)
    {
        final long minTickUs = TimeUnit.NANOSECONDS.toMicros(InteractiveSource.Context.MIN_TICK_NS);
        final long maxTickUs = TimeUnit.NANOSECONDS.toMicros(InteractiveSource.Context.MAX_TICK_NS);
        if (tickUs < minTickUs || tickUs > maxTickUs)
        {
            throw new CommandLine.ParameterException(commandLine, "--source-tick-us must be " + minTickUs + "-" +
                maxTickUs + ": " + tickUs);
        }
        return tickUs;
    }
}
