package io.mdhub.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(60)
class ResourceSamplerTest
{
    @Test
    void readsResidentMemoryAndTheHeapLine()
    {
        final String status = "Name:\tjava\nVmRSS:\t  123456 kB\nRssAnon:\t  100000 kB\nVmData: 1 kB\n";
        assertEquals(123_456L * 1024, ResourceSampler.rssBytes(status));
        assertEquals(100_000L * 1024, ResourceSampler.anonRssBytes(status));
        assertEquals((5_505L + 10_109L) * 1024, ResourceSampler.heapUsedBytes("3811:\n PSYoungGen      total 76288K, " +
            "used 5505K [0x0, 0x0, 0x0)\n  eden space 65536K, 8% used [0x0,0x0,0x0)\n ParOldGen       total 175104K, " +
            "used 10109K [0x0, 0x0, 0x0)\n  object space 175104K, 5% used\n Metaspace       used 25085K, committed"));
        assertEquals(170_751L * 1024, ResourceSampler.heapUsedBytes("23497:\n garbage-first heap   total 593920K, " +
            "used 170751K [0x0000000687400000, 0x0000000800000000)\n  region size 4096K\n Metaspace  used 45511K"));
        assertEquals(-1, ResourceSampler.heapUsedBytes("23497:\nno such process"));
    }

    @Test
    void samplesThisJvm()
    {
        final ResourceSample sample = new ResourceSampler(Path.of(System.getProperty("java.home")))
            .sample(ProcessHandle.current().pid());
        assertNotNull(sample);
        assertTrue(sample.rssBytes() > 1024 * 1024, sample::toString);
        assertTrue(sample.anonRssBytes() > 0 && sample.anonRssBytes() < sample.rssBytes(), sample::toString);
        assertTrue(sample.fileDescriptors() > 2, sample::toString);
        assertTrue(sample.heapAfterGcBytes() > 0, sample::toString);
        assertTrue(sample.heapAfterGcBytes() < Runtime.getRuntime().totalMemory(), sample::toString);
    }

    @Test
    void aProcessThatHasGoneHasNoSample()
    {
        assertNull(new ResourceSampler(Path.of(System.getProperty("java.home"))).sample(Integer.MAX_VALUE - 1L));
    }
}
