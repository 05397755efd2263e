package dev.cairn.model.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySyncStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever the interleaving of commits, retries of earlier requests and pulls by three clients, every client that
 * pulls the change feed to the end holds exactly the server's materialized state, which is exactly a replay of the
 * log. Runs on the in-memory stores, which pass the same store contracts as SQLite and DynamoDB.
 */
class SyncConvergenceProperties {

    private static final Id TEAM = new Id("converge");
    private static final Caller CALLER = new Caller(new Id("u"), Set.of(TEAM));

    /** client, kind (0 upsert, 1 delete, 2 retry the client's last request, 3 pull), fact, word */
    record Step(int client, int kind, int fact, int word) {}

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.integers()
                .between(0, 2)
                .flatMap(c -> Arbitraries.integers()
                        .between(0, 3)
                        .flatMap(k -> Arbitraries.integers()
                                .between(0, 3)
                                .flatMap(f ->
                                        Arbitraries.integers().between(0, 4).map(w -> new Step(c, k, f, w)))))
                .list()
                .ofMinSize(1)
                .ofMaxSize(30);
    }

    private static final class Client {
        final String name;
        final Map<String, Long> versions = new HashMap<>();
        final Map<String, String> contents = new HashMap<>(); // null value: deleted
        long pulled;
        SyncService.SyncDraft last;
        int sent;

        Client(String name) {
            this.name = name;
        }

        void pull(SyncService sync) {
            while (true) {
                SyncService.Changes ch = sync.changes(CALLER, TEAM, pulled, 7);
                for (Commit c : ch.changes()) {
                    c.ops().forEach(op -> {
                        versions.put(op.factId().value(), op.version());
                        contents.put(op.factId().value(), op.kind().name().equals("DELETE") ? null : op.content());
                    });
                    pulled = c.version();
                }
                if (ch.nextSince() == null) {
                    return;
                }
            }
        }
    }

    /** Every other request goes without a key: its retry is then recognised by (client, base, ops). */
    private static String key(Client c, Step s) {
        String key = c.name + "-" + c.sent++;
        return s.word() % 2 == 0 ? key : null;
    }

    @Property(tries = 200) // cheap on the in-memory stores: more interleavings than the SQLite run could afford
    void everyClientThatPulls_shouldHoldTheServersState(@ForAll("steps") List<Step> steps) {
        InMemorySyncStore store = new InMemorySyncStore();
        InMemoryMemoryStore memories = new InMemoryMemoryStore();
        SyncService sync = new SyncService(
                store,
                memories,
                new Indexer(memories, new InMemoryVectorIndex(), new HashingEmbedder()),
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT),
                Clock.systemUTC(),
                SyncService.Limits.defaults(),
                team -> SyncService.Policy.REJECT);
        String[] words = {"alpha", "bravo", "charlie", "delta", "echo"};
        List<Client> clients = List.of(new Client("a"), new Client("b"), new Client("c"));
        for (Step s : steps) {
            Client c = clients.get(s.client());
            String fact = "f" + s.fact();
            SyncService.SyncDraft draft = switch (s.kind()) {
                case 0 ->
                    new SyncService.SyncDraft(
                            c.name,
                            c.pulled,
                            key(c, s),
                            List.of(new SyncService.OpDraft(
                                    "upsert",
                                    fact,
                                    c.pulled + 1, // the seed's op version: the version the fact gets
                                    words[s.word()] + " from " + c.name,
                                    null,
                                    null,
                                    null)));
                case 1 ->
                    new SyncService.SyncDraft(
                            c.name,
                            c.pulled,
                            key(c, s),
                            List.of(new SyncService.OpDraft("delete", fact, null, null, null, null, null)));
                case 2 -> c.last;
                default -> null;
            };
            if (draft == null) {
                c.pull(sync);
                continue;
            }
            c.last = draft;
            try {
                sync.sync(CALLER, TEAM, draft);
            } catch (SyncConflict e) {
                // the client learns later, when it pulls
            }
        }
        List<Commit> log = store.commits(TEAM, 0, 10_000);
        Map<Id, FactState> replay = SyncReplay.replay(log);
        Map<Id, FactState> materialized = new HashMap<>();
        store.allFacts(TEAM).forEach(f -> materialized.put(f.factId(), f));
        assertThat(materialized).isEqualTo(replay);
        for (Client c : clients) {
            c.pull(sync);
            Map<String, Long> serverVersions = new HashMap<>();
            Map<String, String> serverContents = new HashMap<>();
            replay.values().forEach(f -> {
                serverVersions.put(f.factId().value(), f.version());
                serverContents.put(f.factId().value(), f.deleted() ? null : f.content());
            });
            assertThat(c.versions).isEqualTo(serverVersions);
            assertThat(c.contents).isEqualTo(serverContents);
            assertThat(c.pulled)
                    .isEqualTo(log.isEmpty() ? 0 : log.get(log.size() - 1).version());
        }
        for (FactState f : replay.values()) {
            assertThat(memories.get(TEAM, f.memoryId()).map(m -> m.content()).orElse(null))
                    .isEqualTo(f.deleted() ? null : f.content());
        }
    }
}
