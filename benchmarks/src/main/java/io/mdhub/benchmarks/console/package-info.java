/**
 * {@code bin/mdhub console}: the operator's console over JMX. It finds the MDHub processes of this host through the
 * attach API (and remote ones from a list), reads each one's counters and management beans once a second, and shows
 * a top-like overview in the terminal, or prints it once as a table or JSON for scripts.
 */
package io.mdhub.benchmarks.console;
