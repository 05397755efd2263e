package dev.cairn.app;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/**
 * The secret policy: {@code cairn.secrets.policy} for every team ({@code redact} by default: the write succeeds and
 * the secret never lands), and {@code cairn.secrets.team-policy."<team>"} to override it per team
 * ({@code reject}: 422 with the findings).
 */
@ConfigMapping(prefix = "cairn.secrets")
public interface SecretsConfig {

    @WithDefault("redact")
    String policy();

    Map<String, String> teamPolicy();
}
