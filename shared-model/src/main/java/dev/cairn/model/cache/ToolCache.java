package dev.cairn.model.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretRejected;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionAccess;
import dev.cairn.model.validation.Checks;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The tool-result cache of a session (API.md § Sessions, tool-result cache).
 *
 * <p>Key: the tool name and the SHA-256 of the RFC 8785 canonical JSON of the params, so key order, number spelling
 * and escapes do not make another key. Two levels: per session a Caffeine cache in this process (W-TinyLFU eviction
 * bounded by the session's byte cap, per-entry expiry) in front of the session's entries in the record store, which
 * every instance shares: a cold instance finds what a warm one stored, an eviction removes the entry from both, and
 * an invalidation bumps the session's generation, which other instances notice within {@code counterFlush} and drop
 * their first level. Hit, miss and eviction counts are kept in memory and added to the shared counters at most every
 * {@code counterFlush} (and whenever stats are read), so a lookup served from the first level touches no store.
 *
 * <p>Secrets: a result in which the scanner finds a secret is not cached (422 with findings, whatever the team's
 * policy): a cache must answer exactly what the tool answered or nothing, and a redacted result would be neither.
 */
public final class ToolCache {

    /** Tool names as agents and MCP servers spell them ({@code read_file}, {@code mcp__github__get_issue}). */
    private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    private static final int MAX_VALIDATOR = 256;

    /**
     * What a client sends to store a result: {@code paramsJson} the params as JSON text (canonicalized for the
     * key), {@code result} the parsed result (Map, List, String, Number, Boolean, null: its strings are scanned),
     * {@code resultJson} the result's JSON text, which is what is stored.
     */
    public record PutDraft(
            String tool,
            String paramsJson,
            Object result,
            String resultJson,
            Long ttlSeconds,
            ValidatorDraft validator) {}

    public record LookupDraft(String tool, String paramsJson, ValidatorDraft validator) {}

    public record ValidatorDraft(String kind, String value) {}

    public record Stored(String key, long bytes) {}

    /**
     * {@code entry} on a hit; {@code reason} (miss, expired or stale) otherwise. {@code ageSeconds}: how old the result
     * is, on a hit answered by {@link #lookup(Caller, Id, Id, LookupDraft)}; null from the key-level hit path, which
     * reads no wall clock.
     */
    public record Lookup(boolean hit, CachedResult entry, String reason, Long ageSeconds) {
        Lookup(boolean hit, CachedResult entry, String reason) {
            this(hit, entry, reason, null);
        }

        static Lookup miss(String reason) {
            return new Lookup(false, null, reason);
        }

        public String result() {
            return entry == null ? null : entry.result();
        }

        /** This answer with the result's age at {@code now} (never negative: clocks of two instances may differ). */
        Lookup agedAt(Instant now) {
            return entry == null
                    ? this
                    : new Lookup(
                            hit,
                            entry,
                            reason,
                            Math.max(0, Duration.between(entry.storedAt(), now).toSeconds()));
        }
    }

    public record Stats(long entries, long bytes, long hits, long misses, long evictions) {}

    /**
     * One session's first level and its counts not yet added to the shared counters. A caller that serves many
     * lookups of one session keeps the handle ({@link #handle}) and skips finding it again.
     */
    public final class Handle {
        final Id team;
        final Id session;
        final Cache<String, Held> entries;
        final java.util.concurrent.atomic.LongAdder hits = new java.util.concurrent.atomic.LongAdder();
        final AtomicLong misses = new AtomicLong();
        final AtomicLong evictions = new AtomicLong();
        volatile long generation;
        volatile long checkedAt;
        private final long flushNanos = settings.counterFlush().toNanos();

        Handle(Id team, Id session, long generation) {
            this.team = team;
            this.session = session;
            this.generation = generation;
            this.checkedAt = CoarseClock.nanos();
            this.entries = Caffeine.newBuilder()
                    .maximumWeight(settings.sessionCapBytes())
                    .weigher((String k, Held v) ->
                            (int) Math.min(Integer.MAX_VALUE, v.entry().bytes()))
                    .executor(Runnable::run) // evictions reach the shared level before the call returns
                    .removalListener((String k, Held v, RemovalCause cause) -> {
                        if (cause == RemovalCause.SIZE && v != null) {
                            evictions.incrementAndGet();
                            store.deleteEntry(
                                    v.entry().team(),
                                    v.entry().session(),
                                    v.entry().key());
                        }
                    })
                    .build();
        }

        /** Puts an entry in the first level, its expiry as a monotonic deadline, and applies the byte cap now. */
        void hold(CachedResult entry) {
            CoarseClock.refresh();
            long ttl = Duration.between(clock.instant(), entry.expiresAt()).toNanos();
            entries.put(entry.key(), new Held(entry, CoarseClock.nanos() + ttl));
            entries.cleanUp();
        }

        /**
         * The lookup once the key is known. The hit path is one read of the {@link CoarseClock} (for the entry's TTL,
         * and so another instance's invalidation is noticed within {@code counterFlush}), one Caffeine read and a
         * striped counter increment; misses, expiry and validators go to the slow path. TTLs are checked here rather
         * than by Caffeine's variable expiry, which would read the real clock on every read.
         */
        public Lookup lookup(String key, Validator validator) {
            long now = CoarseClock.nanos();
            if (now - checkedAt >= flushNanos) {
                flush(false, false);
            }
            Held held = entries.getIfPresent(key);
            if (held != null
                    && held.deadline() - now > 0
                    && (validator == null || validator.equals(held.entry().validator()))) {
                hits.increment();
                return held.hit(); // made once per entry: a hit allocates nothing
            }
            return slowLookup(this, key, validator, held == null ? null : held.entry());
        }

        void flush(boolean force, boolean bumpGeneration) {
            if (!force && !bumpGeneration && CoarseClock.nanos() - checkedAt < flushNanos) {
                return;
            }
            long h = hits.sumThenReset();
            long m = misses.getAndSet(0);
            long e = evictions.getAndSet(0);
            SessionCacheStore.Counters c = (h | m | e) == 0 && !bumpGeneration
                    ? store.counters(team, session)
                    : store.addCounters(team, session, h, m, e, bumpGeneration);
            checkedAt = CoarseClock.nanos();
            if (c.generation() != generation) {
                generation = c.generation();
                if (!bumpGeneration) {
                    entries.invalidateAll(); // another instance invalidated: what this one holds may be gone
                }
            }
        }
    }

    private final SessionCacheStore store;
    private final SecretScanner scanner;
    private final Clock clock;
    private final ToolCacheSettings settings;
    private final Cache<SessionKey, Handle> sessions;

    private final SessionAccess access;

    public ToolCache(
            SessionCacheStore store,
            SessionAccess access,
            SecretScanner scanner,
            Clock clock,
            ToolCacheSettings settings) {
        this.store = store;
        this.access = access;
        this.scanner = scanner;
        this.clock = clock;
        this.settings = settings;
        this.sessions = Caffeine.newBuilder()
                .maximumSize(settings.maxSessions())
                .removalListener((SessionKey k, Handle level, RemovalCause cause) -> {
                    if (level != null) {
                        level.flush(true, false); // counts of a session leaving memory are not lost
                    }
                })
                .build();
    }

    public ToolCacheSettings settings() {
        return settings;
    }

    public Stored put(Caller caller, Id team, Id session, PutDraft draft) {
        CoarseClock.refresh();
        caller.requireMember(team);
        if (draft == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\", \"result\"}");
        }
        Checks c = new Checks();
        String tool = tool(c, draft.tool());
        String canonical = params(c, draft.paramsJson());
        Validator validator = validator(c, draft.validator());
        Duration ttl = settings.ttlOf(tool == null ? "" : tool);
        if (draft.ttlSeconds() != null) {
            if (draft.ttlSeconds() < 1 || draft.ttlSeconds() > settings.maxTtl().toSeconds()) {
                c.fail(
                        "ttl_seconds",
                        "must be between 1 and " + settings.maxTtl().toSeconds());
            } else {
                ttl = Duration.ofSeconds(draft.ttlSeconds());
            }
        }
        if (draft.resultJson() == null) {
            c.fail("result", "is required");
        }
        c.throwIfAny();
        long bytes = draft.resultJson().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > settings.maxEntryBytes()) {
            throw new ContentTooLarge("result", bytes, settings.maxEntryBytes());
        }
        // the decoded strings are scanned, not the JSON text: escapes ("\n", "\u0041") would hide a secret's edges
        List<Finding> findings = new java.util.ArrayList<>();
        strings(draft.result(), text -> findings.addAll(scanner.scan(text)));
        if (!findings.isEmpty()) {
            throw new SecretRejected(
                    "result",
                    findings,
                    "the tool cache refuses secrets whatever the team's policy (a cached result is replayed as it"
                            + " was, so it is never stored redacted)");
        }
        access.writable(caller, team, session);
        Instant now = clock.instant();
        String key = key(tool, canonical);
        CachedResult entry =
                new CachedResult(team, session, key, tool, draft.resultJson(), bytes, now, now.plus(ttl), validator);
        store.putEntry(entry);
        Handle level = level(team, session);
        level.hold(entry); // the byte cap applies now: evicted entries leave the shared level too
        return new Stored(key, bytes);
    }

    public Lookup lookup(Caller caller, Id team, Id session, LookupDraft draft) {
        CoarseClock.refresh(); // a request starts: its TTL checks must not use a time from before a freeze
        caller.requireMember(team);
        if (draft == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\"}");
        }
        Checks c = new Checks();
        String tool = tool(c, draft.tool());
        String canonical = params(c, draft.paramsJson());
        Validator validator = validator(c, draft.validator());
        c.throwIfAny();
        access.readable(caller, team, session);
        return lookupKey(team, session, key(tool, canonical), validator).agedAt(clock.instant());
    }

    /** The lookup once the key is known: the first level, then the shared one. */
    public Lookup lookupKey(Id team, Id session, String key, Validator validator) {
        return handle(team, session).lookup(key, validator);
    }

    /** The session's first level (created on first use, with the shared generation). */
    public Handle handle(Id team, Id session) {
        return sessions.get(
                new SessionKey(team, session),
                k -> new Handle(team, session, store.counters(team, session).generation()));
    }

    private record SessionKey(Id team, Id session) {}

    /** Not in the first level (or there with another validator): the shared level decides. */
    private Lookup slowLookup(Handle level, String key, Validator validator, CachedResult fromFirstLevel) {
        Instant now = clock.instant();
        CachedResult entry = fromFirstLevel;
        if (entry == null) {
            entry = store.entry(level.team, level.session, key).orElse(null);
            if (entry != null && !entry.expiredAt(now)) {
                level.hold(entry);
            }
        }
        if (entry == null) {
            level.misses.incrementAndGet();
            return Lookup.miss("miss");
        }
        if (entry.expiredAt(now)) {
            drop(level, entry);
            level.misses.incrementAndGet();
            return Lookup.miss("expired");
        }
        if (validator != null && !validator.equals(entry.validator())) {
            drop(level, entry); // the file or resource changed since: this result must not be served again
            level.misses.incrementAndGet();
            return Lookup.miss("stale");
        }
        level.hits.increment();
        return new Lookup(true, entry, null);
    }

    /** Removes the entries of tools whose name starts with {@code toolPrefix} (all when null); returns how many. */
    public int invalidate(Caller caller, Id team, Id session, String toolPrefix) {
        caller.requireMember(team);
        if (toolPrefix != null
                && !toolPrefix.isEmpty()
                && !TOOL.matcher(toolPrefix).matches()) {
            throw new InvalidInput("tool_prefix", "must be the beginning of a tool name ([A-Za-z0-9_.:-], up to 128)");
        }
        access.readable(caller, team, session); // a session nobody wrote to has nothing to invalidate
        Handle level = level(team, session);
        int removed = 0;
        for (CachedResult e : store.entries(team, session)) {
            if (toolPrefix == null || e.tool().startsWith(toolPrefix)) {
                removed += store.deleteEntry(team, session, e.key()) ? 1 : 0;
                level.entries.invalidate(e.key());
            }
        }
        level.flush(true, true);
        return removed;
    }

    public Stats stats(Caller caller, Id team, Id session) {
        access.readable(caller, team, session);
        Handle level = level(team, session);
        level.flush(true, false);
        Instant now = clock.instant();
        long entries = 0;
        long bytes = 0;
        for (CachedResult e : store.entries(team, session)) {
            if (!e.expiredAt(now)) {
                entries++;
                bytes += e.bytes();
            }
        }
        SessionCacheStore.Counters c = store.counters(team, session);
        return new Stats(entries, bytes, c.hits(), c.misses(), c.evictions());
    }

    /** The cache key: tool name and the SHA-256 of the canonical params, hex. */
    public static String key(String tool, String canonicalParams) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(tool.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(canonicalParams.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every string in a JSON value, member names included. */
    private static void strings(Object value, java.util.function.Consumer<String> sink) {
        if (value instanceof String s) {
            sink.accept(s);
        } else if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                strings(k, sink);
                strings(v, sink);
            });
        } else if (value instanceof List<?> l) {
            l.forEach(v -> strings(v, sink));
        }
    }

    private void drop(Handle level, CachedResult entry) {
        level.entries.invalidate(entry.key());
        store.deleteEntry(entry.team(), entry.session(), entry.key());
    }

    private Handle level(Id team, Id session) {
        return handle(team, session);
    }

    /** A first-level entry, its expiry on the monotonic clock, and the answer to a hit on it. */
    private record Held(CachedResult entry, long deadline, Lookup hit) {
        Held(CachedResult entry, long deadline) {
            this(entry, deadline, new Lookup(true, entry, null));
        }
    }

    private static String tool(Checks c, String raw) {
        if (raw == null) {
            c.fail("tool", "is required");
            return null;
        }
        if (!TOOL.matcher(raw).matches()) {
            c.fail(
                    "tool",
                    "must be 1–128 characters of A–Z, a–z, 0–9, '_', '.', ':' or '-', starting with a letter "
                            + "or digit");
            return null;
        }
        return raw;
    }

    private static String params(Checks c, String json) {
        if (json == null || json.equals("null")) {
            c.fail("params", "is required: a JSON object");
            return null;
        }
        if (!CanonicalJson.isObject(json)) {
            c.fail("params", "must be a JSON object");
            return null;
        }
        try {
            return CanonicalJson.canonicalize(json);
        } catch (CanonicalJson.NotJson e) {
            c.fail("params", e.getMessage());
            return null;
        }
    }

    private static Validator validator(Checks c, ValidatorDraft raw) {
        if (raw == null) {
            return null;
        }
        Validator.Kind kind = null;
        if (raw.kind() == null) {
            c.fail("validator.kind", "is required: mtime, etag or hash");
        } else {
            try {
                kind = Validator.Kind.fromWire(raw.kind());
            } catch (IllegalArgumentException e) {
                c.fail("validator.kind", "must be mtime, etag or hash (got '" + raw.kind() + "')");
            }
        }
        if (raw.value() == null || raw.value().isBlank() || raw.value().length() > MAX_VALIDATOR) {
            c.fail("validator.value", "is required, 1–" + MAX_VALIDATOR + " characters");
        }
        return kind == null || raw.value() == null ? null : new Validator(kind, raw.value());
    }
}
