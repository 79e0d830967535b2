package io.mdhub.p2p;

/**
 * Why the p2p-server closed a consumer connection; each reason has its own counter and one log line per disconnect.
 */
public enum DisconnectReason
{
    /**
     * Output above {@code mdhub.p2p.max.output.bytes}, or unwritable (or output not draining) longer than the
     * slow-consumer timeout ({@code mdhub.p2p.slow.consumer.conflate.timeout} under the conflate policy).
     */
    SLOW_CONSUMER(0, "slow-consumer"),

    /**
     * A message too broken to name its stream.
     */
    MALFORMED_MESSAGE(1, "malformed-message"),

    /**
     * A login that was rejected (provider role, undecodable login).
     */
    LOGIN_REJECTED(2, "login-rejected"),

    /**
     * The consumer closed its login stream.
     */
    LOGOUT(3, "logout"),

    /**
     * An operator dropped the connection over JMX.
     */
    ADMIN_DROP(4, "admin-drop"),

    /**
     * No login request within {@code mdhub.p2p.login.timeout} of the handshake.
     */
    LOGIN_TIMEOUT(5, "login-timeout");

    private final int code;
    private final String label;

    DisconnectReason(final int code, final String label)
    {
        this.code = code;
        this.label = label;
    }

    /**
     * @return the counter key.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the label used in counters and logs.
     */
    public String label()
    {
        return label;
    }
}
