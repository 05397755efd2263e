package dev.cairn.model.memory;

import dev.cairn.model.id.Id;

/**
 * A page request over one caller's view of a team: {@code scope} null means "mine and the team's".
 * {@code after} is the decoded cursor of the previous page, or null for the first page.
 */
public record ListQuery(
        Id team, Id viewer, Scope scope, MemoryType type, Id tag, Order order, int limit, Cursor after) {

    public enum Order {
        RECENCY,
        IMPORTANCE
    }

    /** Keyset position: the sort key and id of the last memory of the previous page. */
    public record Cursor(double sortKey, String id) {}
}
