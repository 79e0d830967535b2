package io.mdhub.benchmarks.rwf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.mdhub.common.test.InterruptAfter;

/**
 * Runs every benchmark method once, after its setup, so the suite cannot rot between JMH runs.
 */
@InterruptAfter(90)
class BenchmarkSmokeTest
{
    private static final Class<?>[] BENCHMARKS =
        {RwfFlyweightBenchmark.class, EtaFullDecodeBenchmark.class, CachedImageBenchmark.class,
            io.mdhub.benchmarks.orders.OrderPairBenchmark.class, io.mdhub.benchmarks.ripc.RipcFrameBenchmark.class,
            io.mdhub.benchmarks.fanout.FanOutCopyBenchmark.class, io.mdhub.benchmarks.fanout.JsonFanOutBenchmark.class,
            io.mdhub.benchmarks.backbone.BackboneIpcBenchmark.class,
            io.mdhub.benchmarks.backbone.ItemUpdateCodecBenchmark.class,
            io.mdhub.benchmarks.fix.FixOrderParserBenchmark.class, io.mdhub.benchmarks.gate.CalibrationBenchmark.class};

    @Test
    void everyBenchmarkMethodRunsOnce() throws Exception
    {
        int methods = 0;
        for (final Class<?> type : BENCHMARKS)
        {
            final Object benchmark = type.getConstructor().newInstance();
            for (final Method method : type.getMethods())
            {
                if (method.isAnnotationPresent(Setup.class))
                {
                    method.invoke(benchmark);
                }
            }
            for (final Method method : type.getMethods())
            {
                if (method.isAnnotationPresent(Benchmark.class))
                {
                    final Object result = method.invoke(benchmark);
                    assertNotEquals(-1, ((Number)result).intValue(), type.getSimpleName() + "." + method.getName());
                    methods++;
                }
            }
            for (final Method method : type.getMethods())
            {
                if (method.isAnnotationPresent(TearDown.class))
                {
                    method.invoke(benchmark);
                }
            }
        }
        assertEquals(16, methods);
    }

    @Test
    void flyweightAndEtaAgreeOnTheUpdate()
    {
        final RwfFlyweightBenchmark flyweight = new RwfFlyweightBenchmark();
        flyweight.setup();
        // msgClass 4 + domain 6 + stream 5 + updateType 1 + payload 46
        assertEquals(62, flyweight.updateHeaderAndStreamIdRewrite());
        // msgClass 1 + domain 6 + stream 5 + service 1 + name match 1
        assertEquals(14, flyweight.requestHeaderKeyAndStreamIdRewrite());
        final EtaFullDecodeBenchmark eta = new EtaFullDecodeBenchmark();
        eta.setup();
        assertTrue(eta.level1UpdateFullDecode() > 0);
    }
}
