/**
 * Benchmarks of the p2p-server's fan-out: what each watcher of an item costs per update.
 */
package io.mdhub.benchmarks.fanout;
