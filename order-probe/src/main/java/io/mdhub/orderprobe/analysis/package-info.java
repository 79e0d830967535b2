/**
 * The probe's analyser: loads the run directories probes write (orders with their three timestamps, the pauses of
 * every process), merges the probes of one run, computes the published statistics, attributes latency spikes to
 * overlapping pauses, and writes the report (text, HTML with SVG charts, CSV in the reference columns).
 */
package io.mdhub.orderprobe.analysis;
