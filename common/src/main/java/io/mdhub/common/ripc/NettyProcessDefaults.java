package io.mdhub.common.ripc;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's process-wide settings for MDHub's processes, applied by each process main as its first step (before any
 * Netty class that reads them is loaded). An operator's {@code -D} for either property wins.
 * <ul>
 *     <li><b>Leak detection off.</b> Netty samples one buffer in 128 by default and records a stack trace for each:
 *     on a p2p-server fanning out 150,000 updates/s that was about 32 MB/s of garbage, so a young collection every
 *     few seconds and pauses of 50-400 ms on two cores. Tests, which do not go through a main, keep a level and
 *     still catch leaks.</li>
 *     <li><b>Object pool chunks of {@value #RECYCLER_CHUNK_SIZE}.</b> A thread's pool absorbs a chunk of released
 *     buffers and handles before spilling into a linked queue that allocates a new chunk each time: at Netty's
 *     default of 32 the distributor's event loop made 178,000 such arrays in 15 s at 300,000 updates/s and collected
 *     every few minutes.</li>
 * </ul>
 */
public final class NettyProcessDefaults
{
    /**
     * Netty's property for the leak detection level.
     */
    public static final String LEAK_DETECTION_LEVEL_PROP_NAME = "io.netty.leakDetection.level";

    /**
     * Netty's property for the object pool's chunk size, read once when its {@code Recycler} class loads.
     */
    public static final String RECYCLER_CHUNK_SIZE_PROP_NAME = "io.netty.recycler.chunkSize";

    /**
     * The chunk size the mains give Netty's object pools.
     */
    public static final int RECYCLER_CHUNK_SIZE = 1024;

    private NettyProcessDefaults()
    {
    }

    /**
     * Apply both settings unless the operator set the property. Call first thing in a main: once Netty's
     * {@code Recycler} has loaded, the chunk size can no longer change.
     */
    public static void apply()
    {
        if (null == System.getProperty(RECYCLER_CHUNK_SIZE_PROP_NAME))
        {
            System.setProperty(RECYCLER_CHUNK_SIZE_PROP_NAME, Integer.toString(RECYCLER_CHUNK_SIZE));
        }
        if (null == System.getProperty(LEAK_DETECTION_LEVEL_PROP_NAME))
        {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
