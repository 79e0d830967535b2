package io.mdhub.backbone.protocol;

/**
 * The services a distributor announces, read by index when an announcement is encoded (off the hot path, every
 * announcement interval).
 */
public interface AnnouncedServices
{
    /**
     * @return how many services.
     */
    int count();

    /**
     * @param index 0 to count - 1.
     * @return backbone-wide service id.
     */
    int serviceId(int index);

    /**
     * @param index 0 to count - 1.
     * @return the service name (ASCII).
     */
    String name(int index);

    /**
     * @param index 0 to count - 1.
     * @return ServiceState up.
     */
    boolean isUp(int index);

    /**
     * @param index 0 to count - 1.
     * @return AcceptingRequests.
     */
    boolean isAcceptingRequests(int index);

    /**
     * @param index 0 to count - 1.
     * @return sequence of the service's last data message, 0 if none.
     */
    long lastSequence(int index);

    /**
     * @param index 0 to count - 1.
     * @return items the service has.
     */
    int itemCount(int index);

    /**
     * @param index 0 to count - 1.
     * @return bit n set: serves RDM domain n.
     */
    long capabilities(int index);
}
