package dev.cairn.app;

import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.sync.SyncService;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.util.Map;

/** Builds team sync: the selected sync store, the conflict policy per team from {@link Config}. */
@ApplicationScoped
public class SyncWiring {

    /** {@code cairn.sync.policy} (reject, last_writer_wins, keep_both) and per team overrides. */
    @ConfigMapping(prefix = "cairn.sync")
    public interface Config {
        @WithDefault("reject")
        String policy();

        /** e.g. {@code cairn.sync.team-policy.acme=keep_both}. */
        Map<String, String> teamPolicy();

        @WithDefault("500")
        int maxOps();

        @WithDefault("1048576")
        int maxBytes();
    }

    @Produces
    @ApplicationScoped
    SyncService sync(
            SyncStore store, MemoryStore memories, Indexer indexer, SecretGate secrets, Clock clock, Config config) {
        SyncService.Policy fallback = SyncService.Policy.fromConfig(config.policy());
        Map<String, SyncService.Policy> perTeam = new java.util.HashMap<>();
        config.teamPolicy().forEach((team, p) -> perTeam.put(team, SyncService.Policy.fromConfig(p)));
        SyncService.Limits d = SyncService.Limits.defaults();
        return new SyncService(
                store,
                memories,
                indexer,
                secrets,
                clock,
                new SyncService.Limits(config.maxOps(), config.maxBytes(), d.maxContentBytes(), d.pageSize()),
                team -> perTeam.getOrDefault(team.value(), fallback));
    }
}
