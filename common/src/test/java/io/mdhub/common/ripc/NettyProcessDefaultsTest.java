package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.netty.util.ResourceLeakDetector;

/**
 * What the process mains give Netty, and that an operator's {@code -D} wins. The test JVM's own values (set by
 * Surefire) are put back after each test.
 */
@InterruptAfter(10)
class NettyProcessDefaultsTest
{
    private String levelProperty;
    private String chunkProperty;
    private ResourceLeakDetector.Level level;

    @BeforeEach
    void save()
    {
        levelProperty = System.getProperty(NettyProcessDefaults.LEAK_DETECTION_LEVEL_PROP_NAME);
        chunkProperty = System.getProperty(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME);
        level = ResourceLeakDetector.getLevel();
    }

    @AfterEach
    void restore()
    {
        restore(NettyProcessDefaults.LEAK_DETECTION_LEVEL_PROP_NAME, levelProperty);
        restore(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME, chunkProperty);
        ResourceLeakDetector.setLevel(level);
    }

    private static void restore(final String name, final String value)
    {
        if (null == value)
        {
            System.clearProperty(name);
        }
        else
        {
            System.setProperty(name, value);
        }
    }

    @Test
    void unsetPropertiesGetMdhubsValues()
    {
        System.clearProperty(NettyProcessDefaults.LEAK_DETECTION_LEVEL_PROP_NAME);
        System.clearProperty(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);

        NettyProcessDefaults.apply();

        assertEquals(ResourceLeakDetector.Level.DISABLED, ResourceLeakDetector.getLevel());
        assertEquals("1024", System.getProperty(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME));
    }

    @Test
    void theOperatorsValuesAreLeftAlone()
    {
        System.setProperty(NettyProcessDefaults.LEAK_DETECTION_LEVEL_PROP_NAME, "advanced");
        System.setProperty(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME, "64");
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.ADVANCED);

        NettyProcessDefaults.apply();

        assertEquals(ResourceLeakDetector.Level.ADVANCED, ResourceLeakDetector.getLevel());
        assertEquals("64", System.getProperty(NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME));
    }
}
