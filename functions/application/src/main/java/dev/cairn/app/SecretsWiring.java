package dev.cairn.app;

import dev.cairn.model.id.Id;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import io.quarkus.arc.DefaultBean;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import java.util.HashMap;
import java.util.Map;

/** The bundled rules, and the gate every function's write and read paths go through. */
@ApplicationScoped
public class SecretsWiring {

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
    SecretGate gate(SecretScanner scanner, SecretsConfig config, Counters counters) {
        SecretPolicy fallback = SecretPolicy.parse(config.policy());
        Map<String, SecretPolicy> perTeam = new HashMap<>();
        config.teamPolicy()
                .forEach((team, policy) ->
                        perTeam.put(Id.of("cairn.secrets.team-policy", team).value(), SecretPolicy.parse(policy)));
        // counted by rule and outcome (/q/metrics: cairn_secret_findings_total); the secret itself is never recorded
        return new SecretGate(
                scanner,
                team -> perTeam.getOrDefault(team.value(), fallback),
                (rule, outcome) -> counters.add("cairn.secret.findings", 1, "rule", rule, "outcome", outcome));
    }

    /** Counts nowhere unless the deployment provides {@link Counters} (the local server: Micrometer). */
    @Produces
    @DefaultBean
    @ApplicationScoped
    Counters noCounters() {
        return Counters.NONE;
    }
}
