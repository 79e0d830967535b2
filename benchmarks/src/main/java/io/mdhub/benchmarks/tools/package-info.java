/**
 * What the RSSL tools (source, client, demo) share: connection settings and the Ctrl-C handling of their mains.
 */
package io.mdhub.benchmarks.tools;
