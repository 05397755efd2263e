package dev.cairn.local;

import dev.cairn.app.SyncWiring;
import dev.cairn.client.CairnClient;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.sync.TeamReplica;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * This server as a replica of teams on a remote Cairn ({@code cairn.sync.remote.*}): a pass every
 * {@code cairn.sync.remote.interval} while the server runs, and on demand ({@code sync --once}). Off without a url.
 */
@ApplicationScoped
@io.quarkus.runtime.Startup // a wrong setting (batch size, missing token) stops the server at start, not every pass
public class RemoteSync {

    private static final System.Logger LOG = System.getLogger(RemoteSync.class.getName());

    private final SyncWiring.Remote config;
    private final TeamReplica replica;

    public RemoteSync(SyncWiring.Config sync, MemoryStore memories, Indexer indexer, SecretGate secrets, Clock clock) {
        this.config = sync.remote();
        if (config.url().isEmpty()) {
            this.replica = null;
            return;
        }
        if (config.token().isEmpty() || config.teams().isEmpty()) {
            throw new IllegalStateException(
                    "cairn.sync.remote.url is set, so cairn.sync.remote.token and cairn.sync.remote.teams are required");
        }
        CairnClient client = CairnClient.builder(URI.create(config.url().get()))
                .token(config.token().get())
                .build();
        Path dir = Path.of(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                        .getOptionalValue("cairn.data-dir", String.class)
                        .orElse("./cairn-data"))
                .resolve("sync-remote");
        this.replica = new TeamReplica(
                new RemoteTeamClient(client),
                new FileReplicaStates(dir),
                memories,
                indexer,
                secrets,
                clock,
                new TeamReplica.Settings(
                        Id.of("cairn.sync.remote.client-id", config.clientId()), config.batchSize(), 500, 5));
    }

    public boolean enabled() {
        return replica != null;
    }

    /** One pass over every configured team; a team that fails is reported and the others still run. */
    public List<String> once() {
        List<String> lines = new ArrayList<>();
        if (replica == null) {
            lines.add(
                    "remote sync is off: set cairn.sync.remote.url, cairn.sync.remote.token and cairn.sync.remote.teams");
            return lines;
        }
        for (String team : config.teams().get()) {
            try {
                TeamReplica.Report r = replica.syncOnce(Id.of("cairn.sync.remote.teams", team));
                String line = String.format(
                        "%s: pulled %d commit(s), merged %d, uploaded %d op(s), %d conflict(s), at version %d",
                        team, r.pulledCommits(), r.merged(), r.uploaded(), r.conflicts(), r.version());
                if (r.parked() > 0) {
                    line += "; " + r.parked() + " local change(s) wait for a resolution in GET /v1/teams/" + team
                            + "/conflicts on the team server";
                }
                if (r.refused() > 0) {
                    line += "; " + r.refused() + " local change(s) refused by the team (its policy is reject: the"
                            + " team changed those facts first), replaced here by the team's value (logged)";
                }
                lines.add(line);
            } catch (RuntimeException e) {
                lines.add(team + ": failed: " + e.getMessage());
            }
        }
        return lines;
    }

    @Scheduled(
            identity = "cairn-remote-sync",
            every = "${cairn.sync.remote.interval:30s}", // "off" disables it (sync --once sets that)
            delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (replica != null) {
            // a laptop that quietly stopped syncing (revoked token, unreachable or reset team server) must show
            once().forEach(line -> LOG.log(
                    line.contains(": failed: ") || line.contains(" refused by the team")
                            ? System.Logger.Level.WARNING
                            : System.Logger.Level.INFO,
                    "remote sync: " + line));
        }
    }
}
