package io.mdhub.common.status;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class MdCountersTest
{
    @Test
    void typeIdsAreUniqueAndInMdHubsRange() throws IllegalAccessException
    {
        final Set<Integer> seen = new HashSet<>();
        for (final Field field : MdCounters.class.getFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_TYPE_ID"))
            {
                final int id = field.getInt(null);
                assertTrue(id >= 20_000, field.getName() + " below 20 000");
                assertTrue(seen.add(id), field.getName() + " reuses id " + id);
            }
        }
        assertTrue(seen.size() > 20);
    }

    @Test
    void levelsAreGaugesAndRunningTotalsAreCounters()
    {
        assertFalse(MdCounters.isMonotonic(MdCounters.RIPC_CONNECTIONS_ACTIVE_TYPE_ID));
        assertFalse(MdCounters.isMonotonic(MdCounters.P2P_ITEMS_OPEN_TYPE_ID));
        assertFalse(MdCounters.isMonotonic(MdCounters.P2P_WATCHLIST_ENTRIES_TYPE_ID));
        assertTrue(MdCounters.isMonotonic(MdCounters.RIPC_DISCONNECTS_TYPE_ID));
        assertTrue(MdCounters.isMonotonic(MdCounters.P2P_UPDATES_OUT_TYPE_ID));
        assertTrue(MdCounters.isMonotonic(MdCounters.DISTRIBUTOR_READ_PAUSED_NS_TYPE_ID));
        assertFalse(MdCounters.isMonotonic(MdCounters.DISTRIBUTOR_BACKBONE_PENDING_BYTES_TYPE_ID));
        assertFalse(MdCounters.isMonotonic(MdCounters.DISTRIBUTOR_BACKBONE_PENDING_HWM_TYPE_ID));
        assertFalse(MdCounters.isMonotonic(0), "Aeron's system counters are not classified here");
    }
}
