package dev.cairn.http;

import java.security.PublicKey;

/**
 * Where bearer tokens are verified against: the issuer's public key and name. The local server supplies its own
 * (generated in the data directory); a deployed function is configured with its identity provider's.
 */
public interface VerificationKeys {

    PublicKey publicKey();

    String issuer();
}
