/**
 * {@code bin/mdhub demo}: the whole market data path in one JVM on embedded defaults.
 */
package io.mdhub.benchmarks.demo;
