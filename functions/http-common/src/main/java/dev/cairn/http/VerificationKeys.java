package dev.cairn.http;

import java.security.PublicKey;

/**
 * Where bearer tokens are verified against: the issuer's public key and name. The local server supplies its own
 * (generated in the data directory); a deployed function is configured with its identity provider's — one PEM key,
 * or the location of the provider's JSON Web Key Set when keys rotate (Cognito, Auth0, Okta).
 */
public interface VerificationKeys {

    /** The one key tokens are signed with, or null when {@link #keyLocation()} names a key set instead. */
    PublicKey publicKey();

    /** URL of a JSON Web Key Set (fetched and refreshed by SmallRye JWT, keys chosen by {@code kid}), or null. */
    default String keyLocation() {
        return null;
    }

    String issuer();
}
