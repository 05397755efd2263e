package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.SnapshotPurge;
import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.RuleBasedExtractor;
import dev.cairn.model.session.SessionService;
import dev.cairn.model.session.SessionService.MessageDraft;
import dev.cairn.model.testkit.HashingEmbedder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code DELETE /memories/{id}} leaves nothing of the memory in any store of a backend: not the record, not an index
 * document, not the cold copy, not the text in a context snapshot that showed it (the snapshot is rewritten without
 * it, the blocks that held the text are deleted). Run against each backend's real stores (SQLite, Lucene and files;
 * DynamoDB, OpenSearch and S3) and the in-memory fakes; each test works in a team of its own.
 */
public abstract class DeletionCascadeContract {

    protected abstract MemoryStore memoryStore();

    protected abstract VectorIndex index();

    protected abstract ColdStore cold();

    protected abstract SessionStore sessionStore();

    protected abstract SessionCacheStore cacheStore();

    /** Extra checks of the backend's own storage after {@code memory} was deleted (e.g. S3's old versions). */
    protected void assertNoCopyLeftInTheBackend(Id team, Id memory) {}

    private final HashingEmbedder embedder = new HashingEmbedder();
    private final Clock clock = Clock.systemUTC();
    private final Id team =
            new Id("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    private final Caller alice = new Caller(new Id("alice"), Set.of(team));
    private final Id session = new Id("s1");
    private final SecretGate gate = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);

    private Indexer indexer() {
        return new Indexer(memoryStore(), index(), embedder, cold());
    }

    private MemoryService memories() {
        return new MemoryService(
                memoryStore(), indexer(), clock, MemoryLimits.DEFAULTS, gate, new SnapshotPurge(cacheStore()));
    }

    private SessionService sessions(MemoryService memories) {
        return new SessionService(
                sessionStore(),
                new ExtractiveSummarizer(),
                new RuleBasedExtractor(SecretScanner.bundled()),
                memories,
                null,
                gate,
                clock,
                SessionService.Limits.defaults());
    }

    private ContextAssembler contexts(MemoryService memories, SessionService sessions) {
        RecallService recall = new RecallService(
                memoryStore(), index(), embedder, indexer(), clock, RecallSettings.DEFAULTS, Runnable::run, gate);
        return new ContextAssembler(
                sessions,
                recall,
                memories,
                cacheStore(),
                gate,
                clock,
                new ContextAssembler.Settings(Map.of(), 1024, 8, 8000));
    }

    private Memory remember(MemoryService memories, String text, double importance) {
        return memories.create(
                        alice, team, new MemoryDraft(text, "fact", "team", null, importance, null, null, null, null))
                .memory();
    }

    @Test
    void afterADelete_noStoreHoldsTheMemory_andItsSnapshotsAreRewrittenWithoutIt() {
        MemoryService memories = memories();
        SessionService sessions = sessions(memories);
        ContextAssembler contexts = contexts(memories, sessions);
        Memory doomed = remember(memories, "Orion ships on Fridays from the blue pipeline", 0.9);
        Memory kept = remember(memories, "The staging database is PostgreSQL 16", 0.8);
        sessions.append(alice, team, session, new MessageDraft("user", "When does Orion ship?", null));
        ContextAssembler.Context first = contexts.assemble(alice, team, session, null, null);
        sessions.append(alice, team, session, new MessageDraft("user", "And the database?", null));
        ContextAssembler.Context second = contexts.assemble(alice, team, session, null, null);
        assertThat(first.memories()).extracting(Memory::id).contains(doomed.id(), kept.id());
        List<String> oldHashes = hashes(first.turn(), second.turn());
        assertThat(texts(oldHashes)).anyMatch(t -> t.contains("Orion ships on Fridays"));

        memories.delete(alice, team, doomed.id(), null);

        assertThat(memoryStore().get(team, doomed.id())).as("record").isEmpty();
        assertThat(memoryStore().indexWork(team, doomed.id())).as("tombstone").isEmpty();
        assertThat(searchIds("Orion ships on Fridays from the blue pipeline"))
                .as("index documents")
                .doesNotContain(doomed.id());
        assertThat(cold().get(team, doomed.id())).as("cold copy").isEmpty();
        // the snapshots: no block of either turn, old or new, holds the text, and nothing records it as shown
        assertThat(texts(oldHashes)).as("old blocks").noneMatch(t -> t.contains("Orion ships"));
        assertThat(texts(hashes(first.turn(), second.turn())))
                .as("rewritten blocks")
                .noneMatch(t -> t.contains("Orion ships"))
                .anyMatch(t -> t.contains("PostgreSQL 16"));
        assertThat(cacheStore().snapshotsShowing(team, doomed.id()))
                .as("showings")
                .isEmpty();
        ContextAssembler.Context replay = contexts.restore(alice, team, session, first.turn());
        assertThat(replay.memories()).extracting(Memory::id).containsExactly(kept.id());
        assertNoCopyLeftInTheBackend(team, doomed.id());
    }

    @Test
    void deletingAnArchivedMemory_removesItsColdCopy_everywhere() {
        MemoryService memories = memories();
        Memory archived = remember(memories, "Deploys happen on Tuesdays", 0.01);
        new DecayJob(memoryStore(), cold(), indexer(), new DecayPolicy(1.0, 0.5, Duration.ofDays(365)), clock, 10)
                .run(team, null, () -> false);
        assertThat(memoryStore().get(team, archived.id()).orElseThrow().state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(cold().get(team, archived.id())).isPresent();

        memories.delete(alice, team, archived.id(), null);

        assertThat(memoryStore().get(team, archived.id())).as("record").isEmpty();
        assertThat(cold().get(team, archived.id())).as("cold copy").isEmpty();
        assertThat(cold().list(team, 10)).as("cold listing").isEmpty();
        assertThat(searchIds("Deploys happen on Tuesdays"))
                .as("index documents")
                .isEmpty();
        assertNoCopyLeftInTheBackend(team, archived.id());
    }

    private List<Id> searchIds(String text) {
        return index()
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(team, alice.user(), null, Set.of(), Set.of()),
                        embedder.embedQuery(text),
                        embedder.modelId(),
                        text,
                        50))
                .stream()
                .map(VectorIndex.Candidate::id)
                .toList();
    }

    private List<String> hashes(long... turns) {
        return java.util.Arrays.stream(turns)
                .mapToObj(t -> cacheStore().snapshot(team, session, t).orElseThrow())
                .flatMap(s -> s.blocks().stream())
                .map(ContextSnapshot.Block::hash)
                .distinct()
                .toList();
    }

    private java.util.Collection<String> texts(List<String> hashes) {
        return cacheStore().blocks(team, session, hashes).values();
    }
}
