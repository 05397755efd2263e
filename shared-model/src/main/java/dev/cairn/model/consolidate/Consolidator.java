package dev.cairn.model.consolidate;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Vectors;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.Finding;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Consolidation before write: a new fact is compared with the similar current memories of the same namespace before
 * anything is stored: a repeat of any type, a contradiction of the same type.
 *
 * <ul>
 *   <li>the same fact again → the stored memory is reinforced (confidence combined, evidence added, one access
 *       counted, freshness moved to the restatement); no new record. The same words typed otherwise this time are a
 *       repeat too (the stored type stands): the extractor's type is a judgement, and a trial saw "We use pnpm" stored
 *       twice, as an environment and as a decision;</li>
 *   <li>the same subject with a new value → both are kept and the older one is marked superseded ({@code
 *       superseded_by}, {@code valid_to}); which one is older is decided by {@code occurred_at}, then by version, then
 *       by id (ids are time-ordered), so replaying the same facts in any order gives the same current fact;</li>
 *   <li>anything else → a new memory.</li>
 * </ul>
 *
 * <p>Every write goes through {@link MemoryService} (validation, secret gate, conditional write, indexing). The new
 * memory is written before the old one is marked, so a crash in between leaves two current facts, never a lost one;
 * writing the same fact again repairs it (the newer is a contradiction of the older again).
 */
public final class Consolidator {

    /** What consolidation did with a fact. */
    public enum Action {
        CREATED,
        REINFORCED,
        SUPERSEDED,
        OUTDATED
    }

    /**
     * {@code memory} is the memory the fact now lives in (new or reinforced), as stored now — a reinforced one with
     * its access counted; {@code previous} the memory it
     * superseded ({@link Action#SUPERSEDED}) or that supersedes it ({@link Action#OUTDATED}).
     */
    public record Outcome(Action action, Memory memory, Memory previous, List<Finding> redactions) {}

    private static final int MAX_RETRIES = 8;

    private final MemoryService memories;
    private final MemoryStore store;
    private final VectorIndex index;
    private final Embedder embedder;
    private final FactComparison comparison;
    private final int candidates;

    public Consolidator(
            MemoryService memories,
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            FactComparison comparison,
            int candidates) {
        this.memories = memories;
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.comparison = comparison;
        this.candidates = candidates;
    }

    public Outcome write(Caller caller, Id team, MemoryDraft draft) {
        MemoryService.Saved prepared = memories.prepare(caller, team, draft);
        Memory fresh = prepared.memory();
        // embedded once: to find similar memories, then as the new memory's vector in the index
        float[] vector = embedder.embedDocuments(List.of(fresh.content())).get(0);
        Optional<Match> match = closest(caller, fresh, vector);
        if (match.isEmpty()) {
            return new Outcome(Action.CREATED, memories.insert(prepared, vector).memory(), null, prepared.redactions());
        }
        Memory old = match.get().memory();
        if (match.get().relation() == FactComparison.Relation.DUPLICATE) {
            return new Outcome(Action.REINFORCED, reinforce(old, fresh), null, prepared.redactions());
        }
        if (newerThan(fresh, old)) {
            memories.insert(prepared, vector);
            Memory superseded = supersede(old, fresh);
            return new Outcome(Action.SUPERSEDED, fresh, superseded, prepared.redactions());
        }
        // a fact older than what is known (a late or replayed statement): history, not the current fact
        Memory outdated = new Memory(
                fresh.id(),
                fresh.team(),
                fresh.user(),
                fresh.scope(),
                fresh.type(),
                fresh.content(),
                fresh.tags(),
                fresh.importance(),
                fresh.confidence(),
                fresh.occurredAt(),
                fresh.createdAt(),
                null,
                0,
                fresh.sourceSessionId(),
                fresh.evidence(),
                1,
                MemoryState.ACTIVE,
                old.id(),
                old.effectiveTime(),
                fresh.context());
        memories.insert(new MemoryService.Saved(outdated, prepared.redactions()), vector);
        return new Outcome(Action.OUTDATED, outdated, old, prepared.redactions());
    }

    /** The deterministic rule: newer {@code occurred_at} wins, then the higher version, then the later id. */
    static boolean newerThan(Memory a, Memory b) {
        int byTime = a.effectiveTime().compareTo(b.effectiveTime());
        if (byTime != 0) {
            return byTime > 0;
        }
        if (a.version() != b.version()) {
            return a.version() > b.version();
        }
        return a.id().value().compareTo(b.id().value()) > 0;
    }

    private record Match(Memory memory, double similarity, FactComparison.Relation relation) {}

