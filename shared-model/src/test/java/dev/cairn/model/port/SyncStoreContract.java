package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.FactState;
import dev.cairn.model.sync.IdempotencyKeyReused;
import dev.cairn.model.sync.SyncConflict;
import dev.cairn.model.sync.SyncOp;
import dev.cairn.model.sync.SyncReplay;
import dev.cairn.model.sync.SyncService;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Team sync on a store (SQLite, dynalite through the AWS adapters, the in-memory fake): concurrent writers,
 * idempotency across a crash, duplicates racing, rebuild from the log, conflict policies. Facts are projected to
 * memories in the matching record store; the index they go to is not what is under test here (nothing below searches
 * it), so it is the in-memory one on every backend.
 */
public abstract class SyncStoreContract {

    protected abstract SyncStore syncStore();

    protected abstract MemoryStore memoryStore();

    private Indexer indexer;
    private static final AtomicInteger TEAMS = new AtomicInteger();

    @BeforeEach
    void index() {
        indexer = new Indexer(memoryStore(), new InMemoryVectorIndex(), new HashingEmbedder());
    }

    private SyncService service(SyncService.Policy policy) {
        return new SyncService(
                syncStore(),
                memoryStore(),
                indexer,
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT),
                Clock.systemUTC(),
                SyncService.Limits.defaults(),
                team -> policy);
    }

    private static Id team() {
        return new Id("sync-" + System.nanoTime() % 1_000_000_000L + "-" + TEAMS.incrementAndGet());
    }

    /** An upsert in the seed's shape: the op carries no version (it would be {@code base + 1}). */
    private static SyncService.SyncDraft upsert(String client, long base, String key, String fact, String content) {
        return new SyncService.SyncDraft(
                client,
                base,
                key,
                List.of(new SyncService.OpDraft("upsert", fact, null, content, "convention", null, null)));
    }

    @Test
    void eightClients_200CommitsEach_retryingOn409AfterPulling_shouldLoseNothingAndApplyNothingTwice()
            throws Exception {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        int clients = 8;
        int commits = 200;
        List<String> facts = List.of("f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9");
        Map<String, Integer> conflictsSeen = new ConcurrentHashMap<>();
        List<String> wrongConflicts = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            done.add(pool.submit(() -> {
                Random r = new Random(client);
                long pulled = 0;
                for (int i = 0; i < commits; i++) {
                    String fact = facts.get(r.nextInt(facts.size()));
                    String key = "c" + client + "-" + i;
                    while (true) {
                        try {
                            sync.sync(
                                    caller,
                                    team,
                                    upsert("c" + client, pulled, key, fact, "client " + client + " commit " + i));
                            break;
                        } catch (SyncConflict e) {
                            conflictsSeen.merge("c" + client, 1, Integer::sum);
                            for (SyncConflict.Conflict k : e.conflicts()) {
                                if (k.current() == null || k.current().version() <= k.baseVersion()) {
                                    wrongConflicts.add(key + " " + k);
                                }
                            }
                            // pull what changed (the client's base moves on), then retry
                            while (true) {
                                SyncService.Changes ch = sync.changes(caller, team, pulled, 500);
                                for (Commit commit : ch.changes()) {
                                    pulled = commit.version();
                                }
                                if (ch.nextSince() == null) {
                                    break;
                                }
                            }
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();

        List<Commit> log = new ArrayList<>();
        long after = 0;
        for (List<Commit> page; !(page = syncStore().commits(team, after, 1000)).isEmpty(); ) {
            log.addAll(page);
            after = page.get(page.size() - 1).version();
        }
        Map<String, Integer> times = new HashMap<>();
        for (Commit c : log) {
            c.ops().forEach(op -> times.merge(op.content(), 1, Integer::sum));
        }
        assertThat(log).hasSize(clients * commits);
        assertThat(times)
                .hasSize(clients * commits)
                .allSatisfy((content, n) -> assertThat(n).isEqualTo(1));
        assertThat(wrongConflicts).isEmpty();
        assertThat(conflictsSeen.values().stream().mapToInt(Integer::intValue).sum())
                .isPositive();
        Map<Id, FactState> replay = SyncReplay.replay(log);
        Map<Id, FactState> materialized = new HashMap<>();
        syncStore().allFacts(team).forEach(f -> materialized.put(f.factId(), f));
        assertThat(materialized).isEqualTo(replay);
        for (FactState f : replay.values()) {
            assertThat(memoryStore().get(team, f.memoryId()).orElseThrow().content())
                    .isEqualTo(f.content());
        }
    }

    @Test
    void aCrashBetweenTheCommitAndTheAnswer_thenARetry_shouldLeaveOneCommit_andTheKeyWithAnotherDeltaIs422() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        SyncService.SyncDraft draft = upsert("c1", 0, "k-1", "f1", "Releases are tagged vYYYY.MM.DD");
        // the service wrote the commit and died before materializing it or answering
        assertThat(syncStore()
                        .appendCommit(new Commit(
                                team,
                                1,
                                new Id("c1"),
                                sync.storedKey(team, draft),
                                new Id("writer"),
                                Instant.now(),
                                List.of(new SyncOp(
                                        SyncOp.Kind.UPSERT,
                                        new Id("f1"),
                                        1,
                                        "Releases are tagged vYYYY.MM.DD",
                                        null,
                                        null,
                                        null)))))
                .isTrue();
        SyncService.Applied retry = sync.sync(caller, team, draft);
        assertThat(retry.version()).isEqualTo(1);
        assertThat(syncStore().commits(team, 0, 10)).hasSize(1);
        assertThat(syncStore().allFacts(team))
                .singleElement()
                .satisfies(f -> assertThat(f.version()).isEqualTo(1));
        // and once more, after everything is materialized
        assertThat(sync.sync(caller, team, draft).version()).isEqualTo(1);
        // the same key with another delta: refused, saying so, nothing applied
        assertThatThrownBy(() -> sync.sync(caller, team, upsert("c1", 0, "k-1", "f1", "x")))
                .isInstanceOf(IdempotencyKeyReused.class)
                .hasMessageContaining("k-1")
                .hasMessageContaining("different delta");
        assertThat(syncStore().commits(team, 0, 10)).hasSize(1);
        // keys are the client's own: another client's k-1 is a new delta
        assertThat(sync.sync(caller, team, upsert("c2", 1, "k-1", "f2", "Hotfixes branch from the last tag"))
                        .version())
                .isEqualTo(2);
    }

    @Test
    void theSeedsExample_atVersion12_shouldApplyAs13_andSentAgainWithoutAKeyChangeNothing() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        for (int v = 1; v <= 12; v++) {
            sync.sync(caller, team, upsert("seeder", v - 1, "s" + v, v == 1 ? "f1" : "other-" + v, "fact " + v));
        }
        // the seed's request, literally: team_id, an op version = base + 1, no idempotency key, f2 never existed
        SyncService.SyncDraft seed = new SyncService.SyncDraft(
                team.value(),
                "user_1",
                12L,
                null,
                List.of(
                        new SyncService.OpDraft("upsert", "f1", 13L, "...", null, null, null),
                        new SyncService.OpDraft("delete", "f2", 13L, null, null, null, null)));
        SyncService.Applied first = sync.sync(caller, team, seed);
        assertThat(first.outcome()).isEqualTo(SyncService.Outcome.APPLIED);
        assertThat(first.version()).isEqualTo(13);
        assertThat(first.rebasedFrom()).isNull();
        assertThat(syncStore().facts(team, List.of(new Id("f1"))).get(new Id("f1")))
                .satisfies(f -> {
                    assertThat(f.version()).isEqualTo(13);
                    assertThat(f.content()).isEqualTo("...");
                });
        // the unknown fact's delete changed nothing: not in the log, no fact
        assertThat(syncStore().commits(team, 12, 10).get(0).ops())
                .extracting(op -> op.factId().value())
                .containsExactly("f1");
        assertThat(syncStore().facts(team, List.of(new Id("f2")))).isEmpty();
        SyncService.Applied again = sync.sync(caller, team, seed);
        assertThat(again.version()).isEqualTo(13);
        assertThat(syncStore().lastCommit(team)).isEqualTo(13);
    }

    @Test
    void twoCopiesOfOneRequestRacing_shouldApplyOnce_theLaterCommitIsVoid() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        SyncOp op = new SyncOp(SyncOp.Kind.UPSERT, new Id("n1"), 0, "Counter starts at one", null, null, null);
        syncStore()
                .appendCommit(new Commit(team, 1, new Id("c1"), "dup", new Id("writer"), Instant.now(), List.of(op)));
        syncStore()
                .appendCommit(new Commit(
                        team,
                        2,
                        new Id("c1"),
                        "dup",
                        new Id("writer"),
                        Instant.now(),
                        List.of(new SyncOp(
                                SyncOp.Kind.UPSERT, new Id("n1"), 1, "Counter starts at one", null, null, null))));
        SyncService.Changes feed = sync.changes(caller, team, 0L, 10);
        assertThat(feed.changes()).hasSize(2);
        assertThat(feed.changes().get(1).ops()).isEmpty(); // void: a copy of commit 1
        assertThat(syncStore().allFacts(team))
                .singleElement()
                .satisfies(f -> assertThat(f.version()).isEqualTo(1));
    }

    @Test
    void aStaleBaseWithDisjointFacts_shouldBeRebased_andADeleteShouldRemoveTheMemory() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        sync.sync(caller, team, upsert("a", 0, "a1", "db", "We use PostgreSQL 17"));
        // b never pulled (base 0) and touches another fact: rebased and applied
        assertThat(sync.sync(caller, team, upsert("b", 0, "b1", "ci", "CI runs on Buildkite"))
                        .version())
                .isEqualTo(2);
        // b changes db based on version 0 although it is at 1: a real conflict, naming the fact
        assertThatThrownBy(() -> sync.sync(caller, team, upsert("b", 0, "b2", "db", "We use MySQL")))
                .isInstanceOfSatisfying(SyncConflict.class, e -> {
                    assertThat(e.conflicts()).singleElement().satisfies(k -> {
                        assertThat(k.current().factId().value()).isEqualTo("db");
                        assertThat(k.current().version()).isEqualTo(1);
                    });
                    assertThat(e.currentVersion()).isEqualTo(2);
                });
        FactState db = syncStore().facts(team, List.of(new Id("db"))).get(new Id("db"));
        assertThat(memoryStore().get(team, db.memoryId())).isPresent();
        sync.sync(
                caller,
                team,
                new SyncService.SyncDraft(
                        "a", 2L, "a2", List.of(new SyncService.OpDraft("delete", "db", 3L, null, null, null, null))));
        assertThat(memoryStore().get(team, db.memoryId())).isEmpty();
        assertThat(syncStore()
                        .facts(team, List.of(new Id("db")))
                        .get(new Id("db"))
                        .deleted())
                .isTrue();
    }

    @Test
    void aRebuild_shouldRestoreTheMaterializedStateFromTheLog() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.REJECT);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        sync.sync(caller, team, upsert("a", 0, "r1", "region", "Production runs in eu-west-1"));
        sync.sync(caller, team, upsert("a", 1, "r2", "region", "Production runs in eu-central-1"));
        FactState good = syncStore().allFacts(team).get(0);
        // damage the derived state: a wrong fact from a made-up later commit
        syncStore()
                .putFact(new FactState(
                        team, good.factId(), 9, false, "garbage", good.type(), List.of(), 0.1, 99, good.memoryId()));
        assertThat(sync.rebuild(caller, team)).isEqualTo(1);
        assertThat(syncStore().allFacts(team)).containsExactly(good);
        assertThat(syncStore().materialized(team)).isEqualTo(2);
        assertThat(memoryStore().get(team, good.memoryId()).orElseThrow().content())
                .isEqualTo("Production runs in eu-central-1");
    }

    @Test
    void keepBoth_shouldQueueTheConflict_andResolvingItShouldCommitTheChoice() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        sync.sync(caller, team, upsert("a", 0, "k1", "style", "Tabs for indentation"));
        SyncService.Applied queued = sync.sync(caller, team, upsert("b", 0, "k2", "style", "Spaces for indentation"));
        assertThat(queued.queued()).hasSize(1);
        assertThat(queued.outcome()).isEqualTo(SyncService.Outcome.QUEUED); // nothing applied: not "applied"
        assertThat(queued.version()).isEqualTo(1);
        // the retry finds its queued conflict instead of queueing it twice
        assertThat(sync.sync(caller, team, upsert("b", 0, "k2", "style", "Spaces for indentation"))
                        .queued())
                .isEqualTo(queued.queued());
        assertThat(syncStore().conflicts(team)).hasSize(1);
        assertThat(syncStore()
                        .facts(team, List.of(new Id("style")))
                        .get(new Id("style"))
                        .content())
                .isEqualTo("Tabs for indentation");
        var resolved = sync.resolve(caller, team, queued.queued().get(0), "take_proposed", null);
        assertThat(resolved.status()).isEqualTo("resolved");
        assertThat(syncStore()
                        .facts(team, List.of(new Id("style")))
                        .get(new Id("style"))
                        .content())
                .isEqualTo("Spaces for indentation");
        // resolving twice is refused, nothing committed again
        assertThatThrownBy(() -> sync.resolve(caller, team, queued.queued().get(0), "keep_current", null))
                .hasMessageContaining("not open");
        assertThat(syncStore().lastCommit(team)).isEqualTo(2);
    }

    @Test
    void lastWriterWins_shouldApply_andKeepTheOverwrittenValueAsAConflictRecord() {
        Id team = team();
        SyncService sync = service(SyncService.Policy.LAST_WRITER_WINS);
        Caller caller = new Caller(new Id("writer"), Set.of(team));
        sync.sync(caller, team, upsert("a", 0, "l1", "owner", "Dana owns billing"));
        sync.sync(caller, team, upsert("b", 0, "l2", "owner", "Wei owns billing"));
        assertThat(syncStore()
                        .facts(team, List.of(new Id("owner")))
                        .get(new Id("owner"))
                        .content())
                .isEqualTo("Wei owns billing");
        assertThat(syncStore().conflicts(team)).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo("overwritten");
            assertThat(c.currentContent()).isEqualTo("Dana owns billing");
        });
    }
}
