package io.mdhub.p2p.backbone;

/**
 * A service as one distributor announces it, with the state of its service-level recovery pass.
 */
final class CarriedService
{
    /** No service-level recovery pass under way. */
    static final int PASS_NONE = 0;
    /** A pass is wanted but its RecoveryRequest is not sent yet (back-pressure, or nobody listening). */
    static final int PASS_PENDING = 1;
    /** A pass was asked for: its recovery images are awaited. */
    static final int PASS_SENT = 2;

    final DistributorState distributor;
    final int serviceId;
    String name;
    boolean isUp;
    boolean isAcceptingRequests;
    long capabilities;
    int itemCount;
    long generation;
    int passState = PASS_NONE;
    long lastPassImageNs;
    int passImages;
    boolean isPassIgnored;

    CarriedService(final DistributorState distributor, final int serviceId)
    {
        this.distributor = distributor;
        this.serviceId = serviceId;
    }
}
