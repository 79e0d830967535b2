/**
 * The published RMDS market data tests reproduced with separate processes on this machine: {@code bin/mdhub bench
 * latency} (an interactive source mounted by a distributor with its cache off, a p2p-server with its cache off, the
 * test client; a sweep of update rates with a steady-state check) and its report beside the reference curves.
 */
package io.mdhub.benchmarks.bench;
