package dev.cairn.model.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.consolidate.Consolidator.Action;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.recall.RecallDraft;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Consolidation before write, on the in-memory stores with a bag-of-words embedder: restatements share their words,
 * so their similarity clears the threshold and {@link FactComparison} decides. The embedded adapters rerun these
 * cases with the ONNX model ({@code OnnxConsolidatorTest}), where the similarities are a real model's.
 */
public class ConsolidatorTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    /** The stores and model consolidation runs on. */
    public record Backend(MemoryStore store, VectorIndex index, Embedder embedder) {}

    private Backend backend;
    private MemoryStore store;
    private Consolidator consolidator;
    private RecallService recall;

    /** A fresh, empty backend for each test. */
    protected Backend open() throws Exception {
        return new Backend(new InMemoryMemoryStore(), new InMemoryVectorIndex(), new HashingEmbedder());
    }

    @BeforeEach
    void wire() throws Exception {
        backend = open();
        store = backend.store();
        Indexer indexer = new Indexer(store, backend.index(), backend.embedder());
        SecretGate gate = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
        MemoryService memories = new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, gate);
        consolidator = new Consolidator(
                memories,
                store,
                backend.index(),
                backend.embedder(),
                new FactComparison(FactComparison.Thresholds.defaults()),
                8);
        recall = new RecallService(
                store,
                backend.index(),
                backend.embedder(),
                indexer,
                Clock.systemUTC(),
                RecallSettings.DEFAULTS,
                Runnable::run,
                gate);
    }

    @AfterEach
    void close() throws Exception {
        if (backend.index() instanceof AutoCloseable c) {
            c.close();
        }
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    /** Live memories of the team, through the port (every store answers it). */
    private long count() {
        return store.scan(TEAM, null, 1_000).size();
    }

    private static MemoryDraft fact(String type, String content, String occurredAt, String evidence) {
        return new MemoryDraft(content, type, "team", null, null, 0.8, occurredAt, "s1", List.of(evidence));
    }

    @Test
    void theSameFactAgain_shouldReinforceTheStoredOne_notAddARecord() {
        Memory first = consolidator
                .write(
                        ALICE,
                        TEAM,
                        fact("convention", "We always squash merge pull requests.", "2026-11-01T10:00:00Z", "m1"))
                .memory();
        Consolidator.Outcome again = consolidator.write(
                ALICE, TEAM, fact("convention", "We always squash-merge pull requests", "2026-11-20T10:00:00Z", "m7"));

        assertThat(again.action()).isEqualTo(Action.REINFORCED);
        assertThat(again.memory().id()).isEqualTo(first.id());
        Memory stored = store.get(TEAM, first.id()).orElseThrow();
        assertThat(stored.confidence()).isGreaterThan(0.8);
        assertThat(stored.accessCount()).isEqualTo(1);
        assertThat(again.memory().accessCount()).isEqualTo(stored.accessCount()); // the outcome is the memory as stored
        assertThat(stored.evidence()).extracting(Id::value).containsExactly("m1", "m7");
        assertThat(stored.occurredAt()).hasToString("2026-11-20T10:00:00Z");
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void aNewValueForTheSameSubject_shouldSupersedeTheOldFact_andAsOfShouldStillSeeIt() {
        Memory old = consolidator
                .write(
                        ALICE,
                        TEAM,
                        fact(
                                "environment",
                                "We use PostgreSQL 16 for the billing database.",
                                "2026-10-01T09:00:00Z",
                                "m1"))
                .memory();
        Consolidator.Outcome now = consolidator.write(
                ALICE,
                TEAM,
                fact(
                        "environment",
                        "We now use PostgreSQL 17 for the billing database.",
                        "2026-11-15T09:00:00Z",
                        "m2"));

        assertThat(now.action()).isEqualTo(Action.SUPERSEDED);
        assertThat(now.previous().id()).isEqualTo(old.id());
        Memory marked = store.get(TEAM, old.id()).orElseThrow();
        assertThat(marked.supersededBy()).isEqualTo(now.memory().id());
        assertThat(marked.validTo()).hasToString("2026-11-15T09:00:00Z");

        assertThat(contents(recall("which PostgreSQL version does billing use", null)))
                .contains("We now use PostgreSQL 17 for the billing database.")
                .doesNotContain("We use PostgreSQL 16 for the billing database.");
        assertThat(contents(recall("which PostgreSQL version does billing use", "2026-10-20T00:00:00Z")))
                .contains("We use PostgreSQL 16 for the billing database.")
                .doesNotContain("We now use PostgreSQL 17 for the billing database.");
    }

    // a new user's trial: the change of mind was stored as a second preference beside the old one
    @ParameterizedTest
    @ValueSource(
            strings = {
                "I now prefer Go for new services.",
                "These days I'd rather use Go for new services.",
                "I now prefer Go instead of Kotlin for new services."
            })
    void aRewordedNewPreferenceForTheSameSubject_shouldSupersedeTheOld(String restated) {
        Memory old = consolidator
                .write(
                        ALICE,
                        TEAM,
                        fact(
                                "preference",
                                "I always prefer Kotlin over Java for new services.",
                                "2026-10-01T09:00:00Z",
                                "m1"))
                .memory();
        Consolidator.Outcome now =
                consolidator.write(ALICE, TEAM, fact("preference", restated, "2026-11-15T09:00:00Z", "m2"));

        assertThat(now.action()).isEqualTo(Action.SUPERSEDED);
        assertThat(now.previous().id()).isEqualTo(old.id());
        assertThat(store.get(TEAM, old.id()).orElseThrow().supersededBy())
                .isEqualTo(now.memory().id());
        assertThat(contents(recall("which language do I prefer for new services", null)))
                .contains(restated)
                .doesNotContain("I always prefer Kotlin over Java for new services.");
    }

    @Test
    void aPreferenceAboutAnotherSubject_shouldNotSupersedeTheOld() {
        consolidator.write(ALICE, TEAM, fact("preference", "I prefer Kotlin for new services.", null, "m1"));
        Consolidator.Outcome tabs =
                consolidator.write(ALICE, TEAM, fact("preference", "I now prefer tabs for indentation.", null, "m2"));
        Consolidator.Outcome scripts = consolidator.write(
                ALICE, TEAM, fact("preference", "These days I'd rather use Python for data analysis.", null, "m3"));
        consolidator.write(ALICE, TEAM, fact("convention", "We deploy on Tuesdays.", null, "m4"));
        Consolidator.Outcome region =
                consolidator.write(ALICE, TEAM, fact("convention", "We deploy to eu-west-1.", null, "m5"));

        assertThat(List.of(tabs.action(), scripts.action(), region.action())).containsOnly(Action.CREATED);
        assertThat(count()).isEqualTo(5);
    }

    @Test
    void aRepeatWithOtherTimeWordsOrHedges_shouldReinforceTheStoredOne() {
        Memory first = consolidator
                .write(ALICE, TEAM, fact("preference", "I prefer Go for new services.", null, "m1"))
                .memory();
        Consolidator.Outcome again = consolidator.write(
                ALICE,
                TEAM,
                fact("preference", "Honestly, these days I really prefer Go for new services.", null, "m2"));

        assertThat(again.action()).isEqualTo(Action.REINFORCED);
        assertThat(again.memory().id()).isEqualTo(first.id());
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void anOlderStatementArrivingLate_shouldBeKeptAsHistory_notBecomeCurrent() {
        Memory current = consolidator
                .write(
                        ALICE,
                        TEAM,
                        fact("decision", "We deploy the API with Terraform 1.9.", "2026-11-10T00:00:00Z", "m5"))
                .memory();
        Consolidator.Outcome late = consolidator.write(
                ALICE, TEAM, fact("decision", "We deploy the API with Terraform 1.5.", "2026-09-01T00:00:00Z", "m1"));

        assertThat(late.action()).isEqualTo(Action.OUTDATED);
        assertThat(late.memory().supersededBy()).isEqualTo(current.id());
        assertThat(store.get(TEAM, current.id()).orElseThrow().isCurrent()).isTrue();
        assertThat(contents(recall("how do we deploy the API", null)))
                .contains("We deploy the API with Terraform 1.9.")
                .doesNotContain("We deploy the API with Terraform 1.5.");
    }

    @Test
    void differentFactsOfTheSameKind_shouldBothStayCurrent() {
        consolidator.write(
                ALICE,
                TEAM,
                fact("environment", "The billing service runs on ECS in eu-west-1.", "2026-11-01T00:00:00Z", "m1"));
        Consolidator.Outcome other = consolidator.write(
                ALICE,
                TEAM,
                fact(
                        "environment",
                        "Our Grafana dashboards live in the observability account.",
                        "2026-11-02T00:00:00Z",
                        "m2"));
        Consolidator.Outcome also = consolidator.write(
                ALICE,
                TEAM,
                fact(
                        "environment",
                        "The billing service also runs on Lambda for batch jobs.",
                        "2026-11-03T00:00:00Z",
                        "m3"));

        assertThat(other.action()).isEqualTo(Action.CREATED);
        assertThat(also.action()).isEqualTo(Action.CREATED);
        assertThat(count()).isEqualTo(3);
    }

    @Test
    void theSameWordsTypedOtherwise_shouldReinforceTheStoredFact_keepingItsType() {
        Memory first = consolidator
                .write(ALICE, TEAM, fact("environment", "We use pnpm for every frontend repo.", null, "m1"))
                .memory();
        Consolidator.Outcome again =
                consolidator.write(ALICE, TEAM, fact("decision", "We use pnpm for every frontend repo", null, "m4"));

        assertThat(again.action()).isEqualTo(Action.REINFORCED);
        assertThat(again.memory().id()).isEqualTo(first.id());
        assertThat(again.memory().type()).hasToString("ENVIRONMENT");
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void aNewValueOfAnotherType_shouldNotSupersedeTheStoredFact() {
        consolidator.write(ALICE, TEAM, fact("decision", "We use PostgreSQL 16 for the billing database.", null, "m1"));
        Consolidator.Outcome other = consolidator.write(
                ALICE, TEAM, fact("environment", "We now use PostgreSQL 17 for the billing database.", null, "m2"));

        assertThat(other.action()).isEqualTo(Action.CREATED);
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aFactOfAnotherScope_shouldNeverBeConsolidatedWithIt() {
        consolidator.write(ALICE, TEAM, fact("decision", "We use Gradle 8 for the build.", null, "m1"));
        Consolidator.Outcome asPreference = consolidator.write(
                ALICE,
                TEAM,
                new MemoryDraft(
                        "We use Gradle 8 for the build.",
                        "preference",
                        "user",
                        null,
                        null,
                        0.8,
                        null,
                        "s1",
                        List.of("m2")));
        assertThat(asPreference.action()).isEqualTo(Action.CREATED);
    }

    private List<RecallResult.Hit> recall(String query, String asOf) {
        return recall.recall(ALICE, TEAM, new RecallDraft(query, 10, null, null, null, null, null, null, asOf))
                .hits();
    }

    private static List<String> contents(List<RecallResult.Hit> hits) {
        return hits.stream().map(h -> h.memory().content()).toList();
    }
}
