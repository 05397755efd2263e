package dev.cairn.model.secret;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
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
 * <p>How a text is scanned, cheapest step first:
 * <ol>
 *   <li>NFKC normalisation (full-width and compatibility forms fold to ASCII), skipped for pure ASCII text; every
 *       normalised character remembers where it came from, so offsets are reported in the original text.</li>
 *   <li>One Aho-Corasick pass ({@link KeywordIndex}) over the text finds the rules' keywords; a rule runs only if one of its keywords
 *       occurs, and only on a window around each occurrence (its {@code span}), never over the whole text.</li>
 *   <li>Each match's captured secret must pass the rule's entropy gate (measured on the secret only), must not be a
 *       placeholder or documented example, and, for generic rules, must not be a hash, UUID or digest.</li>
 *   <li>Base64 and percent-encoded tokens are decoded and scanned again (two levels at most); a secret inside
 *       reports the whole encoded token.</li>
 * </ol>
 * Where findings overlap, a vendor-specific rule wins over a generic one, then the longer finding.
 */
public final class SecretScanner {

    private static final int MAX_DEPTH = 2;
    private static final int LOOK_BEHIND = 128;
    private static final Pattern PERCENT_TOKEN = Pattern.compile("[^\\s\"'<>]*%[0-9A-Fa-f]{2}[^\\s\"'<>]*");
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern HEX_DIGEST = Pattern.compile("(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{56}"
            + "|[0-9a-fA-F]{64}|[0-9a-fA-F]{96}|[0-9a-fA-F]{128})");
    private static final Pattern INTEGRITY = Pattern.compile("(?:sha(?:1|256|384|512))[-:][A-Za-z0-9+/=]+");
    /** {@code process.env.API_KEY}, {@code os.environ[...]}, {@code getpass.getpass()}, {@code settings.DB_PASSWORD}. */
    private static final Pattern CODE_REFERENCE = Pattern.compile(
            "[A-Za-z_$][A-Za-z0-9_$]*(?:\\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:[(\\[].*)?[;,]?|[A-Za-z_][A-Za-z0-9_.]*[(\\[].*");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[;,]?");
    private static final String[] PLACEHOLDERS = {"xxxx", "****", "...", "example", "placeholder", "your_", "your-",
        "yourpass", "yourtoken", "yourkey", "redacted", "dummy", "<", ">", "${", "{{", "$(", "%(", "changeit",
        "sample", "insert", "replace_me", "replace-me", "todo", "fixme", "******"};
    /** Words that follow "password is" in sentences about passwords rather than in statements of one. */
    private static final java.util.Set<String> NOT_PASSWORDS = java.util.Set.of("required", "incorrect", "wrong",
            "invalid", "correct", "expired", "stored", "saved", "missing", "empty", "reset", "changed", "strong",
            "weak", "hashed", "encrypted", "set", "not", "too", "the", "a", "an", "in", "on", "being", "now", "still",
            "also", "case-sensitive", "sensitive", "protected", "managed", "rotated", "valid", "needed", "secure",
            "insecure", "unknown", "different", "same", "optional", "mandatory", "shown", "hidden", "sent", "given",
            "generated", "provided", "only", "kept", "never", "always", "used", "at", "for", "from", "that", "this",
            "what", "which", "whatever", "configured", "defined", "updated", "long", "short", "ok", "fine", "good",
            "bad", "secret", "private", "length", "complex", "easy", "hard", "forgotten", "lost", "known", "locked",
            "blank", "null", "none", "unset", "expiring", "due", "your", "my", "his", "her", "their", "our",
            // German, French, Spanish
            "falsch", "richtig", "erforderlich", "ungültig", "abgelaufen", "geändert", "leer", "sicher", "geheim",
            "requis", "obligatoire", "expiré", "invalide", "incorrecto", "incorrecta", "obligatoria",
            "requerida", "inválida", "invalida", "caducada", "segura");

