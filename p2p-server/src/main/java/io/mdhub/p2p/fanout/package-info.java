/**
 * The consumer-facing side of the p2p-server: fan-out workers (one per event loop, each owning its connections,
 * watchlists, item table and item source), the per-connection {@link io.mdhub.p2p.fanout.ConsumerSession} and the
 * messages written to consumers (admin domains through ETA, item streams by copy and streamId patch).
 */
package io.mdhub.p2p.fanout;
