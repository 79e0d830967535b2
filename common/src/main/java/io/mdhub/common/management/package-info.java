/**
 * A server's management endpoint over HTTP: Prometheus metrics ({@code /metrics}) and health ({@code /health},
 * {@code /health/live}, {@code /health/ready}), served by one Netty event loop of its own that sleeps until a request
 * comes.
 */
package io.mdhub.common.management;
