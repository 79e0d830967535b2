package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DeferredUpdatesTest
{
    private final DeferredUpdates<String> deferred = new DeferredUpdates<>();
    private final List<String> applied = new ArrayList<>();

    @Test
    void updatesAreCopiedAndAppliedInArrivalOrderThenForgotten()
    {
        final UnsafeBuffer burst = new UnsafeBuffer(new byte[64]);
        burst.putStringWithoutLengthAscii(0, "abcde");
        deferred.add("x", 1, burst, 0, 3);
        deferred.add("y", 2, burst, 1, 4);
        deferred.add("x", 3, burst, 4, 1);
        burst.putStringWithoutLengthAscii(0, "zzzzz"); // the burst's buffer is reused: the copies are kept
        assertEquals(3, deferred.size());

        deferred.applyAll(null, (target, key, buffer, offset, length) ->
            applied.add(target + key + ":" + buffer.getStringWithoutLengthAscii(offset, length)));

        assertEquals(List.of("x1:abc", "y2:bcde", "x3:e"), applied);
        assertTrue(deferred.isEmpty());
        deferred.applyAll(null, (target, key, buffer, offset, length) -> applied.add("again"));
        assertEquals(3, applied.size(), "nothing is applied twice");
    }

    @Test
    void everyTargetIsTouchedBeforeTheFirstIsApplied()
    {
        final UnsafeBuffer burst = new UnsafeBuffer(new byte[8]);
        deferred.add("x", 1, burst, 0, 1);
        deferred.add("y", 2, burst, 0, 1);

        deferred.applyAll((target) ->
        {
            applied.add("touch " + target);
            return target.length();
        }, (target, key, buffer, offset, length) -> applied.add("apply " + target));

        assertEquals(List.of("touch x", "touch y", "apply x", "apply y"), applied);
        assertEquals(2, deferred.touched());
    }

    @Test
    void aCallFromInsideTheApplierReturnsAtOnceAndLargeBurstsGrowTheRecords()
    {
        final byte[] big = new byte[1000];
        big[999] = 'q';
        for (int i = 0; i < 200; i++)
        {
            deferred.add("t", i, new UnsafeBuffer(big), 0, big.length);
        }
        deferred.applyAll(null, (target, key, buffer, offset, length) ->
        {
            deferred.applyAll(null, (t, k, b, o, l) -> applied.add("nested"));
            applied.add(key + "" + new String(new byte[] {buffer.getByte(offset + length - 1)},
                StandardCharsets.US_ASCII));
        });

        assertEquals(200, applied.size());
        assertEquals("199q", applied.get(199));
    }
}
