package dev.cairn.model.testkit;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Vectors;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link VectorIndex} by brute force, for tests of the domain services: exact cosine over every entry the filter
 * admits (so its kNN is the exact answer the real indexes approximate), and a term-match score standing in for BM25
 * (idf-weighted, positive exactly when a query word occurs). Removals are remembered by version, as in the Lucene
 * index. Passes {@code VectorIndexContract} like the Lucene and OpenSearch adapters.
 */
public final class InMemoryVectorIndex implements VectorIndex {

    private record Key2(Id team, Id id) {}

    /** {@code entry} null: removed at {@code version}; a late, older write stays out. */
    private record Doc(Entry entry, long version, Set<String> words) {}

    /** What a restarted process would find again: shared by {@link #reopened()} copies. */
    private static final class State {
        String model;
        final Map<Key2, Doc> docs = new LinkedHashMap<>();
    }

    private final State state;

    public InMemoryVectorIndex() {
        this(new State());
    }

    private InMemoryVectorIndex(State state) {
        this.state = state;
    }

    /** The same index as a fresh process would open it. */
    public InMemoryVectorIndex reopened() {
        return new InMemoryVectorIndex(state);
    }

    /** Documents a search could still find (removal markers excluded): what a deletion-cascade test counts. */
    public int liveDocuments() {
        synchronized (state) {
            return (int)
                    state.docs.values().stream().filter(d -> d.entry() != null).count();
        }
    }

    @Override
    public Optional<String> modelId() {
        synchronized (state) {
            return Optional.ofNullable(state.model);
        }
    }

    @Override
    public void upsert(List<Entry> entries) {
        synchronized (state) {
            for (Entry e : entries) {
                if (state.model != null && !state.model.equals(e.modelId())) {
                    throw new EmbeddingModelMismatch(state.model, e.modelId());
                }
            }
            for (Entry e : entries) {
                state.model = e.modelId();
                Key2 k = new Key2(e.key().team(), e.key().id());
                Doc held = state.docs.get(k);
                if (held == null || held.version() < e.key().version()) {
                    state.docs.put(k, new Doc(e, e.key().version(), words(e.content())));
                }
            }
        }
    }

    @Override
    public void delete(List<Key> keys) {
        synchronized (state) {
            for (Key key : keys) {
                Key2 k = new Key2(key.team(), key.id());
                Doc held = state.docs.get(k);
                if (held == null || held.version() <= key.version()) {
                    state.docs.put(k, new Doc(null, key.version(), Set.of()));
                }
            }
        }
    }

    @Override
    public List<Candidate> search(Search search) {
        synchronized (state) {
            if (state.model != null && !state.model.equals(search.modelId())) {
                throw new EmbeddingModelMismatch(state.model, search.modelId());
            }
            List<Doc> admitted = state.docs.values().stream()
                    .filter(d -> d.entry() != null && admits(search.filter(), d.entry()))
                    .toList();
            Map<Id, Double> similarity = new HashMap<>();
            admitted.forEach(d -> similarity.put(
                    d.entry().key().id(),
                    // as the real indexes score a memory with a context: the cosine times the entry's length
                    Vectors.cosine(search.vector(), d.entry().vector())
                            * d.entry().length()));
            Map<Id, Double> lexical = lexical(search.text(), admitted);
            List<Id> chosen = new ArrayList<>();
            top(similarity, search.k()).forEach(chosen::add);
            top(lexical, search.k()).filter(id -> !chosen.contains(id)).forEach(chosen::add);
            return chosen.stream()
                    .map(id -> new Candidate(id, similarity.get(id), lexical.getOrDefault(id, 0.0)))
                    .sorted(Comparator.comparingDouble(Candidate::similarity).reversed())
                    .toList();
        }
    }

    private static java.util.stream.Stream<Id> top(Map<Id, Double> scores, int k) {
        return scores.entrySet().stream()
                .sorted(Map.Entry.<Id, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(k)
                .map(Map.Entry::getKey);
    }

    private static boolean admits(Filter f, Entry e) {
        if (!f.team().equals(e.key().team())) {
            return false;
        }
        boolean visible = e.scope() == Scope.TEAM || f.viewer().equals(e.user());
        boolean inScope = f.scope() == null || f.scope() == e.scope();
        boolean ofType = f.types() == null || f.types().isEmpty() || f.types().contains(e.type());
        boolean tagged =
                f.tags() == null || f.tags().isEmpty() || e.tags().stream().anyMatch(f.tags()::contains);
        return visible && inScope && ofType && tagged;
    }

    /** Each query word found in an entry adds its idf over the admitted entries: positive iff a word matches. */
    private static Map<Id, Double> lexical(String text, List<Doc> admitted) {
        Map<Id, Double> out = new HashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String w : words(text)) {
            List<Doc> having =
                    admitted.stream().filter(d -> d.words().contains(w)).toList();
            double idf = Math.log(1 + (admitted.size() - having.size() + 0.5) / (having.size() + 0.5));
            having.forEach(d -> out.merge(d.entry().key().id(), idf, Double::sum));
        }
        return out;
    }

    static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> !w.isEmpty())
                .collect(Collectors.toSet());
    }
}
