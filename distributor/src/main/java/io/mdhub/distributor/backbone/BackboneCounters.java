package io.mdhub.distributor.backbone;

import java.nio.charset.StandardCharsets;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The distributor's backbone counters, allocated at launch (before the event loop uses the CountersManager) and
 * freed at close. Labels follow {@code "<type>: key=value ... component=<name>"}; the two drop counters share the
 * distributor's messages-dropped type with a reason key, like the distributor's other keyed counters.
 */
final class BackboneCounters implements AutoCloseable
{
    /** Key of the drop counter for live messages given up after the bounded back-pressure retries. */
    static final int DROP_REASON_BACK_PRESSURE = 100;
    /** Key of the drop counter for messages published while no p2p-server subscribed. */
    static final int DROP_REASON_NOT_CONNECTED = 101;

    final AtomicCounter malformedControl;
    final AtomicCounter backPressure;
    final AtomicCounter droppedBackPressure;
    final AtomicCounter droppedNotConnected;
    final AtomicCounter recoveries;

    BackboneCounters(final CountersManager countersManager, final String component)
    {
        final String suffix = " component=" + component;
        malformedControl = countersManager.newCounter(
            "backbone-malformed: stream=control" + suffix, MdCounters.BACKBONE_MALFORMED_TYPE_ID);
        backPressure = countersManager.newCounter(
            "backbone-back-pressure: stream=data" + suffix, MdCounters.BACKBONE_BACK_PRESSURE_TYPE_ID);
        droppedBackPressure = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_BACK_PRESSURE, "distributor-messages-dropped: reason=backbone-back-pressure" + suffix);
        droppedNotConnected = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_NOT_CONNECTED, "distributor-messages-dropped: reason=backbone-not-connected" + suffix);
        recoveries = countersManager.newCounter(
            "backbone-recoveries: images-resent" + suffix, MdCounters.BACKBONE_RECOVERIES_TYPE_ID);
    }

    private static AtomicCounter keyed(
        final CountersManager countersManager, final int typeId, final int code, final String label)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[Integer.BYTES]);
        key.putInt(0, code);
        final UnsafeBuffer labelBuffer = new UnsafeBuffer(label.getBytes(StandardCharsets.US_ASCII));
        return countersManager.newCounter(typeId, key, 0, Integer.BYTES, labelBuffer, 0, labelBuffer.capacity());
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(malformedControl, backPressure, droppedBackPressure, droppedNotConnected, recoveries);
    }
}
