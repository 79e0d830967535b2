/**
 * Benchmarks of the FIX handling on the order path.
 */
package io.mdhub.benchmarks.fix;
