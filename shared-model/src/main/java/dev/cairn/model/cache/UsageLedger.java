package dev.cairn.model.cache;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.session.SessionAccess;
import dev.cairn.model.validation.Checks;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The usage ledger: agents post the usage fields of each model response; Cairn reports the session's cache hit ratio
 * and what it cost with prompt caching against what the same tokens would have cost without.
 *
 * <p>Prices are per million tokens, per model (the longest configured name contained in the model id wins, so
 * {@code claude-sonnet-4-5} prices both {@code claude-sonnet-4-5-20250929} and the Bedrock id
 * {@code us.anthropic.claude-sonnet-4-5-20250929-v1:0}). Cache writes cost {@code writeMultiplier} × input (1.25 for
 * Anthropic's 5-minute cache), cache reads {@code readMultiplier} × input (0.1).
 */
public final class UsageLedger {

    private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}");

    /** USD per million tokens. */
    public record Price(double input, double output) {}

    public record Settings(
            Map<String, Price> prices, double writeMultiplier, double readMultiplier, long maxTokensPerField) {
        public Settings {
            prices = Map.copyOf(prices);
        }
    }

    public record UsageDraft(
            String model,
            Long inputTokens,
            Long outputTokens,
            Long cacheCreationInputTokens,
            Long cacheReadInputTokens) {}

    public record Cost(double actual, double withoutCache, double saved) {}

    /** {@code unpriced}: models with usage but no configured price (their tokens count, their cost does not). */
    public record Report(
            long requests,
            UsageTotals totals,
            double cacheHitRatio,
            Cost cost,
            Map<String, UsageTotals> byModel,
            List<String> unpriced) {}

    /** The width of a series' buckets. */
    public enum Bucket {
        HOUR,
        DAY;

        /** {@code hour} or {@code day}; null means {@code hour}. */
        public static Bucket fromWire(String s) {
            if (s == null) {
                return HOUR;
            }
            for (Bucket b : values()) {
                if (b.wire().equals(s)) {
                    return b;
                }
            }
            throw new InvalidInput("bucket", "must be hour or day (got " + s + ")");
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The bucket's start holding {@code t} (UTC hours and days). */
        Instant start(Instant t) {
            return this == HOUR ? t.truncatedTo(ChronoUnit.HOURS) : t.truncatedTo(ChronoUnit.DAYS);
        }
    }

    /**
     * One model's usage in one bucket and what it cost ({@code cost} null when the model has no price).
     * {@code start}: the bucket's first instant, UTC.
     */
    public record Point(Instant start, String model, UsageTotals totals, Cost cost) {}

    /** The ledger over time: points with usage only, oldest first, then by model. */
    public record Series(Bucket bucket, Instant from, Instant to, List<Point> points) {}

    private final SessionCacheStore store;
    private final Settings settings;

    private final SessionAccess access;
    private final Clock clock;

    public UsageLedger(SessionCacheStore store, SessionAccess access, Settings settings) {
        this(store, access, settings, Clock.systemUTC());
    }

    public UsageLedger(SessionCacheStore store, SessionAccess access, Settings settings, Clock clock) {
        this.store = store;
        this.access = access;
        this.settings = settings;
        this.clock = clock;
    }

    public void record(Caller caller, Id team, Id session, UsageDraft draft) {
        caller.requireMember(team);
        if (draft == null) {
            throw new InvalidInput("body", "is required: {model, input_tokens, output_tokens, ...}");
        }
        Checks c = new Checks();
        if (draft.model() == null || !MODEL.matcher(draft.model()).matches()) {
            c.fail(
                    "model",
                    "is required: a model id of up to 200 characters (A–Z, a–z, 0–9, '.', '_', ':', '/', '@', "
                            + "'-')");
        }
        long in = tokens(c, "input_tokens", draft.inputTokens(), true);
        long out = tokens(c, "output_tokens", draft.outputTokens(), true);
        long write = tokens(c, "cache_creation_input_tokens", draft.cacheCreationInputTokens(), false);
        long read = tokens(c, "cache_read_input_tokens", draft.cacheReadInputTokens(), false);
        c.throwIfAny();
        access.writable(caller, team, session);
        store.addUsage(
                team,
                session,
                draft.model(),
                clock.instant().truncatedTo(ChronoUnit.HOURS),
                new UsageTotals(1, in, out, write, read));
    }

    public Report report(Caller caller, Id team, Id session) {
        access.readable(caller, team, session);
        Map<String, UsageTotals> byModel = new TreeMap<>(store.usage(team, session));
        UsageTotals totals = UsageTotals.ZERO;
        double actual = 0;
        double without = 0;
        List<String> unpriced = new ArrayList<>();
        for (Map.Entry<String, UsageTotals> e : byModel.entrySet()) {
            UsageTotals u = e.getValue();
            totals = totals.plus(u);
            Cost c = exactCost(e.getKey(), u);
            if (c == null) {
                unpriced.add(e.getKey());
                continue;
            }
            actual += c.actual();
            without += c.withoutCache();
        }
        double ratio =
                totals.allInputTokens() == 0 ? 0 : (double) totals.cacheReadInputTokens() / totals.allInputTokens();
        return new Report(
                totals.requests(),
                totals,
                ratio,
                new Cost(round(actual), round(without), round(without - actual)),
                byModel,
                unpriced);
    }

    /**
     * The session's usage over time, per model, in {@code bucket}s: the buckets from the one holding {@code from}
     * (default: the first usage) up to {@code to} (exclusive; default: now). Only buckets with usage are listed, so a
     * chart draws the gaps as zero.
     *
     * @throws InvalidInput when {@code from} is not before {@code to}
     */
    public Series series(Caller caller, Id team, Id session, Bucket bucket, Instant from, Instant to) {
        access.readable(caller, team, session);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidInput("from", "must be before to (got from " + from + ", to " + to + ")");
        }
        Instant start = from == null ? null : bucket.start(from);
        Map<Instant, Map<String, UsageTotals>> buckets = new TreeMap<>();
        for (HourlyUsage h : store.hourlyUsage(team, session)) {
            if ((start != null && h.hour().isBefore(start))
                    || (to != null && !h.hour().isBefore(to))) {
                continue;
            }
            buckets.computeIfAbsent(bucket.start(h.hour()), b -> new TreeMap<>())
                    .merge(h.model(), h.totals(), UsageTotals::plus);
        }
        List<Point> points = new ArrayList<>();
        buckets.forEach((b, models) -> models.forEach((model, u) -> {
            Cost c = exactCost(model, u);
            points.add(new Point(
                    b,
                    model,
                    u,
                    c == null ? null : new Cost(round(c.actual()), round(c.withoutCache()), round(c.saved()))));
        }));
        return new Series(bucket, start, to, points);
    }

    /** What {@code u} cost with caching and would have cost without, unrounded; null when {@code model} has no price. */
    private Cost exactCost(String model, UsageTotals u) {
        Price p = price(model);
        if (p == null) {
            return null;
        }
        double actual = (u.inputTokens() * p.input()
                        + u.outputTokens() * p.output()
                        + u.cacheCreationInputTokens() * p.input() * settings.writeMultiplier()
                        + u.cacheReadInputTokens() * p.input() * settings.readMultiplier())
                / 1e6;
        double without = (u.allInputTokens() * p.input() + u.outputTokens() * p.output()) / 1e6;
        return new Cost(actual, without, without - actual);
    }

    /** The price of the longest configured model name contained in {@code model}; null when none is. */
    Price price(String model) {
        String best = null;
        for (String name : settings.prices().keySet()) {
            if (model.contains(name) && (best == null || name.length() > best.length())) {
                best = name;
            }
        }
        return best == null ? null : settings.prices().get(best);
    }

    private long tokens(Checks c, String field, Long raw, boolean required) {
        if (raw == null) {
            if (required) {
                c.fail(field, "is required");
            }
            return 0;
        }
        if (raw < 0 || raw > settings.maxTokensPerField()) {
            c.fail(field, "must be between 0 and " + settings.maxTokensPerField() + " (got " + raw + ")");
            return 0;
        }
        return raw;
    }

    private static double round(double usd) {
        return Math.round(usd * 1e6) / 1e6;
    }
}
