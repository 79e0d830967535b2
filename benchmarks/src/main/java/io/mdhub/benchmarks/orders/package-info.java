/**
 * JMH benchmarks of the order path, and the servers and probe targets {@code bench orders} measures the order pair
 * against: the TCP floor under it, a Hazelcast cluster beside it.
 */
package io.mdhub.benchmarks.orders;
