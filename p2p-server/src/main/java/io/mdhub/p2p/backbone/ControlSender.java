package io.mdhub.p2p.backbone;

import org.agrona.DirectBuffer;

import io.mdhub.common.rwf.FieldView;

/**
 * What the parts of a backbone item source send on the control stream, without Aeron types: each call returns the
 * publication's position, or a negative {@link io.aeron.Publication} code (back-pressure, not connected, closed).
 */
interface ControlSender
{
    /**
     * @return true while the backbone daemon is lost: nothing can be sent until a new client is wired.
     */
    boolean isDown();

    /**
     * @return true when some distributor subscribes to the control stream.
     */
    boolean isConnected();

    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    long requestItem(
        long requestId,
        int serviceId,
        int domainType,
        boolean isStreaming,
        boolean isPrivate,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        FieldView view);

    long closeItem(long distributorEpoch, int serviceId, int itemHandle);

    /**
     * @param itemHandle   one item, or -1 for every item of the service.
     * @param domainType   the item's domain; 0 for every item of the service.
     * @param lastSequence the last sequence held (0 for one item).
     */
    long requestRecovery(int serviceId, int itemHandle, int domainType, long lastSequence);
}
