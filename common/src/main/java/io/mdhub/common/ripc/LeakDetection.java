package io.mdhub.common.ripc;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak detection for MDHub's processes. Netty samples one buffer in 128 by default and records a stack
 * trace for each: on a p2p-server fanning out 150,000 updates/s that was about 32 MB/s of garbage, so a young
 * collection every few seconds and pauses of 50-400 ms on two cores. The process mains turn it off unless the
 * operator asked for a level ({@code -Dio.netty.leakDetection.level=simple|advanced|paranoid}); tests, which do not
 * go through a main, keep Netty's default and still catch leaks.
 */
public final class LeakDetection
{
    /**
     * Netty's property for the level.
     */
    public static final String LEVEL_PROP_NAME = "io.netty.leakDetection.level";

    private LeakDetection()
    {
    }

    /**
     * Turn leak detection off unless {@link #LEVEL_PROP_NAME} is set.
     */
    public static void disableUnlessConfigured()
    {
        if (null == System.getProperty(LEVEL_PROP_NAME))
        {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
