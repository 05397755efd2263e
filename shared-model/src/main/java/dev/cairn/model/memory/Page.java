package dev.cairn.model.memory;

import java.util.List;

/** One page of memories and the cursor of the next page ({@code null} on the last page). */
public record Page(List<Memory> memories, ListQuery.Cursor next) {}
