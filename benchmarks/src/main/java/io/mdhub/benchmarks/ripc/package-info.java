/**
 * Benchmarks of RIPC framing: the data-phase decoder and encoder a connection's bytes go through.
 */
package io.mdhub.benchmarks.ripc;
