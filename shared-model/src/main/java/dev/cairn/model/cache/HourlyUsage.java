package dev.cairn.model.cache;

import java.time.Instant;

/** A session's usage for one model in one hour ({@code hour}: the hour's start, UTC). */
public record HourlyUsage(Instant hour, String model, UsageTotals totals) {}
