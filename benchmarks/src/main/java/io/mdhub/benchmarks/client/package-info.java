/**
 * The test client behind {@code bin/mdhub client}: opens an item universe on a p2p-server over one or many
 * connections (mounts), counts refreshes, updates and statuses, proves per-item update counters have no gap, and
 * records end-to-end latency from the timestamps the source embeds.
 */
package io.mdhub.benchmarks.client;
