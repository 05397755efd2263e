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
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

        /** This server as a client of a team on another Cairn (README § Team memory: sync); off without a url. */
        Remote remote();
    }

    /** {@code cairn.sync.remote.*}: the team server to sync this server's team memories with. */
    public interface Remote {
        /** The team server's base URL (another local server or the AWS API); unset: no remote sync. */
        Optional<String> url();

        /** A bearer token the team server accepts, for a user of every team in {@link #teams}. */
        Optional<String> token();

        /** The teams to sync (the same ids here and there). */
        Optional<List<String>> teams();

        /** How often a pass runs while the server is up (read by the local server's scheduler). */
        @WithDefault("30s")
        String interval();

        /** Ops per delta: the seed's 50–500. */
        @WithDefault("100")
        int batchSize();

        /** This replica's {@code client_id} in the team's log. */
        @WithDefault("local")
        String clientId();
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