    private final String version;
    private final List<SecretRule> rules;
    private final KeywordIndex keywords;
    private final int[][] rulesByKeyword;
    private final Map<String, Boolean> generic = new HashMap<>();

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
        this.rulesByKeyword = new int[words.size()][];
        for (int k = 0; k < words.size(); k++) {
            rulesByKeyword[k] = byKeyword.get(words.get(k)).stream().mapToInt(Integer::intValue).toArray();
        }
        this.keywords = new KeywordIndex(words);
        for (SecretRule r : this.rules) {
            generic.put(r.id(), r.generic());
        }
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
        Normalized n = Normalized.of(text);
        List<Finding> found = scanNormalized(n.text(), 0);
        if (n.identity()) {
            return found;
        }
        List<Finding> mapped = new ArrayList<>(found.size());
        for (Finding f : found) {
            mapped.add(new Finding(f.ruleId(), f.description(), n.originalStart(f.start()), n.originalEnd(f.end())));
        }
        return mapped;
    }

    /** {@code text} with each finding replaced by {@code [REDACTED:<rule_id>]}. */
    public static String redact(String text, List<Finding> findings) {
        if (findings.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (Finding f : findings) {
            out.append(text, at, f.start()).append("[REDACTED:").append(f.ruleId()).append(']');
            at = f.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    private List<Finding> scanNormalized(String text, int depth) {
        // 1. keyword prefilter: for each rule, where its keywords occur
        Map<Integer, List<Integer>> hits = new HashMap<>();
        keywords.scan(text, (keyword, start) -> {
            for (int rule : rulesByKeyword[keyword]) {
                hits.computeIfAbsent(rule, r -> new ArrayList<>()).add(start);
            }
        });
        List<Finding> found = new ArrayList<>();
        // 2. each triggered rule, on windows around its keyword occurrences
        for (Map.Entry<Integer, List<Integer>> e : hits.entrySet()) {
            SecretRule rule = rules.get(e.getKey());
            e.getValue().sort(null); // occurrences arrive in order of where they end; windows want starts in order
            Matcher m = rule.pattern().matcher(text);
            m.useTransparentBounds(true).useAnchoringBounds(false);
            if (rule.anchored()) {
                int lastEnd = -1;
                for (int at : e.getValue()) {
                    if (at < lastEnd) {
                        continue; // inside the previous match
                    }
                    m.region(at, Math.min(text.length(), at + rule.span()));
                    if (m.lookingAt()) {
                        lastEnd = m.end();
                        int g = rule.group();
                        if (m.start(g) >= 0 && accepted(rule, m.group(g))) {
                            found.add(new Finding(rule.id(), rule.description(), m.start(g), m.end(g)));
                        }
                    }
                }
                continue;
            }
            int coveredUntil = -1;
            for (int at : e.getValue()) {
                int from = Math.max(0, at - LOOK_BEHIND);
                int to = Math.min(text.length(), at + rule.span());
                if (from < coveredUntil) {
                    from = coveredUntil;
                }
                if (from >= to) {
                    continue;
                }
                m.region(from, to);
                while (m.find()) {
                    int g = rule.group();
                    if (m.start(g) < 0) {
                        continue;
                    }
                    String secret = m.group(g);
                    if (accepted(rule, secret)) {
                        found.add(new Finding(rule.id(), rule.description(), m.start(g), m.end(g)));
                    }
                }
                coveredUntil = to;
            }
        }
        // 3. encoded tokens, decoded and scanned again
        if (depth < MAX_DEPTH) {
            decodeAndScan(text, depth, found);
        }
        return resolveOverlaps(found);
    }

    private boolean accepted(SecretRule rule, String secret) {
        if (secret.isEmpty() || entropy(secret) < rule.minEntropy()) {
            return false;
        }
        String lower = secret.toLowerCase(Locale.ROOT);
        for (String p : PLACEHOLDERS) {
            if (lower.contains(p)) {
                return false;
            }
        }
        if (isReference(secret)) {
            return false; // a variable or a path names where the secret is, it is not the secret
        }
        if (lower.equals("akiaiosfodnn7example") || lower.startsWith("wjalrxutnfemi/k7mdeng")) {
            return false;
        }
        if (rule.generic()) {
            if (CODE_REFERENCE.matcher(secret).matches() || ENV_NAME.matcher(secret).matches()) {
                return false; // process.env.API_KEY, getpass.getpass(), settings.DB_PASSWORD, OPENAI_API_KEY
            }
            if (UUID.matcher(secret).matches() || HEX_DIGEST.matcher(secret).matches()
                    || INTEGRITY.matcher(secret).matches() || secret.startsWith("ssh-") || secret.startsWith("$2")
                    || NOT_PASSWORDS.contains(lower.replaceAll("[.,;:!?]+$", ""))) {
                return false;
            }
        }
        return true;
    }

    /** {@code $VAR}, {@code %VAR%}, a file path: references to a secret kept elsewhere. */
    private static boolean isReference(String s) {
        if (s.length() > 1 && s.charAt(0) == '$' && (Character.isLetter(s.charAt(1)) || s.charAt(1) == '_'
                || s.charAt(1) == '{' || s.charAt(1) == '(')) {
            return true;
        }
        if (s.length() > 2 && s.charAt(0) == '%' && s.charAt(s.length() - 1) == '%') {
            return true;
        }
        return s.startsWith("/") || s.startsWith("~/") || s.startsWith("./") || s.startsWith("../")
                || s.endsWith(".pub") || s.endsWith(".pem") && !s.contains("-----");
    }

    private void decodeAndScan(String text, int depth, List<Finding> found) {
        // what is already found, as a bit per character: the candidates below skip it in O(1)
        java.util.BitSet taken = new java.util.BitSet(found.isEmpty() ? 0 : text.length());
        for (Finding f : found) {
            taken.set(f.start(), f.end());
        }
        if (text.length() >= 24) {
            // one pass over the text for runs of the base64 alphabets; only runs that mix upper and lower case
            // letters can be base64 of text (hex digests and words cannot), and only those are decoded
            int n = text.length();
            int i = 0;
            while (i < n) {
                char c = text.charAt(i);
                if (!isBase64Char(c)) {
                    i++;
                    continue;
                }
                int start = i;
                boolean upper = false;
                boolean lower = false;
                while (i < n && isBase64Char(text.charAt(i))) {
                    char x = text.charAt(i);
                    upper |= x >= 'A' && x <= 'Z';
                    lower |= x >= 'a' && x <= 'z';
                    i++;
                }
                int end = i;
                while (end < n && end - i < 2 && text.charAt(end) == '=') {
                    end++;
                }
                if (i - start < 24 || !upper || !lower || overlaps(taken, start, end)) {
                    continue;
                }
                String token = text.substring(start, end);
                String decoded = decodeBase64(token);
                if (decoded != null) {
                    for (Finding inner : scanNormalized(decoded, depth + 1)) {
                        found.add(new Finding(inner.ruleId(), inner.description() + " (base64-encoded)", start, end));
                        break;
                    }
                }
            }
        }
        if (text.indexOf('%') >= 0) {
            Matcher p = PERCENT_TOKEN.matcher(text);
            while (p.find()) {
                if (overlaps(taken, p.start(), p.end())) {
                    continue;
                }
                String decoded;
                try {
                    decoded = URLDecoder.decode(p.group().replace("+", "%2B"), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (!decoded.equals(p.group())) {
                    for (Finding inner : scanNormalized(decoded, depth + 1)) {
                        found.add(new Finding(inner.ruleId(), inner.description() + " (percent-encoded)", p.start(),
                                p.end()));
                        break;
                    }
                }
            }
        }
    }

    private static boolean overlaps(java.util.BitSet taken, int start, int end) {
        int next = taken.nextSetBit(start);
        return next >= 0 && next < end;
    }

    private static boolean isBase64Char(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
                || c == '-' || c == '_';
    }

    /** The decoded text if the token is base64 of mostly printable text, else null (binary, hashes, words). */
    private static String decodeBase64(String token) {
        byte[] bytes;
        try {
            boolean url = token.indexOf('-') >= 0 || token.indexOf('_') >= 0;
            if (url && (token.indexOf('+') >= 0 || token.indexOf('/') >= 0)) {
                return null; // both alphabets at once: not base64
            }
            bytes = url ? Base64.getUrlDecoder().decode(pad(token)) : Base64.getDecoder().decode(pad(token));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length < 12) {
            return null;
        }
        int printable = 0;
        for (byte x : bytes) {
            if ((x >= 0x20 && x < 0x7f) || x == '\n' || x == '\r' || x == '\t') {
                printable++;
            }
        }
        return printable >= bytes.length * 0.95 ? new String(bytes, StandardCharsets.UTF_8) : null;
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
                .thenComparing(f -> -(f.end() - f.start())).thenComparingInt(Finding::start));
        List<Finding> kept = new ArrayList<>();
        java.util.BitSet taken = new java.util.BitSet();
        for (Finding f : ranked) {
            if (!overlaps(taken, f.start(), f.end())) {
                kept.add(f);
                taken.set(f.start(), f.end());
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

    /** NFKC text with, for every normalised char, the range of the original it came from. */
    private record Normalized(String text, int[] starts, int[] ends, boolean identity) {

        static Normalized of(String original) {
            int len = original.length();
            int firstChange = -1;
            for (int i = 0; i < len; i++) {
                char c = original.charAt(i);
                if (c >= 128 && !nfkcStable(c)) {
                    firstChange = i;
                    break;
                }
            }
            if (firstChange < 0) {
                return new Normalized(original, null, null, true); // ASCII, CJK, kana, Hangul: already NFKC
            }
            // Most changes are one character for one (full-width forms, compatibility punctuation): then the offsets
            // stay as they are and only a copy with those characters replaced is needed.
            char[] folded = null;
            boolean expands = false;
            for (int i = firstChange; i < len && !expands; i++) {
                char c = original.charAt(i);
                if (c < 128 || nfkcStable(c)) {
                    continue;
                }
                char m = oneForOne(c);
                if (m == EXPANDS) {
                    expands = true;
                } else if (m != c) {
                    if (folded == null) {
                        folded = original.toCharArray();
                    }
                    folded[i] = m;
                }
            }
            if (!expands) {
                return new Normalized(folded == null ? original : new String(folded), null, null, true);
            }
            StringBuilder out = new StringBuilder(len);
            int[] starts = new int[len + 16];
            int[] ends = new int[starts.length];
            for (int i = 0; i < firstChange; i++) {
                starts[i] = i;
                ends[i] = i + 1;
            }
            out.append(original, 0, firstChange);
            int i = firstChange;
            while (i < len) {
                char c = original.charAt(i);
                if (out.length() + 4 >= starts.length) {
                    starts = java.util.Arrays.copyOf(starts, starts.length * 2);
                    ends = java.util.Arrays.copyOf(ends, ends.length * 2);
                }
                if (c < 128 || nfkcStable(c)) {
                    starts[out.length()] = i;
                    ends[out.length()] = i + 1;
                    out.append(c);
                    i++;
                    continue;
                }
                if (c >= 0xFF01 && c <= 0xFF5E) {
                    // full-width ASCII: NFKC maps each to its ASCII twin, no need to ask the normaliser
                    starts[out.length()] = i;
                    ends[out.length()] = i + 1;
                    out.append((char) (c - 0xFEE0));
                    i++;
                    continue;
                }
                int next = i + Character.charCount(original.codePointAt(i));
                String piece = Normalizer.normalize(original.substring(i, next), Normalizer.Form.NFKC);
                for (int k = 0; k < piece.length(); k++) {
                    if (out.length() >= starts.length) {
                        starts = java.util.Arrays.copyOf(starts, starts.length * 2);
                        ends = java.util.Arrays.copyOf(ends, ends.length * 2);
                    }
                    starts[out.length()] = i;
                    ends[out.length()] = next;
                    out.append(piece.charAt(k));
                }
                i = next;
            }
            return new Normalized(out.toString(), starts, ends, false);
        }

        private static final char EXPANDS = '\uFFFF';
        private static final Map<Character, Character> ONE_FOR_ONE = new java.util.concurrent.ConcurrentHashMap<>();

        /** The NFKC form of {@code c} when it is a single character, else {@link #EXPANDS}. */
        private static char oneForOne(char c) {
            if (c >= 0xFF01 && c <= 0xFF5E) {
                return (char) (c - 0xFEE0); // full-width ASCII
            }
            if (Character.isSurrogate(c)) {
                return EXPANDS;
            }
            return ONE_FOR_ONE.computeIfAbsent(c, x -> {
                String n = Normalizer.normalize(String.valueOf(x), Normalizer.Form.NFKC);
                return n.length() == 1 ? n.charAt(0) : EXPANDS;
            });
        }

        /**
         * CJK ideographs, kana, Hangul syllables, CJK punctuation and most Latin letters with diacritics are their own
         * NFKC form: no need to ask the normaliser.
         */
        private static boolean nfkcStable(char c) {
            return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3041 && c <= 0x30FA) || (c >= 0xAC00 && c <= 0xD7A3)
                    || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x3001 && c <= 0x303F) || (c >= 0x00C0 && c <= 0x017F
                    && c != 0x0132 && c != 0x0133 && c != 0x013F && c != 0x0140 && c != 0x0149 && c != 0x017F);
        }

        int originalStart(int normalizedStart) {
            return starts[normalizedStart];
        }

        int originalEnd(int normalizedEnd) {
            return normalizedEnd == 0 ? 0 : ends[normalizedEnd - 1];
        }
    }
}
