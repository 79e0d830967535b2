/**
 * Latency measurement: single-writer HdrHistogram recording on hot threads, interval logs (.hlog) written off them,
 * and summaries in the units and columns of the published reference results.
 */
package io.mdhub.common.latency;
