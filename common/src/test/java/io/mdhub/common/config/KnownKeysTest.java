package io.mdhub.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Unknown {@code mdhub.*} keys: found, named with the nearest known key, refused by default and only reported when
 * strict checking is off; keys of other namespaces are not MDHub's to judge.
 */
@InterruptAfter(10)
class KnownKeysTest
{
    @Test
    void misspeltAndUnknownKeysAreFoundWithTheNearestKnownKey()
    {
        final Properties properties = new Properties();
        properties.setProperty("mdhub.p2p.wrokers", "2");
        properties.setProperty("mdhub.p2p.no.such.key", "1");
        properties.setProperty("mdhub.p2p.workers", "2");
        properties.setProperty("aeron.dir", "/dev/shm/x");
        properties.setProperty("java.home", "/usr");

        assertEquals(List.of("mdhub.p2p.no.such.key", "mdhub.p2p.wrokers"), KnownKeys.unknown(properties));
        assertEquals("mdhub.p2p.workers", KnownKeys.nearest("mdhub.p2p.wrokers"));
        assertTrue(KnownKeys.all().contains(KnownKeys.STRICT_PROP_NAME));
    }

    @Test
    void anUnknownKeyIsRefusedUnlessStrictCheckingIsOff()
    {
        final Properties properties = new Properties();
        properties.setProperty("mdhub.ripc.max.user.msg.sise", "-1");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> KnownKeys.check(properties, (warning) -> { }));
        assertTrue(refused.getMessage().startsWith(
            "unknown configuration key: mdhub.ripc.max.user.msg.sise (did you mean mdhub.ripc.max.user.msg.size?)"),
            refused::getMessage);

        properties.setProperty(KnownKeys.STRICT_PROP_NAME, "false");
        final List<String> warnings = new ArrayList<>();
        KnownKeys.check(properties, warnings::add);
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("mdhub.ripc.max.user.msg.sise"), warnings::toString);

        final Properties known = new Properties();
        known.setProperty("mdhub.p2p.workers", "1");
        KnownKeys.check(known, (warning) -> { throw new AssertionError(warning); });
    }
}
