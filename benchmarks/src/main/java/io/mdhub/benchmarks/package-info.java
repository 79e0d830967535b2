/**
 * MDHub's JMH micro-benchmarks and their shared base.
 */
package io.mdhub.benchmarks;
