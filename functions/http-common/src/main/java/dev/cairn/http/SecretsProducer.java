package dev.cairn.http;

import dev.cairn.model.id.Id;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import java.util.HashMap;
import java.util.Map;

/** The bundled rules, and the gate every function's write and read paths go through. */
@ApplicationScoped
public class SecretsProducer {

    @Produces
    @ApplicationScoped
    SecretScanner scanner() {
        return SecretScanner.bundled();
    }

    /**
     * Builds the scanner while the application starts rather than on the first request: its tables and the follow
     * gates it learns from the rules take about 0.2 s. On Lambda, SnapStart then snapshots it built.
     */
    void buildAtStartup(@Observes StartupEvent event, SecretScanner scanner) {
        scanner.version();
    }

    @Produces
    @ApplicationScoped
    SecretGate gate(SecretScanner scanner, SecretsConfig config, MeterRegistry metrics) {
        SecretPolicy fallback = SecretPolicy.parse(config.policy());
        Map<String, SecretPolicy> perTeam = new HashMap<>();
        config.teamPolicy().forEach((team, policy) -> perTeam.put(Id.of("cairn.secrets.team-policy", team).value(),
                SecretPolicy.parse(policy)));
        // counted by rule and outcome (/q/metrics: cairn_secret_findings_total); the secret itself is never recorded
        return new SecretGate(scanner, team -> perTeam.getOrDefault(team.value(), fallback),
                (rule, outcome) -> metrics.counter("cairn.secret.findings", "rule", rule, "outcome", outcome)
                        .increment());
    }
}
