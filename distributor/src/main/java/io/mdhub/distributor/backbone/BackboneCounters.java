package io.mdhub.distributor.backbone;

import java.nio.charset.StandardCharsets;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The distributor's backbone counters, allocated at launch (before the event loop uses the CountersManager) and
 * freed at close. Labels follow {@code "<type>: key=value ... component=<name>"}; the drop counters share the
 * distributor's messages-dropped type with a reason key, like the distributor's other keyed counters. Key 100
 * ({@code reason=backbone-back-pressure}) is retired and not reused: back-pressure does not drop live data, it
 * pauses the providers; only a full pending store drops ({@link #DROP_REASON_PENDING_FULL}).
 */
final class BackboneCounters implements AutoCloseable
{
    /** Key of the drop counter for messages published while no p2p-server subscribed. */
    static final int DROP_REASON_NOT_CONNECTED = 101;
    /** Key of the drop counter for live messages that found the pending store full while the backbone was blocked. */
    static final int DROP_REASON_PENDING_FULL = 102;
    /** Key of the drop counter for live messages the open publication refused (too long, position exhausted). */
    static final int DROP_REASON_REJECTED = 103;
    /** Key of the drop counter for post acknowledgements the data stream pushed back (the poster times out). */
    static final int DROP_REASON_POST_ACK = 104;
    /** Key of the drop counter for providers' generic messages the data stream pushed back. */
    static final int DROP_REASON_GENERIC = 105;

    final AtomicCounter malformedControl;
    final AtomicCounter backPressure;
    final AtomicCounter droppedPendingFull;
    final AtomicCounter droppedRejected;
    final AtomicCounter droppedNotConnected;
    final AtomicCounter recoveries;
    final AtomicCounter pendingBytes;
    final AtomicCounter pendingHighWater;
    final AtomicCounter postAcksDropped;
    final AtomicCounter genericsDropped;
    final AtomicCounter reconnects;
    final AtomicCounter up;

    BackboneCounters(final CountersManager countersManager, final String component)
    {
        final String suffix = " component=" + component;
        malformedControl = countersManager.newCounter(
            "backbone-malformed: stream=control" + suffix, MdCounters.BACKBONE_MALFORMED_TYPE_ID);
        backPressure = countersManager.newCounter(
            "backbone-back-pressure: stream=data" + suffix, MdCounters.BACKBONE_BACK_PRESSURE_TYPE_ID);
        droppedPendingFull = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_PENDING_FULL, "distributor-messages-dropped: reason=backbone-pending-full" + suffix);
        droppedRejected = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_REJECTED, "distributor-messages-dropped: reason=backbone-rejected" + suffix);
        droppedNotConnected = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_NOT_CONNECTED, "distributor-messages-dropped: reason=backbone-not-connected" + suffix);
        postAcksDropped = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_POST_ACK, "distributor-messages-dropped: reason=backbone-post-ack" + suffix);
        genericsDropped = keyed(countersManager, MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID,
            DROP_REASON_GENERIC, "distributor-messages-dropped: reason=backbone-generic" + suffix);
        recoveries = countersManager.newCounter(
            "backbone-recoveries: images-resent" + suffix, MdCounters.BACKBONE_RECOVERIES_TYPE_ID);
        pendingBytes = countersManager.newCounter(
            "distributor-backbone-pending-bytes: stream=data" + suffix,
            MdCounters.DISTRIBUTOR_BACKBONE_PENDING_BYTES_TYPE_ID);
        reconnects =
            countersManager.newCounter("backbone-reconnects:" + suffix, MdCounters.BACKBONE_RECONNECTS_TYPE_ID);
        up = countersManager.newCounter("backbone-up:" + suffix, MdCounters.BACKBONE_UP_TYPE_ID);
        pendingHighWater = countersManager.newCounter(
            "distributor-backbone-pending-hwm: stream=data" + suffix,
            MdCounters.DISTRIBUTOR_BACKBONE_PENDING_HWM_TYPE_ID);
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
        CloseHelper.closeAll(malformedControl, backPressure, droppedPendingFull, droppedRejected, droppedNotConnected,
            recoveries, pendingBytes, pendingHighWater, postAcksDropped, genericsDropped, reconnects, up);
    }
}
