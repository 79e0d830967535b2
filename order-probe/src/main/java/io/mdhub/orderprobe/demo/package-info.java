/**
 * {@code bin/mdhub demo --orders}: an active/active order pair and the probe in one JVM, a short sweep of rates, and
 * the probe's report.
 */
package io.mdhub.orderprobe.demo;
