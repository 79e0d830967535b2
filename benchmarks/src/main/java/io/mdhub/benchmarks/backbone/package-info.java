/**
 * Benchmarks of the backbone: its SBE messages and their trip over Aeron between distributor and p2p-server.
 */
package io.mdhub.benchmarks.backbone;
