package dev.cairn.model.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySyncStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Two "laptops" (each its own record store, index and replica state) syncing through one team server's
 * {@link SyncService}, called in process: the merge rules, batches, conflicts, deletes and a crash between the remote
 * commit and the saved state. The HTTP path is the same use case behind the client library.
 */
class TeamReplicaTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller USER = new Caller(new Id("dev"), Set.of(TEAM));
    private static final SecretGate REDACT = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);

    private final InMemorySyncStore serverStore = new InMemorySyncStore();
    private final InMemoryMemoryStore serverMemories = new InMemoryMemoryStore();
    private final SyncService server = new SyncService(
            serverStore,
            serverMemories,
            new Indexer(serverMemories, new InMemoryVectorIndex(), new HashingEmbedder()),
            REDACT,
            Clock.systemUTC(),
            SyncService.Limits.defaults(),
            t -> SyncService.Policy.REJECT);

    /** The remote as the HTTP adapter presents it; {@code crashAfterPush} loses the answer after the commit. */
    private final class InProcessRemote implements TeamReplica.Remote {
        final AtomicBoolean crashAfterPush = new AtomicBoolean();
        Runnable beforeNextPush;

        @Override
        public SyncService.Applied push(Id team, SyncService.SyncDraft delta) {
            Runnable race = beforeNextPush;
            beforeNextPush = null;
            if (race != null) {
                race.run();
            }
            SyncService.Applied a = server.sync(USER, team, delta);
            if (crashAfterPush.getAndSet(false)) {
                throw new IllegalStateException("connection reset after the commit");
            }
            return a;
        }

        @Override
        public SyncService.Changes pull(Id team, long since, int limit) {
            return server.changes(USER, team, since, limit);
        }
    }

    private static final class MemoryStates implements TeamReplica.StateStore {
        final Map<Id, TeamReplica.State> saved = new HashMap<>();

        @Override
        public TeamReplica.State load(Id team) {
            return saved.getOrDefault(team, TeamReplica.State.empty(team));
        }

        @Override
        public void save(TeamReplica.State state) {
            saved.put(state.team(), state);
        }
    }

    private final class Laptop {
        final InMemoryMemoryStore store = new InMemoryMemoryStore();
        final InMemoryVectorIndex index = new InMemoryVectorIndex();
        final Indexer indexer = new Indexer(store, index, new HashingEmbedder());
        final MemoryService memories =
                new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, REDACT);
        final InProcessRemote remote = new InProcessRemote();
        final MemoryStates states = new MemoryStates();
        final TeamReplica replica;

        Laptop(String client, int batch) {
            replica = new TeamReplica(
                    remote,
                    states,
                    store,
                    indexer,
                    REDACT,
                    Clock.systemUTC(),
                    new TeamReplica.Settings(new Id(client), batch, 100, 5));
        }

        Id write(String content) {
            return memories.create(
                            USER,
                            TEAM,
                            new MemoryDraft(content, "convention", "team", null, null, null, null, null, null))
                    .memory()
                    .id();
        }

        void edit(Id id, String content) {
            Memory m = store.get(TEAM, id).orElseThrow();
            memories.patch(
                    USER, TEAM, id, m.version(), new PatchDraft(content, null, null, null, null, null, null, null));
        }

        /** fact id → content of every live team memory this laptop holds. */
        Map<String, String> team() {
            Map<String, String> out = new TreeMap<>();
            for (Memory m : store.scan(TEAM, null, 10_000)) {
                if (m.scope() == Scope.TEAM) {
                    out.put(m.id().value(), m.content());
                }
            }
            return out;
        }
    }

    private Map<String, String> serverFacts() {
        List<Commit> log = serverStore.commits(TEAM, 0, 100_000);
        Map<String, String> out = new TreeMap<>();
        SyncReplay.replay(log).values().stream()
                .filter(f -> !f.deleted())
                .forEach(f -> out.put(f.factId().value(), f.content()));
        return out;
    }

    @Test
    void aTeamMemoryWrittenOnOneLaptop_shouldCrossToTheOther_andAnEditAndADeleteFollow() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = a.write("Pull requests are squash-merged after one approval");
        a.memories.create(
                USER, TEAM, new MemoryDraft("I like dark mode", null, "user", null, null, null, null, null, null));
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isEqualTo(1); // the user memory stays private
        assertThat(b.replica.syncOnce(TEAM).merged()).isEqualTo(1);
        assertThat(b.store.get(TEAM, fact).orElseThrow().content())
                .isEqualTo("Pull requests are squash-merged after one approval");
        assertThat(b.store.pendingIndex(10)).isEmpty(); // indexed as it was merged: recallable at once

        b.edit(fact, "Pull requests are rebased and merged after two approvals");
        b.replica.syncOnce(TEAM);
        a.replica.syncOnce(TEAM);
        assertThat(a.store.get(TEAM, fact).orElseThrow().content())
                .isEqualTo("Pull requests are rebased and merged after two approvals");

        a.memories.delete(USER, TEAM, fact, null);
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        assertThat(b.store.get(TEAM, fact)).isEmpty();
        assertThat(serverFacts()).isEmpty();
        // nothing changed since: a pass uploads nothing
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
        assertThat(b.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void aPulledFact_shouldBeDatedByItsCommit_notByThePull() throws InterruptedException {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = a.write("Deploys freeze on Fridays after 15:00");
        a.replica.syncOnce(TEAM);
        java.time.Instant committed = serverStore.commits(TEAM, 0, 10).get(0).committedAt();
        b.replica.syncOnce(TEAM);

        assertThat(b.store.get(TEAM, fact).orElseThrow().occurredAt()).isEqualTo(committed);
    }

    @Test
    void concurrentEditsOfTheSameFacts_andDeletes_shouldConvergeOnBothLaptopsToTheTeamsLog() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        List<Id> facts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            facts.add(a.write("Shared convention number " + i));
        }
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        Random r = new Random(7);
        for (int round = 0; round < 40; round++) {
            for (Laptop l : List.of(a, b)) {
                Id f = facts.get(r.nextInt(facts.size()));
                int what = r.nextInt(10);
                if (what == 0 && l.store.get(TEAM, f).isPresent()) {
                    l.memories.delete(USER, TEAM, f, null);
                } else if (what == 1) {
                    facts.add(l.write("New convention " + round + " from " + l.replica.hashCode() % 7));
                } else if (l.store.get(TEAM, f).isPresent()) {
                    l.edit(f, "Convention " + f + " as edited in round " + round + " on " + (l == a ? "a" : "b"));
                }
            }
            (r.nextBoolean() ? a : b).replica.syncOnce(TEAM); // one side syncs while the other keeps writing
        }
        for (int pass = 0; pass < 2; pass++) {
            a.replica.syncOnce(TEAM);
            b.replica.syncOnce(TEAM);
        }
        assertThat(serverFacts()).isNotEmpty();
        assertThat(a.team()).isEqualTo(serverFacts());
        assertThat(b.team()).isEqualTo(serverFacts());
    }

    @Test
    void aLaptopWhoseDeltaLosesARace_shouldGet409_pullMergeAndRetry_thenItsEditIsTheLatest() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = a.write("Deploys happen on Tuesdays");
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        a.edit(fact, "Deploys happen on Wednesdays");
        b.edit(fact, "Deploys happen on Thursdays");
        b.remote.beforeNextPush = () -> a.replica.syncOnce(TEAM); // a commits between b's pull and b's push
        TeamReplica.Report r = b.replica.syncOnce(TEAM);
        assertThat(r.conflicts()).isEqualTo(1);
        assertThat(r.uploaded()).isEqualTo(1);
        assertThat(serverStore.lastCommit(TEAM)).isEqualTo(3);
        a.replica.syncOnce(TEAM);
        assertThat(a.team()).isEqualTo(b.team()).isEqualTo(serverFacts());
        assertThat(serverFacts()).containsValue("Deploys happen on Thursdays");
    }

    @Test
    void aCrashAfterTheRemoteCommitBeforeTheStateIsSaved_shouldNotApplyTheDeltaTwice() {
        Laptop a = new Laptop("laptop-a", 50);
        for (int i = 0; i < 120; i++) {
            a.write("Runbook step " + i);
        }
        a.remote.crashAfterPush.set(true);
        assertThatThrownBy(() -> a.replica.syncOnce(TEAM)).hasMessageContaining("connection reset");
        assertThat(serverStore.lastCommit(TEAM)).isEqualTo(1); // the first batch of 50 got in
        TeamReplica.Report again = a.replica.syncOnce(TEAM);
        // the pull brings the lost commit back: its 50 facts are known, the other 70 go in two batches
        assertThat(again.uploaded()).isEqualTo(70);
        assertThat(serverStore.lastCommit(TEAM)).isEqualTo(3);
        assertThat(serverFacts()).hasSize(120);
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void aBatchSizeOutsideTheSeedsRange_shouldBeRefused() {
        assertThatThrownBy(() -> new TeamReplica.Settings(new Id("c"), 10, 100, 5))
                .hasMessageContaining("50 to 500");
    }

    @Test
    void aSecretFromTheRemote_shouldPassThisServersGateBeforeItIsStored() {
        Laptop b = new Laptop("laptop-b", 50);
        // another client wrote straight to the team under a policy that let the token through unredacted
        serverStore.appendCommit(new Commit(
                TEAM,
                1,
                new Id("elsewhere"),
                "raw",
                new Id("dev"),
                java.time.Instant.now(),
                List.of(new SyncOp(
                        SyncOp.Kind.UPSERT,
                        new Id("deploy"),
                        1,
                        "Deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI",
                        null,
                        null,
                        null))));
        b.replica.syncOnce(TEAM);
        assertThat(b.store.get(TEAM, new Id("deploy")).orElseThrow().content())
                .contains("[REDACTED:")
                .doesNotContain("ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI");
        // and the redacted copy is not uploaded back as a change
        assertThat(b.replica.syncOnce(TEAM).uploaded()).isZero();
    }
}
