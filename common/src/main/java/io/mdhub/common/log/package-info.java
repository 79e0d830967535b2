/**
 * Logging helpers: summaries that keep repeated events from flooding the log.
 */
package io.mdhub.common.log;
