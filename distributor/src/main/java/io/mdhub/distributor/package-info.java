/**
 * The Source Distributor: RSSL server for non-interactive providers, merged service directory, per-service item
 * caches, and the {@link io.mdhub.distributor.DistributorListener} events the backbone publisher consumes.
 */
package io.mdhub.distributor;
