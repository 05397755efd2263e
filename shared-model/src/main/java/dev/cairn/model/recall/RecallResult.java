package dev.cairn.model.recall;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import java.util.Comparator;
import java.util.List;

/** Ranked hits (best first), the embedding model that ranked them, and how long recall took. */
public record RecallResult(List<Hit> hits, String model, long tookMs) {

    public record Hit(Memory memory, Scorer.Score score) {

        Ranked ranked() {
            return new Ranked(memory.id(), score);
        }
    }

    /** A memory's place in a ranking: by total score, ties broken by id so that every backend orders alike. */
    public record Ranked(Id id, Scorer.Score score) {

        public static final Comparator<Ranked> BEST_FIRST = Comparator.comparingDouble(
                        (Ranked r) -> r.score().total())
                .reversed()
                .thenComparing(Ranked::id);
    }
}
