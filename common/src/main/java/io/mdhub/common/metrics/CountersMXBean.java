package io.mdhub.common.metrics;

/**
 * Every counter of one component at once, for consoles that read a whole process each second
 * ({@code io.mdhub:type=Counters,name=<source>}): one JMX call instead of one per counter meter.
 */
public interface CountersMXBean
{
    /**
     * @return the component's allocated counters, read now.
     */
    CounterValue[] getCounters();
}
