package dev.cairn.http;

import dev.cairn.model.recall.RecallResult;
import java.util.List;

/** A recall's answer on the wire (API.md § Recall), best first. */
public record RecallAnswer(List<RecallHit> results, String model, long tookMs) {

    public static RecallAnswer of(RecallResult result) {
        return new RecallAnswer(result.hits().stream().map(RecallHit::of).toList(), result.model(), result.tookMs());
    }
}
