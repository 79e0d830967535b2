/**
 * Management plumbing: the process's JMX-exported Micrometer registry, the bridge from Agrona counters to meters,
 * and uniform registration of MXBeans with operations.
 */
package io.mdhub.common.metrics;
