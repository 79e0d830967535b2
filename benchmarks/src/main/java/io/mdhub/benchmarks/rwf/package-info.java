/**
 * Benchmarks of RWF handling: the routing flyweights against ETA's full decode.
 */
package io.mdhub.benchmarks.rwf;
