package dev.cairn.model.cache;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.ListDraft;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.recall.RecallDraft;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Context assembly with prompt-cache planning ({@code GET .../context}).
 *
 * <p>Blocks go from most to least stable — system, tools, memories, rolling summary, recent messages — so the longest
 * possible prefix stays byte-identical from turn to turn: the tools are canonical JSON, memories are sorted by id and
 * carry no timestamps, nothing variable is put before what does not vary. Over {@code max_tokens}, the least valuable
 * content goes first: the lowest-ranked memories, then the oldest recent messages (the newest is always kept), then
 * the start of the summary; the system prompt and tools are never cut (a budget below them is refused).
 *
 * <p>The plan puts at most four cache breakpoints at stability boundaries — after the tools (1-hour TTL: they change
 * least), after the memories, after the summary and after the last message (5 minutes) — each only once the prefix
 * up to it reaches the model's minimum cacheable length; 1-hour breakpoints always precede 5-minute ones, as
 * Anthropic requires.
 *
 * <p>Every assembled context is stored as a snapshot of its turn (the session's message count): blocks by content
 * hash, written once per session, and one snapshot item listing them, so {@link #restore} reads a constant number
 * of items whatever the session's length.
 *
 * <p>A snapshot also lists the memories it showed (ids and the text shown), so a restore is faithful for the reader
 * who assembled it and never shows anyone a memory they could not recall themselves: each listed memory is read again
 * as the reader, and the memories block is rebuilt without those that are now invisible to them (another user's,
 * deleted, or archived).
 */
public final class ContextAssembler {

    public static final int MAX_BREAKPOINTS = 4;

    /**
     * @param minCacheable   minimum cacheable prefix per model name (contained in the model id; longest wins)
     * @param defaultMinimum when no configured name matches
     * @param memories       memories recalled (with a query) or listed by importance (without) into the context
     * @param defaultMaxTokens the budget when a request names none
     */
    public record Settings(Map<String, Integer> minCacheable, int defaultMinimum, int memories, int defaultMaxTokens) {
        public Settings {
            minCacheable = Map.copyOf(minCacheable);
        }
    }

    public record PrefixDraft(String system, String toolsJson, String model) {}

    /** One block of an assembled context; {@code cacheTtl} non-null where a breakpoint follows it. */
    public record Block(String kind, String text, int tokens, String cacheTtl) {

        /**
         * The block's Anthropic {@code cache_control} — {@code {"type": "ephemeral"}}, plus {@code "ttl": "1h"} for
         * a one-hour breakpoint (five minutes is the provider's default and is not spelled out) — or null when no
         * breakpoint follows the block.
         */
        public Map<String, String> cacheControl() {
            if (cacheTtl == null) {
                return null;
            }
            return cacheTtl.equals("1h") ? Map.of("type", "ephemeral", "ttl", "1h") : Map.of("type", "ephemeral");
        }
    }

    public record Plan(int breakpoints, int stablePrefixTokens, int minCacheableTokens, String ttl) {}

    public record Context(long turn, String model, List<Block> blocks, Plan plan, List<Memory> memories) {}

    private static final int MAX_SYSTEM_BYTES = 256 * 1024;

    /**
     * The kind of the snapshot block that lists the memories shown (one line each: id, type, the content shown), kept
     * among the blocks so that every store keeps it without a schema change; never returned as a block.
     */
    static final String MEMORY_INDEX = "memory-index";

    private final SessionService sessions;
    private final RecallService recall;
    private final MemoryService memories;
    private final SessionCacheStore store;
    private final Clock clock;
    private final Settings settings;
    private final SecretGate secrets;

    public ContextAssembler(
            SessionService sessions,
            RecallService recall,
            MemoryService memories,
            SessionCacheStore store,
            SecretGate secrets,
            Clock clock,
            Settings settings) {
        this.secrets = secrets;
        this.sessions = sessions;
        this.recall = recall;
        this.memories = memories;
        this.store = store;
        this.clock = clock;
        this.settings = settings;
    }

    /** Sets the session's stable inputs: system prompt, tool definitions (a JSON array), model. */
    public ContextPrefix setPrefix(Caller caller, Id team, Id session, PrefixDraft draft) {
        caller.requireMember(team);
        if (draft == null) {
            throw new InvalidInput("body", "is required: {system, tools, model}");
        }
        dev.cairn.model.validation.Checks c = new dev.cairn.model.validation.Checks();
        if (draft.system() != null && draft.system().getBytes(StandardCharsets.UTF_8).length > MAX_SYSTEM_BYTES) {
            c.fail("system", "is over " + MAX_SYSTEM_BYTES + " bytes");
        }
        String tools = "";
        if (draft.toolsJson() != null && !draft.toolsJson().equals("null")) {
            if (!CanonicalJson.isArray(draft.toolsJson())) {
                c.fail("tools", "must be a JSON array of tool definitions");
            } else {
                try {
                    tools = CanonicalJson.canonicalize(draft.toolsJson());
                    tools = tools.equals("[]") ? "" : tools;
                } catch (CanonicalJson.NotJson e) {
                    c.fail("tools", e.getMessage());
                }
                if (tools.getBytes(StandardCharsets.UTF_8).length > MAX_SYSTEM_BYTES) {
                    c.fail("tools", "are over " + MAX_SYSTEM_BYTES + " bytes");
                }
            }
        }
        if (draft.model() != null && !draft.model().matches("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}")) {
            c.fail("model", "must be a model id of up to 200 characters");
        }
        c.throwIfAny();
        sessions.access().writable(caller, team, session);
        // the system prompt follows the team's secret policy; tool definitions are JSON, which a redaction could
        // break, so a secret in them is refused whatever the policy
        String system = draft.system() == null
                ? ""
                : secrets.screen(team, "system", draft.system()).text();
        List<dev.cairn.model.secret.Finding> inTools = secrets.scanner().scan(tools);
        if (!inTools.isEmpty()) {
            throw new dev.cairn.model.secret.SecretRejected("tools", inTools);
        }
        ContextPrefix prefix = new ContextPrefix(system, tools, draft.model() == null ? "" : draft.model());
        store.putPrefix(team, session, prefix);
        return prefix;
    }

    public Context assemble(Caller caller, Id team, Id session, String query, Integer maxTokens) {
        return assemble(caller, team, session, query, maxTokens, true);
    }

    /**
     * As {@link #assemble(Caller, Id, Id, String, Integer)}; with {@code keepSnapshot} false the context is a preview
     * (a budget probe, say) and the turn's snapshot is left as it was. A new user's trial probed with a small
     * {@code max_tokens} before the real call and found the probe had replaced what the turn had sent; the preview
     * needs only read access to the session.
     */
    public Context assemble(Caller caller, Id team, Id session, String query, Integer maxTokens, boolean keepSnapshot) {
        caller.requireMember(team);
        int budget = maxTokens == null ? settings.defaultMaxTokens() : maxTokens;
        if (maxTokens != null && (maxTokens < 1 || maxTokens > 10_000_000)) {
            throw new InvalidInput("max_tokens", "must be between 1 and 10000000");
        }
        if (query != null && query.isBlank()) {
            throw new InvalidInput("query", "must not be blank when given");
        }
        if (keepSnapshot) {
            sessions.access().writable(caller, team, session); // the assembled context is stored as the turn's snapshot
        }
        SessionService.View view = sessions.get(caller, team, session);
        ContextPrefix prefix = store.prefix(team, session).orElse(new ContextPrefix("", "", ""));

        List<Memory> ranked = relevant(caller, team, query);
        String system = prefix.system();
        String tools = prefix.tools().isEmpty() ? "" : "Tools:\n" + prefix.tools();
        int fixed = TokenEstimate.of(system) + TokenEstimate.of(tools);
        if (fixed > budget) {
            throw new InvalidInput(
                    "max_tokens", "is " + budget + " but the system prompt and tools alone take " + fixed + " tokens");
        }
        List<SessionMessage> recent = new ArrayList<>(view.recentMessages());
        String summary = view.rollingSummary();
        // least valuable first: lowest-ranked memories, oldest messages (never the newest), the summary's start
        while (total(system, tools, ranked, summary, recent) > budget) {
            if (!ranked.isEmpty()) {
                ranked.remove(ranked.size() - 1);
            } else if (recent.size() > 1) {
                recent.remove(0);
            } else if (!summary.isEmpty()) {
                int cut = Math.max(1, summary.length() / 4);
                summary = summary.length() <= cut ? "" : summary.substring(cut);
            } else if (!recent.isEmpty()) {
                recent.remove(0);
            } else {
                break;
            }
        }
        List<Memory> shown = new ArrayList<>(ranked);
        shown.sort(Comparator.comparing(m -> m.id().value())); // deterministic: ranking scores vary, ids do not
        List<Block> blocks = new ArrayList<>();
        add(blocks, "system", system);
        add(blocks, "tools", tools);
        add(blocks, "memories", memoriesText(shown));
        add(blocks, "summary", summaryText(summary));
        for (SessionMessage m : recent) { // one block per message, as in a Messages request: earlier turns stay cached
            add(blocks, "messages", transcript(List.of(m)));
        }
        int minimum = minimumFor(prefix.model());
        List<Block> planned = plan(blocks, minimum);
        Context context = new Context(view.messageCount(), prefix.model(), planned, planOf(planned, minimum), shown);
        if (keepSnapshot) {
            snapshot(team, session, context, budget, shown);
        }
        return context;
    }

    /**
     * The context as it was assembled for {@code turn}, as far as the reader may see it: memories they could not
     * recall now (another user's, deleted, archived) are left out of the memories block and the list.
     */
    public Context restore(Caller caller, Id team, Id session, long turn) {
        NotFound none = new NotFound("context snapshot of turn " + turn + " in session " + session);
        if (sessions.access().readable(caller, team, session).isEmpty()) {
            throw none;
        }
        ContextSnapshot s = store.snapshot(team, session, turn).orElseThrow(() -> none);
        Map<String, String> texts = store.blocks(
                team,
                session,
                s.blocks().stream().map(ContextSnapshot.Block::hash).toList());
        String index = s.blocks().stream()
                .filter(b -> b.kind().equals(MEMORY_INDEX))
                .map(b -> texts.getOrDefault(b.hash(), ""))
                .findFirst()
                .orElse(null);
        List<MemoryRef> refs = index == null ? List.of() : MemoryRef.decode(index);
        List<Memory> visible = new ArrayList<>();
        for (MemoryRef ref : refs) {
            try {
                Memory now = memories.get(caller, team, new Id(ref.id()));
                if (now.isCurrent()) {
                    // the text shown at the time
                    visible.add(now.withContent(secrets.forRead(ref.content()))
                            .withContext(ref.context() == null ? null : secrets.forRead(ref.context())));
                }
            } catch (NotFound e) {
                // another user's, or deleted since: the reader could not recall it, so it is not shown
            }
        }
        List<Block> blocks = new ArrayList<>();
        for (ContextSnapshot.Block b : s.blocks()) {
            if (b.kind().equals(MEMORY_INDEX)) {
                continue;
            }
            String text = texts.getOrDefault(b.hash(), "");
            if (b.kind().equals("memories") && (index == null || visible.size() < refs.size())) {
                // a snapshot from before memory indexes cannot be checked; otherwise only what the reader may see
                text = index == null ? "" : memoriesText(visible);
                if (text.isEmpty()) {
                    continue;
                }
                blocks.add(new Block(b.kind(), text, TokenEstimate.of(text), b.cacheTtl()));
                continue;
            }
            blocks.add(new Block(b.kind(), text, b.tokens(), b.cacheTtl()));
        }
        int minimum = minimumFor(s.model());
        return new Context(s.turn(), s.model(), blocks, planOf(blocks, minimum), visible);
    }

    /**
     * A memory as a snapshot lists it: its id, type, the content the context showed and the context shown under it
     * (null when it had none). The context is a fourth field only when present, so snapshots written before memories
     * had contexts decode unchanged.
     */
    record MemoryRef(String id, String type, String content, String context) {

        static MemoryRef of(Memory m) {
            return new MemoryRef(m.id().value(), m.type().wire(), m.content(), m.context());
        }

        String encode() {
            return id + '\t' + type + '\t' + escape(content) + (context == null ? "" : '\t' + escape(context)) + '\n';
        }

        static List<MemoryRef> decode(String text) {
            List<MemoryRef> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                String[] p = line.split("\t", 4);
                if (p.length >= 3) {
                    out.add(new MemoryRef(p[0], p[1], unescape(p[2]), p.length == 4 ? unescape(p[3]) : null));
                }
            }
            return out;
        }

        /** Tabs, newlines and backslashes escaped, so a content is one field of one line. */
        static String escape(String s) {
            return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
        }

        static String unescape(String s) {
            StringBuilder b = new StringBuilder(s.length());
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    char n = s.charAt(++i);
                    b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
    }

    /** Places the breakpoints: at most four, at stability boundaries, once the prefix is long enough. */
    static List<Block> plan(List<Block> blocks, int minimum) {
        List<Block> out = new ArrayList<>(blocks.size());
        int cumulative = 0;
        int placed = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            cumulative += b.tokens();
            // a breakpoint closes each kind of block: the system prompt only when no tools follow, the messages at the
            // last one (the provider finds the previous turn's prefix by looking back over block boundaries)
            boolean boundary = i + 1 >= blocks.size()
                    || !blocks.get(i + 1).kind().equals(b.kind())
                            && !(b.kind().equals("system")
                                    && blocks.get(i + 1).kind().equals("tools"));
            String ttl = null;
            if (boundary && cumulative >= minimum && placed < MAX_BREAKPOINTS) {
                ttl = b.kind().equals("system") || b.kind().equals("tools") ? "1h" : "5m";
                placed++;
            }
            out.add(new Block(b.kind(), b.text(), b.tokens(), ttl));
        }
        return out;
    }

    static Plan planOf(List<Block> blocks, int minimum) {
        int breakpoints = 0;
        int stable = 0;
        int cumulative = 0;
        String ttl = null;
        for (Block b : blocks) {
            cumulative += b.tokens();
            if (b.cacheTtl() != null) {
                breakpoints++;
                if (ttl == null) {
                    ttl = b.cacheTtl();
                }
                if (!b.kind().equals("messages")) {
                    stable = cumulative; // what stays the same from one turn to the next
                }
            }
        }
        return new Plan(breakpoints, stable, minimum, ttl);
    }

    int minimumFor(String model) {
        String best = null;
        for (String name : settings.minCacheable().keySet()) {
            if (model != null && model.contains(name) && (best == null || name.length() > best.length())) {
                best = name;
            }
        }
        return best == null
                ? settings.defaultMinimum()
                : settings.minCacheable().get(best);
    }

    private List<Memory> relevant(Caller caller, Id team, String query) {
        if (settings.memories() == 0) {
            return new ArrayList<>();
        }
        if (query != null) {
            RecallResult r = recall.recall(
                    caller,
                    team,
                    new RecallDraft(query, settings.memories(), null, null, null, null, null, null, null));
            return new ArrayList<>(
                    r.hits().stream().map(RecallResult.Hit::memory).toList());
        }
        return new ArrayList<>(memories
                .list(caller, team, new ListDraft(null, null, null, "importance", settings.memories(), null))
                .memories()
                .stream()
                .filter(Memory::isCurrent)
                .toList());
    }

    private void snapshot(Id team, Id session, Context context, int budget, List<Memory> shown) {
        Map<String, String> byHash = new LinkedHashMap<>();
        List<ContextSnapshot.Block> refs = new ArrayList<>();
        for (Block b : context.blocks()) {
            String hash = sha256(b.text());
            byHash.putIfAbsent(hash, b.text());
            refs.add(new ContextSnapshot.Block(b.kind(), hash, b.tokens(), b.cacheTtl()));
        }
        if (!shown.isEmpty()) {
            StringBuilder index = new StringBuilder();
            for (Memory m : shown) {
                index.append(MemoryRef.of(m).encode());
            }
            String hash = sha256(index.toString());
            byHash.putIfAbsent(hash, index.toString());
            refs.add(new ContextSnapshot.Block(MEMORY_INDEX, hash, 0, null));
            // before the snapshot: a snapshot that embeds a memory is always findable when that memory is deleted
            store.recordShown(
                    team,
                    session,
                    context.turn(),
                    shown.stream().map(Memory::id).toList());
        }
        store.putSnapshot(
                team,
                session,
                new ContextSnapshot(context.turn(), clock.instant(), context.model(), budget, refs),
                byHash);
    }

    private static void add(List<Block> blocks, String kind, String text) {
        if (!text.isEmpty()) {
            blocks.add(new Block(kind, text, TokenEstimate.of(text), null));
        }
    }

    /**
     * The tokens of the blocks {@link #assemble} would return for these parts, block by block as they are built, so
     * that a context fits {@code max_tokens} exactly: the blocks' {@code tokens} add up to at most the budget.
     */
    private static int total(
            String system, String tools, List<Memory> memories, String summary, List<SessionMessage> recent) {
        int tokens = TokenEstimate.of(system)
                + TokenEstimate.of(tools)
                + TokenEstimate.of(memoriesText(memories))
                + TokenEstimate.of(summaryText(summary));
        for (SessionMessage m : recent) {
            tokens += TokenEstimate.of(transcript(List.of(m)));
        }
        return tokens;
    }

    private static String summaryText(String summary) {
        return summary.isEmpty() ? "" : "Summary of the conversation so far:\n" + summary;
    }

    private static String memoriesText(List<Memory> memories) {
        return memoriesBlock(memories.stream().map(MemoryRef::of).toList());
    }

    /** The memories block as a context shows it, from the snapshot's list of what it showed. */
    static String memoriesBlock(List<MemoryRef> memories) {
        if (memories.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("What you remember about this user and team:\n");
        for (MemoryRef m : memories) {
            b.append("- (").append(m.type()).append(") ").append(m.content()).append('\n');
            if (m.context() != null) {
                // what the memory was said with (a turn's reply): recall may have found it by this text, so the model
                // sees why it is here; indented so it reads as part of the line above
                b.append("  context: ")
                        .append(m.context().replace("\n", "\n  "))
                        .append('\n');
            }
        }
        return b.toString();
    }

    private static String transcript(List<SessionMessage> recent) {
        StringBuilder b = new StringBuilder();
        for (SessionMessage m : recent) {
            b.append(m.role().name().toLowerCase(Locale.ROOT))
                    .append(": ")
                    .append(m.content())
                    .append('\n');
        }
        return b.toString();
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
