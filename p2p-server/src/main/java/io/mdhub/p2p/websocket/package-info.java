/**
 * The WebSocket API of the p2p-server: consumers that speak OMM as JSON ({@code tr_json2}, {@code rssl.json.v2}) or
 * RIPC/RWF ({@code rssl.rwf}) over a WebSocket reach the same fan-out workers, watchlists and entitlements as RSSL
 * consumers. A connection's pipeline upgrades HTTP to a WebSocket, then, for JSON, converts each JSON message to RWF
 * for the worker's {@code ConsumerSession} and each RWF message the worker writes back to JSON, with ETA's own
 * converter; for {@code rssl.rwf}, hands the binary frames' RIPC stream to the same RIPC server phases as an RSSL
 * port's.
 */
package io.mdhub.p2p.websocket;
