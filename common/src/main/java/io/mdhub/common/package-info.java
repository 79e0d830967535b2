/**
 * Shared foundations of MDHub: the RSSL (RIPC) transport for Netty, RWF flyweights and ETA codec helpers, the field
 * dictionary, configuration contexts, metrics and JMX plumbing, and latency recording.
 */
package io.mdhub.common;
