package io.mdhub.distributor;

/**
 * Why the distributor ended a provider connection (the transport's own reasons, such as ping timeouts and bad frames,
 * are counted by RIPC). Each has its own counter and appears in the one log line written per disconnect.
 */
public enum ProviderDisconnectReason
{
    /** A message whose RWF header the flyweight refused. */
    MALFORMED_RWF(0, "malformed-rwf"),
    /** An item payload whose FieldList is malformed. */
    MALFORMED_FIELD_LIST(1, "malformed-field-list"),
    /** A directory message ETA could not decode, or a login request ETA could not decode. */
    UNDECODABLE_ADMIN(2, "undecodable-admin"),
    /** A message before the login. */
    NOT_LOGGED_IN(3, "not-logged-in"),
    /** The login was refused (not a provider). */
    LOGIN_REJECTED(4, "login-rejected"),
    /** The provider closed its login stream. */
    LOGIN_CLOSED(5, "login-closed"),
    /** More provider connections than allowed. */
    TOO_MANY_PROVIDERS(6, "too-many-providers"),
    /** A message that had to be re-encoded (renumbered service) and ETA could not. */
    REENCODE_FAILED(7, "reencode-failed"),
    /** An operator dropped the connection (JMX). */
    OPERATOR(8, "operator"),
    /** A mounted interactive provider refused or closed the distributor's login. */
    PROVIDER_REFUSED_LOGIN(9, "provider-refused-login"),
    /** The distributor is stopping its routes. */
    ROUTE_STOPPED(10, "route-stopped"),
    /** An item payload whose Map (or a FieldList inside one) is malformed. */
    MALFORMED_MAP(11, "malformed-map"),
    /** More output waiting for the provider than {@code mdhub.distributor.provider.max.output.bytes}: it stopped
     * reading. */
    SLOW_PROVIDER(12, "slow-provider"),
    /** No login request within {@code mdhub.distributor.login.timeout} of the handshake. */
    LOGIN_TIMEOUT(13, "login-timeout"),
    /** The entitlements changed and no longer let the provider publish what it publishes. */
    ENTITLEMENT_WITHDRAWN(14, "entitlement-withdrawn");

    private static final ProviderDisconnectReason[] VALUES = values();

    private final int code;
    private final String label;

    ProviderDisconnectReason(final int code, final String label)
    {
        this.code = code;
        this.label = label;
    }

    /**
     * @return stable numeric code, stored in the counter key.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the name used in logs and counter labels.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param code a code.
     * @return the reason.
     */
    public static ProviderDisconnectReason fromCode(final int code)
    {
        return VALUES[code];
    }
}
