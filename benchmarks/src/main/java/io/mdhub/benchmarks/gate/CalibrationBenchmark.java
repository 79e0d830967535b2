package io.mdhub.benchmarks.gate;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import io.mdhub.benchmarks.AbstractMdBenchmark;

/**
 * The gate's yardstick: a fixed amount of dependent integer arithmetic and cache-resident memory reads, the kind of
 * work the hot paths do, with nothing of MDHub in it. Every other benchmark's score is taken as a multiple of this
 * one's from the same run.
 */
public class CalibrationBenchmark extends AbstractMdBenchmark
{
    private static final int WORDS = 1024;
    private final long[] words = new long[WORDS];

    @Setup
    public void setup()
    {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < WORDS; i++)
        {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            words[i] = x;
        }
    }

    @Benchmark
    @NoAllocation
    public long mixWords()
    {
        long hash = 17;
        for (int i = 0; i < WORDS; i++)
        {
            hash = hash * 31 + (words[i] ^ (hash >>> 29));
        }
        return hash;
    }
}
