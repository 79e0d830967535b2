package io.mdhub.distributor;

import io.mdhub.common.status.CounterReason;

/**
 * Why the distributor ended a provider connection (the transport's own reasons, such as ping timeouts and bad frames,
 * are counted by RIPC). Each has its own counter and appears in the one log line written per disconnect.
 */
public enum ProviderDisconnectReason implements CounterReason
{
    /** A message whose RWF header the flyweight refused. */
    MALFORMED_RWF,
    /** An item payload whose FieldList is malformed. */
    MALFORMED_FIELD_LIST,
    /** A directory message ETA could not decode, or a login request ETA could not decode. */
    UNDECODABLE_ADMIN,
    /** A message before the login. */
    NOT_LOGGED_IN,
    /** The login was refused (not a provider). */
    LOGIN_REJECTED,
    /** The provider closed its login stream. */
    LOGIN_CLOSED,
    /** More provider connections than allowed. */
    TOO_MANY_PROVIDERS,
    /** A message that had to be re-encoded (renumbered service) and ETA could not. */
    REENCODE_FAILED,
    /** An operator dropped the connection (JMX). */
    OPERATOR,
    /** A mounted interactive provider refused or closed the distributor's login. */
    PROVIDER_REFUSED_LOGIN,
    /** The distributor is stopping its routes. */
    ROUTE_STOPPED,
    /** An item payload whose Map (or a FieldList inside one) is malformed. */
    MALFORMED_MAP,
    /** More output waiting for the provider than {@code mdhub.distributor.provider.max.output.bytes}: it stopped
     * reading. */
    SLOW_PROVIDER,
    /** No login request within {@code mdhub.distributor.login.timeout} of the handshake. */
    LOGIN_TIMEOUT,
    /** The entitlements changed and no longer let the provider publish what it publishes. */
    ENTITLEMENT_WITHDRAWN;

    private static final ProviderDisconnectReason[] VALUES = values();

    /**
     * @param code a code.
     * @return the reason.
     */
    public static ProviderDisconnectReason fromCode(final int code)
    {
        return VALUES[code];
    }
}
