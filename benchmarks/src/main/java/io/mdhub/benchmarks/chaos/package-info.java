/**
 * {@code bin/mdhub chaos orders} and {@code bin/mdhub chaos md}: rounds of random kill -9 faults against MDHub run
 * as a user runs it (every component its own JVM from its fat jar), each round's figures checked against what the
 * system promises (no acknowledged order lost or stored twice; no update skipped without a Suspect first; whole
 * again within a bound), a table row per round, a report, and an exit status that fails when any round did.
 * The faults come from a printed seed, so a failed run can be replayed.
 */
package io.mdhub.benchmarks.chaos;
