package dev.cairn.model.recall;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.time.Instant;
import java.util.Set;

/** A validated recall request. {@code scope} null means all the caller may see; {@code asOf} null means now. */
public record RecallQuery(
        String query,
        int topK,
        Scope scope,
        Set<MemoryType> types,
        Set<Id> tags,
        RecallWeights weights,
        int candidates,
        Instant asOf) {}
