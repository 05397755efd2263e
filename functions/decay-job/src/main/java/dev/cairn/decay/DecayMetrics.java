package dev.cairn.decay;

import dev.cairn.app.Counters;

/** The job's counts as metrics ({@code cairn.decay.scanned|decayed|archived|deleted}), for the API and the schedule. */
final class DecayMetrics {

    private DecayMetrics() {}

    static void count(Counters metrics, long scanned, long decayed, long archived, long deleted) {
        metrics.add("cairn.decay.scanned", scanned);
        metrics.add("cairn.decay.decayed", decayed);
        metrics.add("cairn.decay.archived", archived);
        metrics.add("cairn.decay.deleted", deleted);
    }
}
