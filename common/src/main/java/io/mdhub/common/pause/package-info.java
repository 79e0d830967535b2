/**
 * Stop-the-world pauses of a JVM, as its own JFR records them (every safepoint, with the VM operation it ran: GC
 * pauses, deoptimisation, ...), so a latency spike can be laid beside the pauses of every process on its path.
 */
package io.mdhub.common.pause;
