package dev.cairn.model.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.decay.Restore;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryColdStore;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two "laptops" (each its own record store, index and replica state) syncing through one team server's
 * {@link SyncService}, called in process: the merge rules, batches, conflicts, deletes and a crash between the remote
 * commit and the saved state. The HTTP path is the same use case behind the client library.
 */
class TeamReplicaTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller USER = new Caller(new Id("dev"), Set.of(TEAM));
    private static final SecretGate REDACT = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);

    /** The team server's conflict policy; the default, reject, unless a test says otherwise. */
    private SyncService.Policy policy = SyncService.Policy.REJECT;

    private final InMemorySyncStore serverStore = new InMemorySyncStore();
    private final InMemoryMemoryStore serverMemories = new InMemoryMemoryStore();
    private final SyncService server = new SyncService(
            serverStore,
            serverMemories,
            new Indexer(serverMemories, new InMemoryVectorIndex(), new HashingEmbedder()),
            REDACT,
            Clock.systemUTC(),
            SyncService.Limits.defaults(),
            t -> policy);

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

        @Override
        public Set<Id> openConflicts(Id team, Id clientId) {
            Set<Id> open = new java.util.HashSet<>();
            for (ConflictRecord c : server.conflicts(USER, team)) {
                if (c.status().equals("open") && c.clientId().equals(clientId)) {
                    open.add(c.factId());
                }
            }
            return open;
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
        final InMemoryColdStore cold = new InMemoryColdStore(Clock.systemUTC());
        final Indexer indexer = new Indexer(store, index, new HashingEmbedder(), cold);
        final MemoryService memories =
                new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, REDACT);
        final InProcessRemote remote = new InProcessRemote();
        final MemoryStates states = new MemoryStates();
        final TeamReplica replica;

        Laptop(String client, int batch) {
            this(client, batch, REDACT);
        }

        /** {@code gate}: the secret gate remote content passes on this laptop. */
        Laptop(String client, int batch, SecretGate gate) {
            replica = new TeamReplica(
                    remote,
                    states,
                    store,
                    indexer,
                    gate,
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

    /** A team fact written on {@code a} and synced to {@code b}. */
    private static Id shared(Laptop a, Laptop b, String content) {
        Id id = a.write(content);
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        return id;
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

    @ParameterizedTest
    @EnumSource(SyncService.Policy.class)
    void concurrentEditsOfTheSameFacts_andDeletes_shouldConvergeOnBothLaptopsToTheTeamsLog(SyncService.Policy p) {
        policy = p;
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
        // keep_both leaves the overtaken edits to a person: take every second proposal, keep the team's value else;
        // an edit made while its fact waited is queued after the resolution, so a person may need a few rounds
        int i = 0;
        for (int round = 0; round < 5; round++) {
            a.replica.syncOnce(TEAM);
            b.replica.syncOnce(TEAM);
            for (ConflictRecord c : server.conflicts(USER, TEAM)) {
                if (c.status().equals("open")) {
                    try {
                        server.resolve(USER, TEAM, c.id(), i++ % 2 == 0 ? "take_proposed" : "keep_current", null);
                    } catch (ConflictNotOpen e) {
                        server.resolve(
                                USER, TEAM, c.id(), "keep_current", null); // the fact changed since it was queued
                    }
                }
            }
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
    void aLaptopWhoseDeltaLosesARace_underReject_shouldGet409_andTheFirstCommitStandsOnBothLaptops() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Deploys happen on Tuesdays");
        a.edit(fact, "Deploys happen on Wednesdays");
        b.edit(fact, "Deploys happen on Thursdays");
        b.remote.beforeNextPush = () -> a.replica.syncOnce(TEAM); // a commits between b's pull and b's push
        TeamReplica.Report r = b.replica.syncOnce(TEAM);
        // 409 for the delta on the pulled version, then again for the edit sent with the base it was made on
        assertThat(r.conflicts()).isEqualTo(2);
        assertThat(r.refused()).isEqualTo(1);
        assertThat(serverStore.lastCommit(TEAM)).isEqualTo(2);
        a.replica.syncOnce(TEAM);
        assertThat(a.team()).isEqualTo(b.team()).isEqualTo(serverFacts());
        assertThat(serverFacts()).containsValue("Deploys happen on Wednesdays");
        assertThat(b.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void anEditMadeBeforeAnotherMembersDeleteWasPulled_underReject_shouldNotBringTheFactBack() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Deploys freeze on Fridays");
        b.memories.delete(USER, TEAM, fact, null);
        b.replica.syncOnce(TEAM);
        a.edit(fact, "Deploys freeze on Fridays after 15:00"); // offline: a has not pulled the delete

        TeamReplica.Report r = a.replica.syncOnce(TEAM);

        assertThat(r.refused()).isEqualTo(1);
        assertThat(serverFacts()).isEmpty();
        assertThat(a.team()).isEmpty();
        b.replica.syncOnce(TEAM);
        assertThat(b.team()).isEmpty();
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void aLocalDeleteOfAFactTheTeamEditedMeanwhile_underReject_shouldBeRefused_andTheTeamsValueReturns() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "The staging database is reset every Monday");
        b.edit(fact, "The staging database is reset every Sunday night");
        b.replica.syncOnce(TEAM);
        a.memories.delete(USER, TEAM, fact, null);

        assertThat(a.replica.syncOnce(TEAM).refused()).isEqualTo(1);

        assertThat(a.team()).containsEntry(fact.value(), "The staging database is reset every Sunday night");
        assertThat(a.team()).isEqualTo(serverFacts());
    }

    @Test
    void anOvertakenEdit_underLastWriterWins_shouldBeApplied_andTheOverwrittenValueRecorded() {
        policy = SyncService.Policy.LAST_WRITER_WINS;
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Releases are cut on the first of the month");
        b.memories.delete(USER, TEAM, fact, null);
        b.replica.syncOnce(TEAM);
        a.edit(fact, "Releases are cut on the first Monday of the month");

        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);

        assertThat(serverFacts()).containsEntry(fact.value(), "Releases are cut on the first Monday of the month");
        assertThat(b.team()).isEqualTo(a.team()).isEqualTo(serverFacts());
        assertThat(server.conflicts(USER, TEAM)).singleElement().satisfies(c -> {
            assertThat(c.factId()).isEqualTo(fact);
            assertThat(c.status()).isEqualTo("overwritten");
            assertThat(c.clientId()).isEqualTo(new Id("laptop-a"));
        });
    }

    @Test
    void anOvertakenEdit_underKeepBoth_shouldBeQueued_parkedUntilResolved_thenTheResolutionReachesBothLaptops() {
        policy = SyncService.Policy.KEEP_BOTH;
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id keep = a.write("On-call hands over on Mondays at 10:00");
        Id take = a.write("Incidents are reviewed within two days");
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        b.edit(keep, "On-call hands over on Mondays at 09:00");
        b.edit(take, "Incidents are reviewed within three days");
        b.replica.syncOnce(TEAM);
        a.edit(keep, "On-call hands over on Tuesdays at 10:00");
        a.edit(take, "Incidents are reviewed within one day");

        TeamReplica.Report first = a.replica.syncOnce(TEAM);

        assertThat(first.conflicts()).isEqualTo(2);
        assertThat(first.parked()).isEqualTo(2);
        assertThat(server.conflicts(USER, TEAM))
                .hasSize(2)
                .allMatch(c -> c.status().equals("open"));
        // parked: the local value stays here and is not sent again while a person decides
        assertThat(a.team()).containsEntry(keep.value(), "On-call hands over on Tuesdays at 10:00");
        TeamReplica.Report waiting = a.replica.syncOnce(TEAM);
        assertThat(waiting.uploaded()).isZero();
        assertThat(waiting.parked()).isEqualTo(2);
        assertThat(server.conflicts(USER, TEAM)).hasSize(2);

        for (ConflictRecord c : server.conflicts(USER, TEAM)) {
            server.resolve(USER, TEAM, c.id(), c.factId().equals(keep) ? "keep_current" : "take_proposed", null);
        }
        assertThat(a.replica.syncOnce(TEAM).parked()).isZero();
        b.replica.syncOnce(TEAM);

        assertThat(serverFacts())
                .containsEntry(keep.value(), "On-call hands over on Mondays at 09:00")
                .containsEntry(take.value(), "Incidents are reviewed within one day");
        assertThat(a.team()).isEqualTo(b.team()).isEqualTo(serverFacts());
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void aParkedFactEditedAgainLocally_underKeepBoth_shouldWaitForItsConflict_thenBeWeighedAgainstTheResolution() {
        policy = SyncService.Policy.KEEP_BOTH;
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Logs are kept for 30 days");
        b.edit(fact, "Logs are kept for 14 days");
        b.replica.syncOnce(TEAM);
        a.edit(fact, "Logs are kept for 60 days");
        a.replica.syncOnce(TEAM);
        a.edit(fact, "Logs are kept for 90 days"); // while its conflict is open

        // not sent while the first conflict is open: two open conflicts on one fact would let the older one's
        // resolution overwrite the newer edit here (a trial saw it)
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
        assertThat(server.conflicts(USER, TEAM)).hasSize(1);

        ConflictRecord first = server.conflicts(USER, TEAM).get(0);
        server.resolve(USER, TEAM, first.id(), "take_proposed", null);
        TeamReplica.Report r = a.replica.syncOnce(TEAM);

        // the newer edit is kept here and queued against the resolution, for a person to weigh
        assertThat(r.parked()).isEqualTo(1);
        assertThat(a.team()).containsEntry(fact.value(), "Logs are kept for 90 days");
        assertThat(serverFacts()).containsEntry(fact.value(), "Logs are kept for 60 days");
        assertThat(server.conflicts(USER, TEAM))
                .filteredOn(c -> c.status().equals("open"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.proposed().content()).isEqualTo("Logs are kept for 90 days");
                    assertThat(c.currentContent()).isEqualTo("Logs are kept for 60 days");
                });
    }

    @Test
    void anEditMadeAfterItsOwnUploadBeforeThatCommitWasPulled_shouldNotConflictWithItself() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Feature flags live in LaunchDarkly");
        a.edit(fact, "Feature flags live in Unleash");
        // b commits an unrelated fact first, so a's commit lands above its pulled version and is not counted pulled
        a.remote.beforeNextPush = () -> {
            b.write("Dashboards live in Grafana");
            b.replica.syncOnce(TEAM);
        };
        a.replica.syncOnce(TEAM);
        a.edit(fact, "Feature flags live in Unleash, self-hosted");

        TeamReplica.Report r = a.replica.syncOnce(TEAM);

        assertThat(r.refused()).isZero();
        assertThat(r.conflicts()).isZero();
        assertThat(serverFacts()).containsEntry(fact.value(), "Feature flags live in Unleash, self-hosted");
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

    /** Archives {@code id} on {@code l} as the decay job does: the full copy to the cold tier, a stub in its place. */
    private static void archive(Laptop l, Id id) {
        Memory m = l.store.get(TEAM, id).orElseThrow();
        l.cold.put(m);
        l.store.replace(m.archivedStub());
    }

    /** Restores an archived memory on {@code l} through the use case ({@code POST …:restore}). */
    private static void restore(Laptop l, Id id) {
        new Restore(l.store, l.cold, l.indexer, Clock.systemUTC()).restore(USER, TEAM, id);
    }

    @Test
    void aFactTheTeamDeletedWhileArchivedHere_shouldNotComeBackWhenRestored() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "The VPN config lives in the ops wiki");
        archive(a, fact);
        b.memories.delete(USER, TEAM, fact, null);
        b.replica.syncOnce(TEAM);
        a.replica.syncOnce(TEAM); // pulls the delete while the fact is archived here

        // gone here too, its cold copy with it: nothing to restore, nothing to upload again
        assertThatThrownBy(() -> restore(a, fact)).isInstanceOf(NotFound.class);
        assertThat(a.cold.get(TEAM, fact)).isEmpty();
        a.replica.syncOnce(TEAM);

        assertThat(serverFacts()).doesNotContainKey(fact.value());
        assertThat(server.conflicts(USER, TEAM)).isEmpty();
    }

    @Test
    void aFactTheTeamEditedWhileArchivedHere_shouldNotBeRevertedWhenRestored() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Backups run nightly at 02:00");
        archive(a, fact);
        b.edit(fact, "Backups run nightly at 03:00");
        b.replica.syncOnce(TEAM);
        a.replica.syncOnce(TEAM);
        restore(a, fact);

        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);

        assertThat(serverFacts()).containsEntry(fact.value(), "Backups run nightly at 03:00");
        assertThat(a.team()).isEqualTo(b.team()).isEqualTo(serverFacts());
    }

    @Test
    void aTeamEditOfAFactArchivedHere_shouldLeaveNoStaleColdCopy_andKeepTheFactArchivedWithTheTeamsValue() {
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "The staging database password rotates monthly");
        archive(a, fact);
        b.edit(fact, "The staging database password rotates weekly");
        b.replica.syncOnce(TEAM);

        a.replica.syncOnce(TEAM);

        // the text the team replaced is kept nowhere: not in the cold tier, not in the record
        assertThat(a.cold.get(TEAM, fact)).isEmpty();
        Memory here = a.store.get(TEAM, fact).orElseThrow();
        assertThat(here.state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(here.content()).isEqualTo("The staging database password rotates weekly");
        // restored from the record itself, with the team's value, and nothing to upload
        restore(a, fact);
        assertThat(a.store.get(TEAM, fact).orElseThrow().content())
                .isEqualTo("The staging database password rotates weekly");
        assertThat(a.replica.syncOnce(TEAM).uploaded()).isZero();
    }

    @Test
    void anOfflineEdit_ofAFactWhoseTeamChangeThisLaptopsGateRejected_shouldStillBeWeighedByTheTeamsPolicy() {
        Laptop a = new Laptop("laptop-a", 50, SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REJECT));
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Deploy with the token in the vault");
        // another client changed the fact to a value this laptop's gate refuses to store
        String secret = "Deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";
        serverStore.appendCommit(new Commit(
                TEAM,
                serverStore.lastCommit(TEAM) + 1,
                new Id("elsewhere"),
                "raw-1",
                new Id("dev"),
                java.time.Instant.now(),
                List.of(new SyncOp(SyncOp.Kind.UPSERT, fact, 0, secret, null, null, null))));
        a.edit(fact, "Deploy with the token in the vault, path ops/deploy"); // offline

        TeamReplica.Report r = a.replica.syncOnce(TEAM);

        // reject: the change committed first stands; the local edit is refused (and logged), not silently on top
        assertThat(r.refused()).isEqualTo(1);
        assertThat(serverFacts()).containsEntry(fact.value(), secret);
    }

    @Test
    void aQueuedEditWhoseAnswerWasLost_andItsConflictResolvedMeanwhile_shouldTakeTheResolution() {
        policy = SyncService.Policy.KEEP_BOTH;
        Laptop a = new Laptop("laptop-a", 50);
        Laptop b = new Laptop("laptop-b", 50);
        Id fact = shared(a, b, "Code freeze starts on the 20th");
        b.edit(fact, "Code freeze starts on the 18th");
        b.replica.syncOnce(TEAM);
        a.edit(fact, "Code freeze starts on the 22nd");
        a.remote.crashAfterPush.set(true); // queued on the team; the answer is lost
        assertThatThrownBy(() -> a.replica.syncOnce(TEAM)).hasMessageContaining("connection reset");
        ConflictRecord c = server.conflicts(USER, TEAM).get(0);
        server.resolve(USER, TEAM, c.id(), "keep_current", null);

        a.replica.syncOnce(TEAM);
        a.replica.syncOnce(TEAM);

        assertThat(serverFacts()).containsEntry(fact.value(), "Code freeze starts on the 18th");
        assertThat(a.team()).isEqualTo(serverFacts());
    }

    @Test
    void twoLaptopsSharingAClientId_sendingTheSameQueuedEdit_afterItWasResolved_shouldBothTakeTheResolution() {
        policy = SyncService.Policy.KEEP_BOTH;
        Laptop a = new Laptop("laptop", 50);
        Laptop b = new Laptop("laptop", 50); // the same client id (the README says not to; it happens)
        Laptop c = new Laptop("laptop-c", 50);
        Id fact = a.write("Standup is at 09:30");
        a.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);
        c.replica.syncOnce(TEAM);
        c.edit(fact, "Standup is at 09:15");
        c.replica.syncOnce(TEAM);
        a.edit(fact, "Standup is at 10:00");
        b.edit(fact, "Standup is at 10:00"); // the same edit, offline on both
        a.replica.syncOnce(TEAM);
        for (ConflictRecord r : server.conflicts(USER, TEAM)) {
            server.resolve(USER, TEAM, r.id(), "merge", "Standup is at 09:45");
        }
        a.replica.syncOnce(TEAM);

        b.replica.syncOnce(TEAM);
        b.replica.syncOnce(TEAM);

        assertThat(serverFacts()).containsEntry(fact.value(), "Standup is at 09:45");
        assertThat(a.team()).isEqualTo(serverFacts());
        assertThat(b.team()).isEqualTo(serverFacts());
    }
}
