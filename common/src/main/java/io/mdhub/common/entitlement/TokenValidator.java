package io.mdhub.common.entitlement;

/**
 * Checks a token login (the RDM login's authentication token, or a user name of type token): says which user the
 * token stands for. The default looks the token's SHA-256 up in the entitlement file ({@code token-sha256} lines); a
 * site with an identity provider implements this over it (called on a fan-out worker: it must be quick or cached).
 */
@FunctionalInterface
public interface TokenValidator
{
    /** The entitlement file's own tokens. */
    TokenValidator FILE = (table, token, application) -> table.userForToken(token);

    /**
     * @param table       the entitlements in force.
     * @param token       the token as the login carried it.
     * @param application the login's application id (may be empty).
     * @return the user the token stands for, or null if it is not valid.
     */
    String userFor(EntitlementTable table, String token, String application);
}
