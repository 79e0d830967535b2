package io.mdhub.p2p.order;

/**
 * Where a server stands in the pair, as {@link RoleArbiter} decides it: starting, catching up from its peer, or
 * serving.
 */
enum ServerState
{
    /** Rebuilt from its queue, waiting to hear the peer (or to give up on it). */
    STARTING,
    /** Discarded its store, receiving everything from the serving peer. */
    CATCHING_UP,
    /** Primary or backup of every partition. */
    SERVING
}
