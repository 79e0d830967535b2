/**
 * RSSL socket transport (RIPC13/14) over Netty, server side ({@link io.mdhub.common.ripc.RipcServer}) and client
 * side ({@link io.mdhub.common.ripc.RipcClient}), wire-compatible with ETA 3.9.
 * <p>
 * Wire layouts are in the {@code *Descriptor} classes. Pipeline layout and buffer ownership are described in
 * {@link io.mdhub.common.ripc.RipcPipeline}: inbound, the application receives one {@code ByteBuf} per RWF message
 * (a retained slice or a reassembled pooled buffer, released by the application); outbound, it writes one
 * {@code ByteBuf} per RWF message (released by the encoder). Every connection ends through
 * {@link io.mdhub.common.ripc.RipcDisconnects}: one reason, one log line, one counter increment.
 */
package io.mdhub.common.ripc;
