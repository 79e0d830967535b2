package io.mdhub.p2p.backbone;

/**
 * Which live distributors carry a service, as the item requests need to know.
 */
interface Carriers
{
    /**
     * @return true if a live distributor carries the service.
     */
    boolean hasCarrier(int serviceId);

    /**
     * @return how many live distributors carry the service.
     */
    int carriers(int serviceId);
}
