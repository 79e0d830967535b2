/**
 * The soak: hours of market data and orders with periodic kills, each server's resident memory, heap after a full
 * collection and file descriptors sampled every minute, and a verdict per resource on whether it levels off.
 */
package io.mdhub.benchmarks.soak;
