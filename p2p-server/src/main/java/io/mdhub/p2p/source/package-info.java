/**
 * The p2p-server's view of market data: the {@link io.mdhub.p2p.source.ItemSource} a fan-out worker opens items on
 * (the backbone consumer in production, a stub in tests), its listener and the service directory.
 */
package io.mdhub.p2p.source;
