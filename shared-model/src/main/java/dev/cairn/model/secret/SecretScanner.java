package dev.cairn.model.secret;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds secrets in text. Pure, thread-safe, no network: nothing is ever verified against a provider.
 *
 * <p>How a text is scanned, a chunk of 64 Ki characters at a time (so each step reads what the last one left in the
 * cache), cheapest step first:
 * <ol>
 *   <li>NFKC folding without a copy: nearly every character folds to one character ({@link Nfkc#FOLD}), so the
 *       patterns read a folded view and offsets are the original's. Only a text holding a character NFKC expands
 *       (ligatures, {@code ㎏}) is scanned as a normalised copy with an offset map.</li>
 *   <li>One keyword automaton ({@link KeywordIndex}, Aho-Corasick over character classes, four streams at once) finds
 *       the rules' keywords. Occurrences that no rule of the keyword can continue from the next character or two
 *       ({@link FollowGate}, learned from each anchored pattern) are dropped there.</li>
 *   <li>Each remaining occurrence runs its rule: anchored rules from the keyword on (the generic assignment and
 *       statement rules by a hand walk of their pattern, {@link AssignmentShape}; the rest by their regex), other
 *       rules on a window around it, overlapping windows merged.</li>
 *   <li>Each match's captured secret must not be a reference, placeholder or documented example, must pass the rule's
 *       entropy gate (measured on the secret only) and, for generic rules, must not be a hash, UUID or digest.</li>
 *   <li>Base64 runs (found by sampling) and percent-encoded tokens are decoded and scanned again (two levels at most);
 *       a secret inside reports the whole encoded token.</li>
 * </ol>
 * Where findings overlap, a vendor-specific rule wins over a generic one, then the longer finding.
 */
public final class SecretScanner {

    private static final int MAX_DEPTH = 2;
    private static final int LOOK_BEHIND = 128;
    /** What {@link #redact} puts before a rule id. */
    private static final String REDACTION_MARKER = "[REDACTED:";
    /** The shortest run of base64 characters worth decoding (18 bytes). */
    private static final int MIN_BASE64 = 24;

    private static final Pattern UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern HEX_DIGEST = Pattern.compile("(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{56}"
            + "|[0-9a-fA-F]{64}|[0-9a-fA-F]{96}|[0-9a-fA-F]{128})");
    private static final Pattern INTEGRITY = Pattern.compile("(?:sha(?:1|256|384|512))[-:][A-Za-z0-9+/=]+");
    private static final String[] PLACEHOLDERS = {
        "xxxx",
        "****",
        "...",
        "example",
        "placeholder",
        "your_",
        "your-",
        "yourpass",
        "yourtoken",
        "yourkey",
        "redacted",
        "dummy",
        "<",
        ">",
        "${",
        "{{",
        "$(",
        "%(",
        "changeit",
        "sample",
        "insert",
        "replace_me",
        "replace-me",
        "todo",
        "fixme",
        "******",
        "not-a-real",
        "will-not-work"
    };
    /**
     * Values the providers publish in their own documentation (Stripe's test key, jwt.io's signature): found in
     * tutorials and pasted examples, never anyone's credential.
     */
    private static final String[] DOCUMENTED_EXAMPLES = {
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "EXAMPLEKEY"
    };
    /**
     * Values that are placeholders only when they are the whole value (any case, trailing punctuation aside): the
     * conventional "replace me" default of templates and docs. Inside a longer value they are part of a password people
     * do use ({@code Changeme2024!}), so they are not in {@link #PLACEHOLDERS}.
     */
    private static final java.util.Set<String> WHOLE_PLACEHOLDERS =
            java.util.Set.of("changeme", "change_me", "change-me");
    /** The placeholders as one automaton: one pass over a candidate instead of a search per placeholder. */
    private static final KeywordIndex PLACEHOLDER_WORDS = new KeywordIndex(List.of(PLACEHOLDERS));
    /** Words that follow "password is" in sentences about passwords rather than in statements of one. */
    private static final java.util.Set<String> NOT_PASSWORDS = java.util.Set.of(
            "required",
            "incorrect",
            "wrong",
            "invalid",
            "correct",
            "expired",
            "stored",
            "saved",
            "missing",
            "empty",
            "reset",
            "changed",
            "strong",
            "weak",
            "hashed",
            "encrypted",
            "set",
            "not",
            "too",
            "the",
            "a",
            "an",
            "in",
            "on",
            "being",
            "now",
            "still",
            "also",
            "case-sensitive",
            "sensitive",
            "protected",
            "managed",
            "rotated",
            "valid",
            "needed",
            "secure",
            "insecure",
            "unknown",
            "different",
            "same",
            "optional",
            "mandatory",
            "shown",
            "hidden",
            "sent",
            "given",
            "generated",
            "provided",
            "only",
            "kept",
            "never",
            "always",
            "used",
            "at",
            "for",
            "from",
            "that",
            "this",
            "what",
            "which",
            "whatever",
            "configured",
            "defined",
            "updated",
            "long",
            "short",
            "ok",
            "fine",
            "good",
            "bad",
            "secret",
            "private",
            "length",
            "complex",
            "easy",
            "hard",
            "forgotten",
            "lost",
            "known",
            "locked",
            "blank",
            "null",
            "none",
            "unset",
            "expiring",
            "due",
            "your",
            "my",
            "his",
            "her",
            "their",
            "our",
            "test",
            // German, French, Spanish
            "falsch",
            "richtig",
            "erforderlich",
            "ungültig",
            "abgelaufen",
            "geändert",
            "leer",
            "sicher",
            "geheim",
            "requis",
            "obligatoire",
            "expiré",
            "invalide",
            "incorrecto",
            "incorrecta",
            "obligatoria",
            "requerida",
            "inválida",
            "invalida",
            "caducada",
            "segura");

    private static final int LONGEST_NOT_PASSWORD =
            NOT_PASSWORDS.stream().mapToInt(String::length).max().orElse(0);

    private final String version;
    private final List<SecretRule> rules;
    private final KeywordIndex keywords;
    private final int[][] rulesByKeyword;
    /** Per keyword, per rule in {@link #rulesByKeyword} (slot {@code gateSlot[k] + j}): what may follow the keyword. */
    private final FollowGate.Table gates;

    private final int[] gateSlot;
    private final int[] keywordLength;
    /** Per rule, the hand-run walk of its pattern where it has the assignment shape (else null: the regex runs). */
    private final AssignmentShape[] shapes;
    /** The automaton's index of {@code %}, the start of percent-encoded tokens. */
    private final int percentKeyword;

    private final Map<String, Boolean> generic = new HashMap<>();
    /** Per rule id, the format check its findings carry (rules without one are absent). */
    private final Map<String, String> checks = new HashMap<>();

    private final boolean hasChecks;

    public SecretScanner(SecretRules rules) {
        this(rules.version(), rules.rules());
    }

    /** A scanner of just these rules (tests of one rule, custom rule sets). */
    public static SecretScanner of(List<SecretRule> rules) {
        return new SecretScanner("custom", rules);
    }

    private SecretScanner(String version, List<SecretRule> ruleList) {
        this.version = version;
        this.rules = List.copyOf(ruleList);
        Map<String, List<Integer>> byKeyword = new HashMap<>();
        for (int i = 0; i < this.rules.size(); i++) {
            for (String k : this.rules.get(i).keywords()) {
                byKeyword.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
            }
        }
        List<String> words = new ArrayList<>(byKeyword.keySet());
        words.remove("%");
        words.add("%");
        byKeyword.putIfAbsent("%", new ArrayList<>());
        this.percentKeyword = words.size() - 1;
        this.rulesByKeyword = new int[words.size()][];
        for (int k = 0; k < words.size(); k++) {
            rulesByKeyword[k] = byKeyword.get(words.get(k)).stream()
                    .mapToInt(Integer::intValue)
                    .toArray();
        }
        this.gateSlot = new int[words.size()];
        this.keywordLength = new int[words.size()];
        List<FollowGate> slots = new ArrayList<>();
        for (int k = 0; k < words.size(); k++) {
            gateSlot[k] = slots.size();
            String folded = KeywordIndex.fold(words.get(k));
            keywordLength[k] = folded.length();
            for (int r : rulesByKeyword[k]) {
                SecretRule rule = this.rules.get(r);
                slots.add(rule.anchored() ? FollowGate.learn(rule.pattern(), folded) : null);
            }
        }
        this.gates = new FollowGate.Table(slots.toArray(new FollowGate[0]));
        // per keyword, what may follow it in a match of any of its rules: the automaton drops the other occurrences
        long[] keywordFollow = new long[words.size() * 4];
        for (int k = 0; k < words.size(); k++) {
            if (k == percentKeyword) {
                // % has no rule of its own: every occurrence is kept for decoding
                java.util.Arrays.fill(keywordFollow, k * 4, k * 4 + 4, -1L);
            }
            for (int j = 0; j < rulesByKeyword[k].length; j++) {
                gates.addFollowSets(gateSlot[k] + j, keywordFollow, k * 4);
            }
        }
        this.keywords = new KeywordIndex(words, keywordFollow);
        this.shapes = new AssignmentShape[this.rules.size()];
        for (int r = 0; r < this.rules.size(); r++) {
            generic.put(this.rules.get(r).id(), this.rules.get(r).generic());
            shapes[r] = AssignmentShape.recognize(this.rules.get(r));
            if (this.rules.get(r).check() != null) {
                checks.put(this.rules.get(r).id(), this.rules.get(r).check());
            }
        }
        this.hasChecks = !checks.isEmpty();
    }

    public static SecretScanner bundled() {
        return Holder.BUNDLED;
    }

    private static final class Holder {
        static final SecretScanner BUNDLED = new SecretScanner(SecretRules.bundled());
    }

    public List<SecretRule> rules() {
        return rules;
    }

    /** The version line of the rules file this scanner runs. */
    public String version() {
        return version;
    }

    /** The findings in {@code text}, ordered by position, not overlapping. */
    public List<Finding> scan(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<Finding> found = scan(text, 0);
        return hasChecks ? withChecks(text, found) : found;
    }

    /** The findings before their format checks run (what both scanning paths produce; for tests). */
    List<Finding> scanFindings(String text) {
        return scan(text, 0);
    }

    /** Runs each checked rule's format check on its findings (not on encoded ones: the span is the encoding). */
    private List<Finding> withChecks(String text, List<Finding> found) {
        List<Finding> out = null;
        for (int i = 0; i < found.size(); i++) {
            Finding f = found.get(i);
            String check = checks.get(f.ruleId());
            if (check == null || f.description().endsWith("-encoded)")) {
                continue;
            }
            if (out == null) {
                out = new ArrayList<>(found);
            }
            boolean passed = FormatCheck.passes(check, visibleFolded(text, f.start(), f.end()));
            // a card number that fails Luhn is another number: no finding (null, removed below)
            out.set(i, !passed && FormatCheck.decides(check) ? null : f.withCheck(check, passed));
        }
        if (out != null) {
            out.removeIf(java.util.Objects::isNull);
        }
        return out == null ? found : out;
    }

    /** {@code text[start, end)} as the patterns read it: NFKC-folded, without invisible characters. */
    private static String visibleFolded(String text, int start, int end) {
        StringBuilder b = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = Nfkc.FOLD[text.charAt(i)];
            if (c != Nfkc.EXPANDS) {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** {@code text} with each finding replaced by {@code [REDACTED:<rule_id>]}. */
    public static String redact(String text, List<Finding> findings) {
        if (findings.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (Finding f : findings) {
            out.append(text, at, f.start())
                    .append(REDACTION_MARKER)
                    .append(f.ruleId())
                    .append(']');
            at = f.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    private List<Finding> scan(String text, int depth) {
        Pass pass = new Pass(text, false, depth);
        return pass.run() ? pass.findings() : scanCopy(text, depth); // false: a character NFKC expands
    }

    /** The general way: scan a normalised copy of the text and map the offsets back. */
    List<Finding> scanCopy(String text, int depth) {
        Nfkc.Mapped n = Nfkc.Mapped.of(text);
        Pass pass = new Pass(n.text(), true, depth);
        pass.run();
        List<Finding> mapped = new ArrayList<>();
        for (Finding f : pass.findings()) {
            mapped.add(new Finding(f.ruleId(), f.description(), n.originalStart(f.start()), n.originalEnd(f.end())));
        }
        return mapped;
    }

    /**
     * One scan of one text, a chunk at a time: the keyword automaton, the rules at the chunk's keywords and the base64
     * sampling all read a chunk while it is in the cache, instead of three passes over the whole text (on 50 MB,
     * each later pass would wait on memory for nearly every keyword it revisits). Each rule keeps its state from
     * chunk to chunk (where its last match ended, the window it is widening), so the result is that of one pass over
     * the whole text in order. Encoded tokens are decoded at the end, when every rule's findings are known.
     */
    private final class Pass {
        private static final int CHUNK = 1 << 16;

        private final String raw;
        private final Nfkc.Folded text;
        private final int depth;
        private final Occurrences hits;
        private final List<Finding> found = new ArrayList<>();
        /** Per anchored rule: where its last match ended (occurrences before it are inside it). */
        private final int[] lastEnd;
        /** Per windowed rule: the window being widened by nearby occurrences, {@code windowTo < 0} if none. */
        private final int[] windowFrom;

        private final int[] windowTo;
        private final Matcher[] matchers;
        /** The next base64 sample, and the base64 candidates (start, end, run end) worth decoding. */
        private int sample = MIN_BASE64 - 1;

        private int[] candidates = new int[12];
        private int candidateCount;

        Pass(String raw, boolean normalized, int depth) {
            this.raw = raw;
            this.text = new Nfkc.Folded(raw);
            this.depth = depth;
            this.hits = new Occurrences(raw, normalized);
            this.lastEnd = new int[rules.size()];
            this.windowFrom = new int[rules.size()];
            this.windowTo = new int[rules.size()];
            this.matchers = new Matcher[rules.size()];
            java.util.Arrays.fill(lastEnd, -1);
            java.util.Arrays.fill(windowTo, -1);
        }

        /** False if the text holds a character NFKC expands: then nothing was decided, the caller copies. */
        boolean run() {
            int n = raw.length();
            for (int from = 0; from < n; from += CHUNK) {
                int to = Math.min(n, from + CHUNK);
                hits.reset();
                keywords.scan(raw, from, to, hits);
                if (hits.needsCopy) {
                    return false;
                }
                hits.merge();
                for (int r = 0; r < rules.size(); r++) {
                    if (hits.counts[r] > 0) {
                        rule(r, hits.starts[r], hits.counts[r]);
                    }
                }
                if (depth < MAX_DEPTH) {
                    sampleBase64(to);
                }
            }
            for (int r = 0; r < rules.size(); r++) {
                if (windowTo[r] >= 0) {
                    searchWindow(r);
                }
            }
            return true;
        }

        List<Finding> findings() {
            if (depth < MAX_DEPTH) {
                decodeCandidates();
            }
            return resolveOverlaps(found);
        }

        /** Rule {@code r} at its keyword occurrences of one chunk, in order. */
        private void rule(int r, int[] starts, int count) {
            SecretRule rule = rules.get(r);
            java.util.Arrays.sort(
                    starts, 0, count); // nearly sorted already: keywords of unequal length ending in order
            if (!rule.anchored()) {
                // windows around the occurrences, overlapping ones merged: a match across two windows is in the merge
                for (int i = 0; i < count; i++) {
                    int from = Math.max(0, starts[i] - LOOK_BEHIND);
                    int to = Math.min(text.length(), starts[i] + rule.span());
                    if (windowTo[r] >= 0 && from < windowTo[r]) {
                        windowTo[r] = to;
                        continue;
                    }
                    if (windowTo[r] >= 0) {
                        searchWindow(r);
                    }
                    windowFrom[r] = from;
                    windowTo[r] = to;
                }
                return;
            }
            AssignmentShape shape = shapes[r];
            for (int i = 0; i < count; i++) {
                int at = starts[i];
                if (at < lastEnd[r]) {
                    continue; // inside the previous match
                }
                int limit = Math.min(text.length(), at + rule.span());
                long match = shape == null ? AssignmentShape.ASK_THE_REGEX : shape.match(text, at, limit);
                if (match == AssignmentShape.ASK_THE_REGEX) {
                    Matcher m = matcher(r);
                    m.region(at, limit);
                    if (!m.lookingAt()) {
                        continue;
                    }
                    int g = rule.group();
                    if (m.start(g) >= 0 && isKeyName(rule, m.end(g))) {
                        continue; // the next key's own value may hold the secret: occurrences inside stay live
                    }
                    lastEnd[r] = m.end();
                    if (m.start(g) >= 0 && !isRedactionMarker(m.start(g)) && accepted(rule, m.group(g))) {
                        found.add(new Finding(rule.id(), rule.description(), m.start(g), m.end(g)));
                    }
                } else if (match >= 0) {
                    int start = (int) (match >>> 32);
                    if (isKeyName(rule, (int) match)) {
                        continue;
                    }
                    lastEnd[r] = (int) match; // the shapes' matches end where their secret ends
                    String value = text.subSequence(start, (int) match).toString();
                    if (!isRedactionMarker(start) && accepted(rule, value)) {
                        found.add(new Finding(rule.id(), rule.description(), start, (int) match));
                    }
                }
            }
        }

        private void searchWindow(int r) {
            SecretRule rule = rules.get(r);
            Matcher m = matcher(r);
            m.region(windowFrom[r], windowTo[r]);
            int g = rule.group();
            while (m.find()) {
                if (m.start(g) >= 0
                        && !isKeyName(rule, m.end(g))
                        && !isRedactionMarker(m.start(g))
                        && accepted(rule, m.group(g))) {
                    found.add(new Finding(rule.id(), rule.description(), m.start(g), m.end(g)));
                }
            }
            windowTo[r] = -1;
        }

        /**
         * A generic rule's value followed by a colon and a space or line end is the next key of a mapping, not a value:
         * {@code credentials:\n  githubToken: "..."} (YAML), where the pattern's spaces crossed the line break.
         */
        private boolean isKeyName(SecretRule rule, int end) {
            if (!rule.generic() || end >= text.length() || text.charAt(end) != ':') {
                return false;
            }
            return end + 1 == text.length() || Character.isWhitespace(text.charAt(end + 1));
        }

        /**
         * A value right after {@code [REDACTED:} is the rule id of an earlier redaction, not a secret: "the password for
         * the router is [REDACTED:prose-password-word]" was flagged again by prose-credential-set-en, whose "for ..."
         * words reached past "is" to the marker's colon, and a stored redaction would have been redacted twice.
         */
        private boolean isRedactionMarker(int start) {
            int from = start - REDACTION_MARKER.length();
            if (from < 0 || text.charAt(start - 1) != ':') {
                return false;
            }
            for (int i = 0; i < REDACTION_MARKER.length(); i++) {
                if (text.charAt(from + i) != REDACTION_MARKER.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private Matcher matcher(int r) {
            Matcher m = matchers[r];
            if (m == null) {
                m = matchers[r] = rules.get(r).pattern().matcher(text);
                m.useTransparentBounds(true).useAnchoringBounds(false);
            }
            return m;
        }

        /** The base64 sampling of {@link SecretScanner#sampleBase64}, continued up to {@code to}. */
        private void sampleBase64(int to) {
            sample = SecretScanner.sampleBase64(raw, sample, to, this);
        }

        void candidate(int start, int end) {
            if (candidateCount + 2 > candidates.length) {
                candidates = java.util.Arrays.copyOf(candidates, candidates.length * 2);
            }
            candidates[candidateCount++] = start;
            candidates[candidateCount++] = end;
        }

        /** Base64 candidates and percent-encoded tokens not inside a finding: decoded and scanned again. */
        private void decodeCandidates() {
            Taken taken = new Taken(found);
            for (int k = 0; k < candidateCount; k += 2) {
                int start = candidates[k];
                int end = candidates[k + 1];
                if (taken.overlaps(start, end)) {
                    continue;
                }
                String decoded = decodeBase64(text.subSequence(start, end).toString());
                if (decoded != null) {
                    for (Finding inner : scan(decoded, depth + 1)) {
                        found.add(new Finding(inner.ruleId(), inner.description() + " (base64-encoded)", start, end));
                        break;
                    }
                }
            }
            // percent-encoded tokens: the maximal run of token characters around each %XX the automaton saw
            int[] percents = hits.percents();
            java.util.Arrays.sort(percents);
            int n = text.length();
            int doneUntil = -1;
            for (int at : percents) {
                if (at < doneUntil || at + 2 >= n || !isHex(text.charAt(at + 1)) || !isHex(text.charAt(at + 2))) {
                    continue;
                }
                int start = at;
                while (start > 0 && start > doneUntil && isTokenChar(text.charAt(start - 1))) {
                    start--;
                }
                int end = at + 3;
                while (end < n && isTokenChar(text.charAt(end))) {
                    end++;
                }
                doneUntil = end;
                if (taken.overlaps(start, end)) {
                    continue;
                }
                String token = text.subSequence(start, end).toString();
                String decoded;
                try {
                    decoded = URLDecoder.decode(token.replace("+", "%2B"), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (!decoded.equals(token)) {
                    for (Finding inner : scan(decoded, depth + 1)) {
                        found.add(new Finding(inner.ruleId(), inner.description() + " (percent-encoded)", start, end));
                        break;
                    }
                }
            }
        }
    }

    /**
     * A chunk's keyword occurrences: per rule where its keywords start (after the follow gates), where a {@code %}
     * occurs (for the whole text), and whether a character needs the normalised copy. Buffers are reused chunk after
     * chunk.
     */
    private final class Occurrences implements KeywordIndex.Hits {
        final String text;
        final boolean normalized;
        /** Per rule, where its keywords start in this chunk, in order (after {@link #merge}). */
        final int[][] starts = new int[rules.size()][];

        final int[] counts = new int[rules.size()];
        boolean needsCopy;
        private int[] percents = new int[0];
        private int percentCount;
        /** Per automaton stream, per rule: the starts it reported, in the order of the text. */
        private final int[][][] parts = new int[4][rules.size()][];

        private final int[][] partCounts = new int[4][rules.size()];

        Occurrences(String text, boolean normalized) {
            this.text = text;
            this.normalized = normalized;
        }

        void reset() {
            for (int j = 0; j < 4; j++) {
                java.util.Arrays.fill(partCounts[j], 0);
            }
            java.util.Arrays.fill(counts, 0);
        }

        int[] percents() {
            return java.util.Arrays.copyOf(percents, percentCount);
        }

        @Override
        public void at(int keyword, int start) {
            at(keyword, start, 0);
        }

        @Override
        public void at(int keyword, int start, int stream) {
            if (keyword == KeywordIndex.SPECIAL) {
                needsCopy |= !normalized && !foldsOneForOne(text, start);
                return;
            }
            if (keyword == percentKeyword) {
                if (percentCount == percents.length) {
                    percents = java.util.Arrays.copyOf(percents, Math.max(8, percentCount * 2));
                }
                percents[percentCount++] = start;
            }
            int[] triggered = rulesByKeyword[keyword];
            int slot = gateSlot[keyword];
            int length = keywordLength[keyword];
            for (int j = 0; j < triggered.length; j++) {
                if (!gates.mayMatch(slot + j, text, start, length)) {
                    continue; // what follows the keyword here cannot continue a match of this rule
                }
                int r = triggered[j];
                int[] counted = partCounts[stream];
                int[] list = parts[stream][r];
                if (list == null) {
                    list = parts[stream][r] = new int[8];
                } else if (counted[r] == list.length) {
                    list = parts[stream][r] = java.util.Arrays.copyOf(list, list.length * 2);
                }
                list[counted[r]++] = start;
            }
        }

        /** The streams' lists of each rule, one after the other: the text's order (nearly; see the sort in Pass). */
        void merge() {
            for (int r = 0; r < rules.size(); r++) {
                int total = partCounts[0][r] + partCounts[1][r] + partCounts[2][r] + partCounts[3][r];
                if (total == 0) {
                    continue;
                }
                int[] all = starts[r];
                if (all == null || all.length < total) {
                    all = starts[r] = new int[Math.max(total, all == null ? 8 : all.length * 2)];
                }
                int at = 0;
                for (int j = 0; j < 4; j++) {
                    if (partCounts[j][r] > 0) {
                        System.arraycopy(parts[j][r], 0, all, at, partCounts[j][r]);
                        at += partCounts[j][r];
                    }
                }
                counts[r] = total;
            }
        }
    }

    /** A special character (see {@link KeywordIndex#SPECIAL}) that needs no copy: a supplementary one NFKC keeps. */
    private static boolean foldsOneForOne(String text, int at) {
        char c = text.charAt(at);
        if (!Character.isHighSurrogate(c)) {
            return false; // a character NFKC expands
        }
        if (at + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(at + 1))) {
            return true; // a lone surrogate: nothing to fold
        }
        return Nfkc.stableSupplementary(Character.toCodePoint(c, text.charAt(at + 1)));
    }

    private boolean accepted(SecretRule rule, String secret) {
        // Every test must pass; the cheapest and most often failing go first. Most matches of the generic rules in
        // code are references (request.getHeader(...), os.environ[...], OPENAI_API_KEY), rejected in a few nanoseconds.
        if (secret.isEmpty() || isReference(secret)) {
            return false; // a variable or a path names where the secret is, it is not the secret
        }
        if (rule.generic()) {
            if (isCodeReference(secret) || isEnvName(secret) || secret.startsWith("ssh-") || secret.startsWith("$2")) {
                return false;
            }
            if (secret.length() < 16 && isLowerCaseWord(withoutSentencePunctuation(secret))) {
                // "set the password to production", "the password is there.": a word of prose, not a credential; the
                // full stop or comma of its sentence does not make it one (prose-password-word takes plain-word
                // passwords, without that punctuation, where the naming is explicit)
                return false;
            }
            if (isPublicValue(secret)) {
                return false; // publishable keys, OAuth client ids, file paths, vault references: public by design
            }
            if (secret.length() <= LONGEST_NOT_PASSWORD + 3
                    && NOT_PASSWORDS.contains(withoutTrailingPunctuation(secret).toLowerCase(Locale.ROOT))) {
                return false; // "the password is incorrect"
            }
        }
        if (PLACEHOLDER_WORDS.occursIn(secret)
                || secret.length() <= 12
                        && WHOLE_PLACEHOLDERS.contains(
                                withoutTrailingPunctuation(secret).toLowerCase(Locale.ROOT))
                || isDocumentedExample(secret)
                || secret.equalsIgnoreCase("akiaiosfodnn7example")
                || secret.regionMatches(true, 0, "wjalrxutnfemi/k7mdeng", 0, 21)) {
            return false; // placeholders and the providers' documented examples
        }
        if (rule.generic()
                && (UUID.matcher(secret).matches()
                        || HEX_DIGEST.matcher(secret).matches()
                        || INTEGRITY.matcher(secret).matches())) {
            return false; // identifiers, digests and integrity strings are not secrets
        }
        return entropy(secret) >= rule.minEntropy();
    }

    /**
     * Whether {@code s} is one word of lower-case letters, in any script that has case: "sunflower", and as much
     * "girassol", "añoranza", "réinitialisé" or "пароль" (a value of a generic rule that is a word of prose in French,
     * Spanish or Russian is no more a credential than an English one; the plain-word rules take such words where the
     * naming is explicit). Letters without case (CJK) are not lower-case letters.
     */
    static boolean isLowerCaseWord(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                continue;
            }
            if (c < 0xC0 || !Character.isLowerCase(c)) {
                return false; // ASCII other than a-z, or not a lower-case letter
            }
        }
        return true;
    }

    private static boolean isDocumentedExample(String secret) {
        for (String e : DOCUMENTED_EXAMPLES) {
            if (secret.contains(e)) {
                return true;
            }
        }
        return secret.endsWith("EXAMPLE");
    }

    /**
     * A value a generic rule finds after a secret-sounding name that is public by design: Stripe publishable keys,
     * Google OAuth client ids, a path to a file, an Ansible Vault reference.
     */
    static boolean isPublicValue(String s) {
        if (s.startsWith("pk_live_") || s.startsWith("pk_test_") || s.startsWith("!vault")) {
            return true;
        }
        if (s.endsWith(".apps.googleusercontent.com")) {
            return true;
        }
        // a relative or absolute path ending in a file name with an extension: uploads/2026/11/a1b2.png
        int slash = s.lastIndexOf('/');
        int dot = s.lastIndexOf('.');
        if (slash > 0 && dot > slash + 1 && s.length() - dot - 1 >= 2 && s.length() - dot - 1 <= 5) {
            for (int i = dot + 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static String withoutTrailingPunctuation(String s) {
        int end = s.length();
        while (end > 0 && ".,;:!?".indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(0, end);
    }

    /**
     * {@code s} without the full stops, commas, semicolons and colons that end it: the punctuation of the sentence a
     * value closes. "!" and "?" stay, since people put them in passwords ({@code sunflower!}).
     */
    private static String withoutSentencePunctuation(String s) {
        int end = s.length();
        while (end > 0 && ".,;:".indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    /*
     * The two tests below are written out by hand rather than as regular expressions: they run on every match of a
     * generic rule (tens of thousands per 50 MB of code and logs), where a regex costs several times more. Their
     * property test holds them to the regular expressions they replace.
     */

    /**
     * {@code process.env.API_KEY}, {@code os.environ[...]}, {@code getpass.getpass()}, {@code settings.DB_PASSWORD}:
     * a dotted name, or a name followed by a call or an index. As the regex
     * {@code [A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:[(\[].*)?[;,]?|[A-Za-z_][A-Za-z0-9_.]*[(\[].*}.
     */
    static boolean isCodeReference(String s) {
        int n = s.length();
        // second form: [A-Za-z_][A-Za-z0-9_.]* then ( or [ then anything on the line
        if (n > 0 && (isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
            int i = 1;
            while (i < n
                    && (isLetter(s.charAt(i)) || isDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '.')) {
                i++;
            }
            if (i < n && (s.charAt(i) == '(' || s.charAt(i) == '[') && noLineBreak(s, i + 1)) {
                return true;
            }
        }
        // first form: identifiers joined by dots (at least two), then a call or index, or one ; or ,
        int i = 0;
        int names = 0;
        while (true) {
            if (i >= n || !(isLetter(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '$')) {
                return false;
            }
            i++;
            while (i < n
                    && (isLetter(s.charAt(i)) || isDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '$')) {
                i++;
            }
            names++;
            if (i < n && s.charAt(i) == '.') {
                i++;
                continue;
            }
            break;
        }
        if (names < 2) {
            return false;
        }
        if (i == n) {
            return true;
        }
        char c = s.charAt(i);
        if (c == '(' || c == '[') {
            return noLineBreak(s, i + 1);
        }
        return (c == ';' || c == ',') && i + 1 == n;
    }

    /** {@code OPENAI_API_KEY}: the name of an environment variable. As the regex {@code [A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[;,]?}. */
    static boolean isEnvName(String s) {
        int n = s.length();
        if (n > 0 && (s.charAt(n - 1) == ';' || s.charAt(n - 1) == ',')) {
            n--;
        }
        if (n == 0 || s.charAt(0) < 'A' || s.charAt(0) > 'Z') {
            return false;
        }
        int groups = 0;
        int i = 1;
        while (i < n && isUpperOrDigit(s.charAt(i))) {
            i++;
        }
        while (i < n) {
            if (s.charAt(i) != '_' || i + 1 >= n || !isUpperOrDigit(s.charAt(i + 1))) {
                return false;
            }
            i++;
            while (i < n && isUpperOrDigit(s.charAt(i))) {
                i++;
            }
            groups++;
        }
        return groups > 0;
    }

    private static boolean isLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isUpperOrDigit(char c) {
        return (c >= 'A' && c <= 'Z') || isDigit(c);
    }

    /** What the regex {@code .*} takes to the end: no line terminator. */
    private static boolean noLineBreak(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }

    /** {@code $VAR}, {@code %VAR%}, a file path: references to a secret kept elsewhere. */
    private static boolean isReference(String s) {
        if (s.length() > 1
                && s.charAt(0) == '$'
                && (Character.isLetter(s.charAt(1))
                        || s.charAt(1) == '_'
                        || s.charAt(1) == '{'
                        || s.charAt(1) == '(')) {
            return true;
        }
        if (s.length() > 2 && s.charAt(0) == '%' && s.charAt(s.length() - 1) == '%') {
            return true;
        }
        return s.startsWith("/") && !isSlashLedToken(s)
                || s.startsWith("~/")
                || s.startsWith("./")
                || s.startsWith("../")
                || s.endsWith(".pub")
                || s.endsWith(".pem") && !s.contains("-----");
    }

    /**
     * A random token that happens to start with {@code /}, not an absolute path: base64 has {@code /} in its alphabet,
     * so one AWS secret access key in 64 starts with it. A path's parts are names (directories, a file with an
     * extension); a token has no dot and a part of 16 or more characters mixing upper case, lower case and digits.
     */
    static boolean isSlashLedToken(String s) {
        if (s.indexOf('.') >= 0) {
            return false;
        }
        int from = 1;
        while (from < s.length()) {
            int to = s.indexOf('/', from);
            if (to < 0) {
                to = s.length();
            }
            if (to - from >= 16 && mixesCaseAndDigits(s, from, to)) {
                return true;
            }
            from = to + 1;
        }
        return false;
    }

    private static boolean mixesCaseAndDigits(String s, int from, int to) {
        boolean upper = false;
        boolean lower = false;
        boolean digit = false;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
            digit |= isDigit(c);
        }
        return upper && lower && digit;
    }

    /**
     * Samples from {@code p} up to {@code to} (see {@link Pass}): runs of the base64 alphabets at least MIN_BASE64
     * long, found by sampling every MIN_BASE64-th character — every such run covers a sampled one, so only the runs
     * around base64 samples are read. Only runs that mix upper and lower case letters can be base64 of text (hex
     * digests and words cannot), and of those only runs whose first 12 bytes are printable enough are candidates.
     * Static, over the raw string: the JIT compiles this tight loop best with nothing but locals in it.
     *
     * @return where to sample next
     */
    private static int sampleBase64(String raw, int from, int to, Pass pass) {
        int n = raw.length();
        int p = from;
        while (p < to) {
            int flags = BASE64_FLAGS[raw.charAt(p)];
            if (flags == 0) {
                p += MIN_BASE64;
                continue;
            }
            int start = p;
            int f;
            while (start > 0 && (f = BASE64_FLAGS[raw.charAt(start - 1)]) != 0) {
                flags |= f;
                start--;
            }
            int i = p + 1;
            while (i < n && (f = BASE64_FLAGS[raw.charAt(i)]) != 0) {
                flags |= f;
                i++;
            }
            p = i + MIN_BASE64; // the next run starts after i, which is not in the alphabet
            // Most long base64 runs are binary (keys, hashes, images): their first 12 bytes already hold more than the
            // 5 % of unprintable bytes the whole may have (it decodes to at most 3/4 of its length). That test reads
            // 4 to 16 characters in place, so binary runs cost next to nothing.
            if (i - start < MIN_BASE64 || flags != (B64 | UPPER | LOWER) || binaryPrefix(raw, start, i - start)) {
                continue;
            }
            int end = i;
            while (end < n && end - i < 2 && Nfkc.FOLD[raw.charAt(end)] == '=') {
                end++;
            }
            pass.candidate(start, end);
        }
        return p;
    }

    private static final int B64 = 1;
    private static final int UPPER = 2;
    private static final int LOWER = 4;
    /** Per UTF-16 unit, the base64 flags of its NFKC fold (full-width letters are base64 letters once folded). */
    private static final byte[] BASE64_FLAGS = new byte[Character.MAX_VALUE + 1];

    static {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            char f = Nfkc.FOLD[c];
            boolean b64 = (f >= 'A' && f <= 'Z')
                    || (f >= 'a' && f <= 'z')
                    || (f >= '0' && f <= '9')
                    || f == '+'
                    || f == '/'
                    || f == '-'
                    || f == '_';
            BASE64_FLAGS[c] =
                    (byte) (!b64 ? 0 : B64 | (f >= 'A' && f <= 'Z' ? UPPER : 0) | (f >= 'a' && f <= 'z' ? LOWER : 0));
        }
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** What a percent-encoded token may hold: anything but white space, quotes and angle brackets. */
    private static boolean isTokenChar(char c) {
        return !Character.isWhitespace(c) && c != '"' && c != '\'' && c != '<' && c != '>' && !Character.isSpaceChar(c);
    }

    /** The findings so far, asked whether a candidate overlaps one: sorted starts and running maximum of ends. */
    private static final class Taken {
        private final int[] starts;
        private final int[] maxEnds;

        Taken(List<Finding> found) {
            List<Finding> sorted = new ArrayList<>(found);
            sorted.sort(Comparator.comparingInt(Finding::start));
            starts = new int[sorted.size()];
            maxEnds = new int[sorted.size()];
            int max = 0;
            for (int i = 0; i < starts.length; i++) {
                starts[i] = sorted.get(i).start();
                max = Math.max(max, sorted.get(i).end());
                maxEnds[i] = max;
            }
        }

        boolean overlaps(int start, int end) {
            // the findings starting before end: one of them overlaps if the furthest any of them reaches is past start
            int lo = 0;
            int hi = starts.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] < end) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo > 0 && maxEnds[lo - 1] > start;
        }
    }

    /** The decoded text if the token is base64 of mostly printable text, else null (binary, hashes, words). */
    private static String decodeBase64(String token) {
        boolean url = token.indexOf('-') >= 0 || token.indexOf('_') >= 0;
        if (url && (token.indexOf('+') >= 0 || token.indexOf('/') >= 0)) {
            return null; // both alphabets at once: not base64
        }
        String padded = pad(token);
        byte[] bytes;
        try {
            bytes = (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(padded);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length < 12) {
            return null;
        }
        int unprintable = 0;
        for (byte x : bytes) {
            unprintable += printable(x) ? 0 : 1;
        }
        return bytes.length - unprintable >= bytes.length * 0.95 ? new String(bytes, StandardCharsets.UTF_8) : null;
    }

    /**
     * Whether the first 12 bytes that the run of {@code length} base64 characters at {@code from} decodes to hold more
     * unprintable bytes than the whole may (5 %, of at most 3/4 of its length). Four characters (three bytes) at a
     * time, stopping as soon as the count is over: random binary runs, the most common, stop after the first or
     * second group.
     */
    static boolean binaryPrefix(String raw, int from, int length) {
        int limit = 3 * length / 80; // more unprintable bytes than this: count * 80 > 3 * length
        int count = unprintableIn(raw, from);
        if (count > limit) {
            return true;
        }
        count += unprintableIn(raw, from + 4);
        if (count > limit) {
            return true;
        }
        return count + unprintableIn(raw, from + 8) + unprintableIn(raw, from + 12) > limit;
    }

    /** Unprintable bytes among the three that the four base64 characters at {@code at} decode to. */
    private static int unprintableIn(String raw, int at) {
        // table look-ups, no branches: on random (binary) base64 every branch here would be a coin toss
        int bits = BASE64_VALUE[raw.charAt(at)] << 18
                | BASE64_VALUE[raw.charAt(at + 1)] << 12
                | BASE64_VALUE[raw.charAt(at + 2)] << 6
                | BASE64_VALUE[raw.charAt(at + 3)];
        return UNPRINTABLE[bits >>> 16] + UNPRINTABLE[(bits >> 8) & 0xFF] + UNPRINTABLE[bits & 0xFF];
    }

    /** Per UTF-16 unit, the 6-bit value of its NFKC fold in either base64 alphabet (63 if none: never asked). */
    private static final byte[] BASE64_VALUE = new byte[Character.MAX_VALUE + 1];
    /** 1 for a byte that is not printable text (ASCII control characters but tab and line breaks, and non-ASCII). */
    private static final byte[] UNPRINTABLE = new byte[256];

    static {
        for (int u = 0; u <= Character.MAX_VALUE; u++) {
            char c = Nfkc.FOLD[u];
            BASE64_VALUE[u] = (byte)
                    (c >= 'A' && c <= 'Z'
                            ? c - 'A'
                            : c >= 'a' && c <= 'z'
                                    ? c - 'a' + 26
                                    : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' || c == '-' ? 62 : 63);
        }
        for (int b = 0; b < 256; b++) {
            UNPRINTABLE[b] = (byte) (printable((byte) b) ? 0 : 1);
        }
    }

    private static boolean printable(byte x) {
        return (x >= 0x20 && x < 0x7f) || x == '\n' || x == '\r' || x == '\t';
    }

    private static String pad(String token) {
        String t = token.replace("=", "");
        return switch (t.length() % 4) {
            case 2 -> t + "==";
            case 3 -> t + "=";
            default -> t;
        };
    }

    private List<Finding> resolveOverlaps(List<Finding> found) {
        if (found.size() <= 1) {
            return found;
        }
        List<Finding> ranked = new ArrayList<>(found);
        ranked.sort(Comparator.<Finding, Boolean>comparing(f -> generic.getOrDefault(f.ruleId(), true))
                .thenComparing(f -> -(f.end() - f.start()))
                .thenComparingInt(Finding::start));
        List<Finding> kept = new ArrayList<>();
        java.util.TreeMap<Integer, Integer> taken = new java.util.TreeMap<>(); // start -> end, not overlapping
        for (Finding f : ranked) {
            Map.Entry<Integer, Integer> before = taken.lowerEntry(f.end());
            if (before == null || before.getValue() <= f.start()) {
                kept.add(f);
                taken.put(f.start(), f.end());
            }
        }
        kept.sort(Comparator.comparingInt(Finding::start));
        return kept;
    }

    /** Shannon entropy in bits per character. */
    static double entropy(String s) {
        int[] counts = new int[128];
        Map<Character, Integer> other = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 128) {
                counts[c]++;
            } else {
                if (other == null) {
                    other = new HashMap<>();
                }
                other.merge(c, 1, Integer::sum);
            }
        }
        double h = 0;
        double n = s.length();
        for (int c : counts) {
            if (c > 0) {
                double p = c / n;
                h -= p * Math.log(p) / Math.log(2);
            }
        }
        if (other != null) {
            for (int c : other.values()) {
                double p = c / n;
                h -= p * Math.log(p) / Math.log(2);
            }
        }
        return h;
    }
}
