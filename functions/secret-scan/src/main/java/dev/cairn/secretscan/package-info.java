/** Reserved for the secret-scan function; see this module's README for what will live here. */
package dev.cairn.secretscan;
