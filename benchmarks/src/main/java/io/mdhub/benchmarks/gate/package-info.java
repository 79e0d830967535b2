/**
 * The JMH regression gate ({@code bin/mdhub bench gate}): the hot-path benchmarks run briefly, each score is divided by
 * a calibration benchmark's of the same run (so a slower or busier machine moves both) and compared with a committed
 * baseline, failing beyond a margin; a benchmark marked {@link io.mdhub.benchmarks.gate.NoAllocation} fails on any
 * allocation.
 */
package io.mdhub.benchmarks.gate;
