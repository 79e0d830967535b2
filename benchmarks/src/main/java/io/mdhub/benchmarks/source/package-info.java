/**
 * The market data source simulator behind {@code bin/mdhub source}: publishes an item universe into a distributor as
 * a non-interactive provider, at a commanded update rate, with per-item update counters and embedded timestamps.
 */
package io.mdhub.benchmarks.source;
