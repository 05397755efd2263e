package dev.cairn.model.recall;

import dev.cairn.model.memory.Memory;
import java.util.List;

/** Ranked hits (best first), the embedding model that ranked them, and how long recall took. */
public record RecallResult(List<Hit> hits, String model, long tookMs) {

    public record Hit(Memory memory, Scorer.Score score) {}
}
