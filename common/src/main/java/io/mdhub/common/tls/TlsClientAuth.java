package io.mdhub.common.tls;

/**
 * Whether a TLS server asks its clients for a certificate ({@code mdhub.tls.client.auth}).
 */
public enum TlsClientAuth
{
    /**
     * No client certificate is asked for: the server proves who it is, clients stay anonymous to TLS.
     */
    NONE,

    /**
     * A client certificate is asked for and checked against the truststore when sent; clients without one connect.
     */
    OPTIONAL,

    /**
     * Mutual TLS: a client without a certificate the truststore vouches for fails the handshake.
     */
    REQUIRE
}
