package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * A malformed RIPC value names its key and stops the component, as every other key does (these were read with
 * {@code Integer.getInteger} and {@code Boolean.parseBoolean}, which turn a typo into the default or false).
 */
@InterruptAfter(10)
class RipcConfigurationTest
{
    @Test
    void aMalformedNumberOrBooleanNamesItsKey()
    {
        assertRefused(RipcConfiguration.PORT_PROP_NAME, "14oo2", RipcConfiguration::port);
        assertRefused(RipcConfiguration.EVENT_LOOP_THREADS_PROP_NAME, "two", RipcConfiguration::eventLoopThreads);
        assertRefused(RipcConfiguration.CLIENT_PORT_PROP_NAME, "x", RipcConfiguration::clientPort);
        assertRefused(RipcConfiguration.EPOLL_PROP_NAME, "ture", RipcConfiguration::epoll);
        assertRefused(RipcConfiguration.PACK_OUTBOUND_PROP_NAME, "yes please", RipcConfiguration::packOutbound);
        assertRefused(RipcConfiguration.CLIENT_VERSION_FALLBACK_PROP_NAME, "1",
            RipcConfiguration::clientVersionFallback);
    }

    private static void assertRefused(final String key, final String value, final Supplier<Object> read)
    {
        System.setProperty(key, value);
        try
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, read::get, key);
            assertTrue(refused.getMessage().contains(key), refused::getMessage);
        }
        finally
        {
            System.clearProperty(key);
        }
    }
}
