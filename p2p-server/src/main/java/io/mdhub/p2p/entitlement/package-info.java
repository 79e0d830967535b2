/**
 * What consumers are allowed to do: the hook the fan-out workers ask before acting for a consumer.
 */
package io.mdhub.p2p.entitlement;
