package io.mdhub.benchmarks.gate;

/**
 * One benchmark's outcome in a gate run.
 *
 * @param benchmark       the benchmark's full name ({@code io.mdhub.benchmarks.rwf.RwfFlyweightBenchmark.x}).
 * @param nsPerOp         its average time.
 * @param bytesPerOp      what it allocated per operation ({@code gc.alloc.rate.norm}), NaN when not measured.
 */
public record GateResult(String benchmark, double nsPerOp, double bytesPerOp)
{
    /**
     * @return the benchmark's name without its package ({@code RwfFlyweightBenchmark.x}).
     */
    public String shortName()
    {
        final int method = benchmark.lastIndexOf('.');
        final int type = method <= 0 ? -1 : benchmark.lastIndexOf('.', method - 1);
        return benchmark.substring(type + 1);
    }
}
