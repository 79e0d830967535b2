package io.mdhub.p2p.order;

/**
 * What {@link RoleArbiter} reads of the fence: what it concludes of the peer process. {@link PeerFence} is the
 * implementation; the interface lets the role decisions be tested with a fake.
 */
interface RoleFence
{
    PeerFence.State state();

    String reason();

    boolean isUnreachable();

    long connectionsLost();

    /**
     * @return when the state last turned DOWN (on the duty cycle's clock).
     */
    long downSinceNs();
}
