package io.mdhub.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Fixed JMH settings for MDHub micro-benchmarks, sized for a small shared 2-core box: one fork, three 1-second warm-up
 * iterations and five 1-second measurements, average time in nanoseconds, one thread. Run with {@code -prof gc} to
 * get {@code gc.alloc.rate.norm}, the allocation gate (0 B/op on hot paths). The JVM flags match the servers'.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m", "-XX:+UseParallelGC", "-Dchronicle.analytics.disable=true",
    "-Dagrona.disable.bounds.checks=false"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public abstract class AbstractMdBenchmark
{
}
