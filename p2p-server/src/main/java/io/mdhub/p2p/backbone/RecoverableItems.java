package io.mdhub.p2p.backbone;

import org.agrona.collections.IntArrayList;

/**
 * The items a recovery of one distributor's service acts on, as the service recovery sees them.
 */
interface RecoverableItems
{
    /**
     * Add the ids of the distributor's items of the service whose image is not already on its way.
     */
    void collectRecoverable(DistributorState distributor, int serviceId, IntArrayList out);

    /**
     * Turn the items recovering: each awaits the pass, or (null) is asked for again by an item request; each gets
     * an Open/Suspect status with the text, unless it is null.
     */
    void recoverItems(IntArrayList itemIds, CarriedService passOrNull, String text);
}
