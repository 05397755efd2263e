package dev.cairn.model.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySyncStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The seed's wire protocol (seeds/003 step 4) as SyncService reads it: versions, rebase, policies, bad input. */
class SyncProtocolTest {

    private static final Id TEAM = new Id("team_abc");
    private static final Caller CALLER = new Caller(new Id("u"), Set.of(TEAM));

    private final InMemorySyncStore store = new InMemorySyncStore();
    private final InMemoryMemoryStore memories = new InMemoryMemoryStore();
    private final Indexer indexer = new Indexer(memories, new InMemoryVectorIndex(), new HashingEmbedder());
    private final SecretGate secrets = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);

    private SyncService service(SyncService.Policy policy) {
        return new SyncService(
                store, memories, indexer, secrets, Clock.systemUTC(), SyncService.Limits.defaults(), t -> policy);
    }

    private static SyncService.OpDraft upsert(String fact, Long version, String content) {
        return new SyncService.OpDraft("upsert", fact, version, content, null, null, null);
    }

    private static SyncService.SyncDraft delta(String client, long base, SyncService.OpDraft... ops) {
        return new SyncService.SyncDraft(null, client, base, null, Arrays.asList(ops));
    }

    private static List<String> fields(Throwable e) {
        return ((InvalidInput) e).errors().stream().map(f -> f.field()).toList();
    }

    @Test
    void anOpVersionOtherThanBasePlusOne_shouldBe400SayingWhatItMustBe_andCommitNothing() {
        SyncService sync = service(SyncService.Policy.REJECT);
        assertThatThrownBy(() -> sync.sync(CALLER, TEAM, delta("c", 0, upsert("f1", 0L, "Tabs"))))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("delta[0].version"))
                .hasMessageContaining("must be base_version + 1 = 1");
        assertThat(store.lastCommit(TEAM)).isZero();
    }

    @Test
    void aRedactedUpsert_shouldSaySoInTheAnswer_perOp() {
        SyncService sync = service(SyncService.Policy.REJECT);
        SyncService.Applied a = sync.sync(
                CALLER,
                TEAM,
                delta(
                        "c",
                        0,
                        upsert("f1", null, "Tabs"),
                        upsert("f2", null, "Deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI")));

        assertThat(a.redactions()).singleElement().satisfies(r -> {
            assertThat(r.op()).isEqualTo(1);
            assertThat(r.factId()).isEqualTo(new Id("f2"));
            assertThat(r.findings()).extracting(f -> f.ruleId()).containsExactly("github-pat");
        });
        assertThat(store.facts(TEAM, List.of(new Id("f2"))).get(new Id("f2")).content())
                .doesNotContain("ghp_R8kLm2");
    }

    @Test
    void aNegativeBaseVersion_shouldBe400SayingItIsNegative_notThatItIsMissing() {
        SyncService sync = service(SyncService.Policy.REJECT);
        assertThatThrownBy(() -> sync.sync(CALLER, TEAM, delta("c", -1, upsert("f1", null, "Tabs"))))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("base_version"))
                .hasMessageContaining("is -1")
                .hasMessageNotContaining("required");
        assertThat(store.lastCommit(TEAM)).isZero();
    }

    @Test
    void aTeamIdOtherThanThePaths_shouldBe400_andTheSameTeamIdIsAccepted() {
        SyncService sync = service(SyncService.Policy.REJECT);
        SyncService.SyncDraft other =
                new SyncService.SyncDraft("team_xyz", "c", 0L, null, List.of(upsert("f1", null, "Tabs")));
        assertThatThrownBy(() -> sync.sync(CALLER, TEAM, other))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("team_id"));
        SyncService.SyncDraft same =
                new SyncService.SyncDraft("team_abc", "c", 0L, null, List.of(upsert("f1", 1L, "Tabs")));
        assertThat(sync.sync(CALLER, TEAM, same).version()).isEqualTo(1);
    }

    @Test
    void aBaseAheadOfTheHead_shouldBe400() {
        SyncService sync = service(SyncService.Policy.REJECT);
        assertThatThrownBy(() -> sync.sync(CALLER, TEAM, delta("c", 5, upsert("f1", null, "Tabs"))))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("base_version"))
                .hasMessageContaining("at version 0");
    }

    @Test
    void changesSinceAVersionAheadOfTheHead_shouldBe400_notAnEmptyPage() {
        SyncService sync = service(SyncService.Policy.REJECT);
        sync.sync(CALLER, TEAM, delta("c", 0, upsert("f1", null, "Tabs")));
        assertThat(sync.changes(CALLER, TEAM, 1L, null).changes()).isEmpty(); // at the head: nothing new, fine
        assertThatThrownBy(() -> sync.changes(CALLER, TEAM, 57L, null))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("since"))
                .hasMessageContaining("at version 1");
    }

    @Test
    void anOlderBaseWhoseFactsDidNotChange_shouldBeAppliedOnTheHead_andSaySo() {
        SyncService sync = service(SyncService.Policy.REJECT);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", 1L, "Tabs")));
        sync.sync(CALLER, TEAM, delta("a", 1, upsert("f2", 2L, "CI on Buildkite")));
        SyncService.Applied b = sync.sync(CALLER, TEAM, delta("b", 1, upsert("f1", 2L, "Spaces")));
        assertThat(b.version()).isEqualTo(3);
        assertThat(b.rebasedFrom()).isEqualTo(1);
        assertThat(store.facts(TEAM, List.of(new Id("f1"))).get(new Id("f1")).version())
                .isEqualTo(3);
        // the change feed carries the version the fact got, not the one the client proposed
        assertThat(store.commits(TEAM, 2, 1).get(0).ops().get(0).version()).isEqualTo(3);
    }

    @Test
    void underReject_aFactChangedAfterTheBase_shouldBe409WithBothValues_andNothingApplied() {
        SyncService sync = service(SyncService.Policy.REJECT);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        assertThatThrownBy(() -> sync.sync(
                        CALLER, TEAM, delta("b", 0, upsert("f1", 1L, "Spaces"), upsert("f9", 1L, "Unrelated"))))
                .isInstanceOfSatisfying(SyncConflict.class, e -> {
                    assertThat(e.currentVersion()).isEqualTo(1);
                    assertThat(e.conflicts()).singleElement().satisfies(k -> {
                        assertThat(k.current().content()).isEqualTo("Tabs");
                        assertThat(k.proposed().content()).isEqualTo("Spaces");
                        assertThat(k.baseVersion()).isZero();
                    });
                });
        assertThat(store.lastCommit(TEAM)).isEqualTo(1);
    }

    @Test
    void keepBoth_withSomeOpsInConflict_shouldApplyTheOthers_andQueueTheConflicting() {
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        SyncService.Applied b =
                sync.sync(CALLER, TEAM, delta("b", 0, upsert("f1", null, "Spaces"), upsert("f2", null, "Buildkite")));
        assertThat(b.outcome()).isEqualTo(SyncService.Outcome.APPLIED);
        assertThat(b.version()).isEqualTo(2);
        assertThat(b.queued()).hasSize(1);
        assertThat(store.conflict(TEAM, b.queued().get(0)).orElseThrow().status())
                .isEqualTo("open");
    }

    /** Client a writes f1 at version 1; client b's upsert of f1 from base 0 is queued: its conflict's id. */
    private static Id queuedConflictOnF1(SyncService sync) {
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        return sync.sync(CALLER, TEAM, delta("b", 0, upsert("f1", null, "Spaces")))
                .queued()
                .get(0);
    }

    @Test
    void resolvingAConflictWhoseFactChangedSince_shouldBe409_andCommitNothing() {
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        Id queued = queuedConflictOnF1(sync);
        sync.sync(CALLER, TEAM, delta("a", 1, upsert("f1", null, "Tabs, width 4")));

        assertThatThrownBy(() -> sync.resolve(CALLER, TEAM, queued, "take_proposed", null))
                .isInstanceOf(ConflictNotOpen.class)
                .hasMessageContaining("changed after conflict")
                .hasMessageContaining("it was at version 1, it is at 2");
        assertThat(store.lastCommit(TEAM)).isEqualTo(2);
        assertThat(store.facts(TEAM, List.of(new Id("f1"))).get(new Id("f1")).content())
                .isEqualTo("Tabs, width 4");
        // keeping the current value is still possible, and closes it
        assertThat(sync.resolve(CALLER, TEAM, queued, "keep_current", null).status())
                .isEqualTo("resolved");
    }

    @Test
    void resolvingAResolvedConflict_shouldBe409_andContentOutsideMerge_shouldBe400() {
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        Id queued = queuedConflictOnF1(sync);

        assertThatThrownBy(() -> sync.resolve(CALLER, TEAM, queued, "keep_current", "zzz"))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("content"));
        sync.resolve(CALLER, TEAM, queued, "take_proposed", null);
        assertThatThrownBy(() -> sync.resolve(CALLER, TEAM, queued, "take_proposed", null))
                .isInstanceOf(ConflictNotOpen.class)
                .hasMessageContaining("is resolved (take_proposed), not open");
        assertThat(store.lastCommit(TEAM)).isEqualTo(2);
    }

    @Test
    void conflicts_shouldFilterByStatusAndProposingClient_andRefuseAnUnknownStatus() {
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        Id open = queuedConflictOnF1(sync); // proposed by b
        Id other = sync.sync(CALLER, TEAM, delta("c", 0, upsert("f1", null, "Both")))
                .queued()
                .get(0);
        sync.resolve(CALLER, TEAM, other, "keep_current", null);

        assertThat(sync.conflicts(CALLER, TEAM, "open", null))
                .extracting(ConflictRecord::id)
                .containsExactly(open);
        assertThat(sync.conflicts(CALLER, TEAM, null, "c"))
                .extracting(ConflictRecord::id)
                .containsExactly(other);
        assertThat(sync.conflicts(CALLER, TEAM, "open", "c")).isEmpty();
        assertThat(sync.conflicts(CALLER, TEAM, null, null)).hasSize(2);
        assertThatThrownBy(() -> sync.conflicts(CALLER, TEAM, "pending", "not an id"))
                .isInstanceOfSatisfying(
                        InvalidInput.class, e -> assertThat(fields(e)).containsExactly("status", "client_id"));
    }

    @Test
    void keepBoth_withEveryOpInConflict_shouldAnswerQueued_notApplied() {
        SyncService sync = service(SyncService.Policy.KEEP_BOTH);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        SyncService.Applied b = sync.sync(CALLER, TEAM, delta("b", 0, upsert("f1", null, "Spaces")));
        assertThat(b.outcome()).isEqualTo(SyncService.Outcome.QUEUED);
        assertThat(b.version()).isEqualTo(1);
        assertThat(store.lastCommit(TEAM)).isEqualTo(1);
    }

    @Test
    void deletesOfUnknownFacts_andUpsertsEqualToTheFact_shouldChangeNothing() {
        SyncService sync = service(SyncService.Policy.REJECT);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        SyncService.Applied nothing = sync.sync(
                CALLER,
                TEAM,
                delta(
                        "b",
                        0,
                        new SyncService.OpDraft("delete", "ghost", null, null, null, null, null),
                        upsert("f1", null, "Tabs")));
        assertThat(nothing.outcome()).isEqualTo(SyncService.Outcome.APPLIED);
        assertThat(nothing.version()).isEqualTo(1);
        assertThat(store.lastCommit(TEAM)).isEqualTo(1);
        assertThat(store.facts(TEAM, List.of(new Id("ghost")))).isEmpty();
    }

    @Test
    void aKeylessRetryFromAnotherClient_orWithAnotherBase_isANewDelta() {
        SyncService sync = service(SyncService.Policy.LAST_WRITER_WINS);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")));
        assertThat(sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Tabs")))
                        .version())
                .isEqualTo(1);
        sync.sync(CALLER, TEAM, delta("b", 1, upsert("f1", null, "Spaces")));
        // a's "Tabs" again, from its new base: not a retry of its first delta, so it is applied
        assertThat(sync.sync(CALLER, TEAM, delta("a", 2, upsert("f1", null, "Tabs")))
                        .version())
                .isEqualTo(3);
    }

    @Test
    void patchingOrDeletingASyncedFactsMemory_shouldBe409PointingToSync_andChangeNothing() {
        SyncService sync = service(SyncService.Policy.REJECT);
        sync.sync(CALLER, TEAM, delta("a", 0, upsert("f1", null, "Releases are tagged vYYYY.MM.DD")));
        Id memoryId = store.facts(TEAM, List.of(new Id("f1"))).get(new Id("f1")).memoryId();
        MemoryService service = new MemoryService(memories, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, secrets);
        long version = memories.get(TEAM, memoryId).orElseThrow().version();
        assertThatThrownBy(() -> service.patch(
                        CALLER,
                        TEAM,
                        memoryId,
                        version,
                        new PatchDraft("Releases are tagged by date", null, null, null, null, null, null, null)))
                .isInstanceOf(SyncedFactMemory.class)
                .hasMessageContaining("POST /v1/teams/team_abc/sync");
        assertThatThrownBy(() -> service.delete(CALLER, TEAM, memoryId, null)).isInstanceOf(SyncedFactMemory.class);
        assertThat(memories.get(TEAM, memoryId).orElseThrow().content()).isEqualTo("Releases are tagged vYYYY.MM.DD");
    }
}
