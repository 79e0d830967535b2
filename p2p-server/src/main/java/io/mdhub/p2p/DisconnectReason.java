package io.mdhub.p2p;

import io.mdhub.common.status.CounterReason;

/**
 * Why the p2p-server closed a consumer connection; each reason has its own counter and one log line per disconnect.
 */
public enum DisconnectReason implements CounterReason
{
    /**
     * Output above {@code mdhub.p2p.max.output.bytes}, or unwritable (or output not draining) longer than the
     * slow-consumer timeout ({@code mdhub.p2p.slow.consumer.conflate.timeout} under the conflate policy).
     */
    SLOW_CONSUMER,

    /**
     * A message too broken to name its stream.
     */
    MALFORMED_MESSAGE,

    /**
     * A login that was rejected (provider role, undecodable login).
     */
    LOGIN_REJECTED,

    /**
     * The consumer closed its login stream.
     */
    LOGOUT,

    /**
     * An operator dropped the connection over JMX.
     */
    ADMIN_DROP,

    /**
     * No login request within {@code mdhub.p2p.login.timeout} of the handshake.
     */
    LOGIN_TIMEOUT;
}