    /** The most similar current memory the fact duplicates, else the most similar one it contradicts. */
    private Optional<Match> closest(Caller caller, Memory fresh, float[] vector) {
        VectorIndex.Filter filter =
                new VectorIndex.Filter(fresh.team(), caller.user(), fresh.scope(), Set.of(), Set.of());
        Map<Id, Double> similarity = new HashMap<>();
        for (VectorIndex.Candidate c :
                index.search(new VectorIndex.Search(filter, vector, embedder.modelId(), fresh.content(), candidates))) {
            similarity.merge(c.id(), c.similarity(), Math::max);
        }
        if (similarity.isEmpty()) {
            return Optional.empty();
        }
        ComparedText compared = new ComparedText(fresh.content());
        // the record store decides: the index may still hold a deleted, changed or superseded memory
        return store.getAll(fresh.team(), similarity.keySet()).stream()
                .filter(m -> m.state() == MemoryState.ACTIVE
                        && m.isCurrent()
                        && m.scope() == fresh.scope()
                        && m.visibleTo(caller.user()))
                .map(m -> relate(fresh, m, similarity.get(m.id()), compared))
                // a new value contradicts only a fact of its own type: a preference does not replace a decision
                .filter(m -> m.relation() == FactComparison.Relation.DUPLICATE
                        || (m.relation() == FactComparison.Relation.CONTRADICTION
                                && m.memory().type() == fresh.type()))
                .min(Comparator.comparing((Match m) -> m.relation() != FactComparison.Relation.DUPLICATE)
                        .thenComparing(
                                Comparator.comparingDouble(Match::similarity).reversed())
                        .thenComparing(m -> m.memory().id()));
    }

    /**
     * How the fact relates to a stored memory. When the words say "the same subject, a new value" but the similarity
     * of the sentences as said falls short of the floor, the similarity of the compared words decides: "I always
     * prefer Kotlin over Java for new services" and "These days I'd rather use Go for new services" score low as said
     * (the turned down Java, the time words), not as "i prefer kotlin for new services" / "i prefer go for new
     * services". Only such near misses are embedded again, so most facts cost no second embedding.
     */
    private Match relate(Memory fresh, Memory stored, double similarity, ComparedText compared) {
        FactComparison.Relation relation = comparison.relate(fresh.content(), stored.content(), similarity);
        if (relation == FactComparison.Relation.DISTINCT
                && stored.type() == fresh.type()
                && comparison.contradictsByWords(fresh.content(), stored.content())) {
            String words = comparison.compared(stored.content());
            if (!words.isEmpty() && !compared.text().isEmpty()) {
                double wordsSimilarity = Vectors.cosine(
                        compared.vector(),
                        embedder.embedDocuments(List.of(words)).get(0));
                relation = comparison.relate(fresh.content(), stored.content(), Math.max(similarity, wordsSimilarity));
            }
        }
        return new Match(stored, similarity, relation);
    }

    /** The fact's compared words and, once asked for, their vector. */
    private final class ComparedText {
        private final String text;
        private float[] vector;

        ComparedText(String content) {
            this.text = comparison.compared(content);
        }

        String text() {
            return text;
        }

        float[] vector() {
            if (vector == null) {
                vector = embedder.embedDocuments(List.of(text)).get(0);
            }
            return vector;
        }
    }

    private Memory reinforce(Memory old, Memory fresh) {
        Memory current = old;
        for (int attempt = 0; ; attempt++) {
            Instant restated = fresh.effectiveTime().isAfter(current.effectiveTime()) ? fresh.effectiveTime() : null;
            Memory next = current.reinforcedBy(
                    fresh.confidence(), fresh.evidence(), memories.limits().maxEvidence(), restated);
            try {
                memories.replace(next);
                store.recordAccess(next.team(), List.of(next.id()), fresh.createdAt());
                return next.accessedAt(fresh.createdAt());
            } catch (VersionConflict e) {
                current = reread(current, attempt, e);
            }
        }
    }

    private Memory supersede(Memory old, Memory winner) {
        Memory current = old;
        for (int attempt = 0; ; attempt++) {
            if (!current.isCurrent()) {
                return current; // someone else superseded it meanwhile: their mark stands
            }
            Memory next = current.supersededBy(winner.id(), winner.effectiveTime());
            try {
                memories.replace(next);
                return next;
            } catch (VersionConflict e) {
                current = reread(current, attempt, e);
            }
        }
    }

    private Memory reread(Memory stale, int attempt, VersionConflict cause) {
        if (attempt >= MAX_RETRIES) {
            throw cause;
        }
        return store.get(stale.team(), stale.id()).orElseThrow(() -> cause);
    }
}
