/**
 * MDHub's Point-to-Point server: {@link io.mdhub.p2p.P2pServer} serves real ETA consumers (login, source directory,
 * dictionary, item streams) from item sources, one per fan-out worker.
 */
package io.mdhub.p2p;
