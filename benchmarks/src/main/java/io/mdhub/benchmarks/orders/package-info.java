/**
 * JMH benchmarks of the order path.
 */
package io.mdhub.benchmarks.orders;
