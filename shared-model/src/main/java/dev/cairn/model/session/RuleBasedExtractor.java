package dev.cairn.model.session;

import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.SecretScanner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded default {@link FactExtractor}: cues in English and Chinese, sentence by sentence, from the user's own
 * messages (what an assistant or a tool says is not the user's fact). An explicit "remember that …" / "记住…" is the
 * strongest cue; preferences, conventions, decisions and environment statements follow. Questions, temporary state
 * ("for now", "今天"), chatter and anything the secret scanner flags are skipped with a reason.
 */
public final class RuleBasedExtractor implements FactExtractor {

    private record Cue(Pattern pattern, MemoryType type, double confidence) {}

    /**
     * A sentence ends at CJK end punctuation, at a line break, or at {@code . ! ?} followed by white space or the end:
     * a dot inside a token ({@code PostgreSQL 16.2}, {@code vYYYY.MM.DD}, {@code api.example.com}) does not end it.
     */
    private static final Pattern SENTENCE = Pattern.compile("(?:[^.!?。！？\\n]|[.!?](?=[^\\s.!?]))+[.!?。！？]*");

    private static final Pattern EXPLICIT =
            Pattern.compile("(?i)^(?:please\\s+)?(?:remember|note|keep in mind)(?:\\s+that)?\\s*[:,：，]?\\s*(.{6,})$"
                    + "|^(?:请)?(?:记住|记一下|记得)(?:[:：，,]\\s*)?(.{2,})$");
    private static final List<Cue> CUES = List.of(
            new Cue(
                    Pattern.compile("(?i)\\b(?:i|we)\\s+(?:really\\s+)?(?:prefer|like|love|always use|never use|"
                            + "don't like|do not like|want)\\b|\\bmy favou?rite\\b|(?:我|我们)(?:更)?(?:喜欢|偏好|习惯|不喜欢|希望)"),
                    MemoryType.PREFERENCE,
                    0.85),
            new Cue(
                    Pattern.compile("(?i)\\b(?:we|our team)\\s+(?:always|never|must)\\b|\\bour convention\\b|"
                            + "\\bthe rule is\\b|\\bby convention\\b|我们(?:一律|统一|总是|从不|必须)|规范是|约定"),
                    MemoryType.CONVENTION,
                    0.8),
            new Cue(
                    Pattern.compile("(?i)\\bwe(?:'ve| have)?\\s+(?:decided|agreed|chose|switched to|are switching to|"
                            + "now use|will use|are going with|'re going with|'ll use)\\b|\\blet's use\\b|"
                            + "我们决定|决定(?:用|采用|改用)|改用|采用|定了"),
                    MemoryType.DECISION,
                    0.85),
            new Cue(
                    Pattern.compile("(?i)\\b(?:runs?|is deployed|are deployed|lives?|is hosted) (?:on|in)\\b|"
                            + "\\bour (?:prod(?:uction)?|staging|dev) (?:db|database|cluster|server|region)\\b|"
                            + "部署在|运行在|我们用的是|环境是"),
                    MemoryType.ENVIRONMENT,
                    0.75));
    private static final Pattern TEMPORARY = Pattern.compile("(?i)\\b(?:right now|for now|today|tonight|at the moment|"
            + "currently|this time|temporarily|for this session|just this once)\\b|临时|今天|现在|暂时|这次|目前");
    private static final Pattern QUESTION = Pattern.compile(
            "[?？]\\s*$|(?i)^(?:do|does|should|can|could|would|" + "what|which|why|how|is|are)\\b|吗[。？?]?$");

    private final SecretScanner scanner;

    public RuleBasedExtractor(SecretScanner scanner) {
        this.scanner = scanner;
    }

    @Override
    public Extraction extract(List<SessionMessage> messages) {
        Map<String, Fact> facts = new LinkedHashMap<>();
        List<Skipped> skipped = new ArrayList<>();
        for (SessionMessage m : messages) {
            if (m.role() != SessionMessage.Role.USER) {
                continue;
            }
            Matcher s = SENTENCE.matcher(m.content());
            while (s.find()) {
                String sentence = s.group().strip();
                if (sentence.length() < 4) {
                    continue;
                }
                Fact fact = classify(sentence, m);
                if (fact == null) {
                    continue;
                }
                String why = reasonToSkip(sentence);
                if (why != null) {
                    // a skipped secret is reported redacted: the answer must not carry it either
                    skipped.add(new Skipped(
                            why.equals("secret") ? SecretScanner.redact(sentence, scanner.scan(sentence)) : sentence,
                            why));
                    continue;
                }
                String key = normalized(fact.content());
                Fact seen = facts.get(key);
                if (seen == null) {
                    facts.put(key, fact);
                } else {
                    // said twice: one fact, more evidence, a little more confidence
                    List<SessionMessage> evidence = new ArrayList<>(seen.evidence());
                    evidence.add(m);
                    facts.put(
                            key,
                            new Fact(
                                    seen.type(),
                                    seen.content(),
                                    Math.min(0.99, seen.confidence() + 0.05),
                                    evidence,
                                    seen.explicit() || fact.explicit()));
                }
            }
        }
        return new Extraction(List.copyOf(facts.values()), skipped);
    }

    private Fact classify(String sentence, SessionMessage m) {
        Matcher explicit = EXPLICIT.matcher(sentence);
        if (explicit.find()) {
            String body = (explicit.group(1) != null ? explicit.group(1) : explicit.group(2)).strip();
            MemoryType type = MemoryType.FACT;
            for (Cue c : CUES) {
                if (c.pattern().matcher(body).find()) {
                    type = c.type();
                    break;
                }
            }
            return new Fact(type, capitalised(body), 0.95, List.of(m), true);
        }
        for (Cue c : CUES) {
            if (c.pattern().matcher(sentence).find()) {
                return new Fact(c.type(), sentence, c.confidence(), List.of(m), false);
            }
        }
        return null;
    }

    /**
     * Whether a message asks for something to be remembered ("remember that …", "记住…"): the cheap check that
     * decides whether an append runs extraction at once, whichever extractor is configured.
     */
    public static boolean asksToRemember(String content) {
        Matcher s = SENTENCE.matcher(content);
        while (s.find()) {
            if (EXPLICIT.matcher(s.group().strip()).find()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The session's temporary facts: statements of current state in the user's messages ("I'm on the hotfix branch
     * right now", "今天先用测试库"), newest first, at most {@code max}. They matter for this session only, so they are
     * never written as memories; they live as long as their message is among the recent ones.
     */
    public static List<String> temporaryFacts(List<SessionMessage> recent, int max) {
        List<String> out = new ArrayList<>();
        for (int i = recent.size() - 1; i >= 0 && out.size() < max; i--) {
            SessionMessage m = recent.get(i);
            if (m.role() != SessionMessage.Role.USER) {
                continue;
            }
            List<String> inMessage = new ArrayList<>();
            Matcher s = SENTENCE.matcher(m.content());
            while (s.find()) {
                String sentence = s.group().strip();
                if (sentence.length() >= 4
                        && TEMPORARY.matcher(sentence).find()
                        && !QUESTION.matcher(sentence).find()) {
                    inMessage.add(sentence);
                }
            }
            for (int j = inMessage.size() - 1; j >= 0 && out.size() < max; j--) {
                out.add(inMessage.get(j));
            }
        }
        return out;
    }

    private String reasonToSkip(String sentence) {
        if (QUESTION.matcher(sentence).find()) {
            return "question";
        }
        if (TEMPORARY.matcher(sentence).find()) {
            return "temporary";
        }
        if (!scanner.scan(sentence).isEmpty()) {
            return "secret";
        }
        return null;
    }

    private static String normalized(String s) {
        return s.toLowerCase(Locale.ROOT)
                .replaceAll("[\\p{Punct}。！？，、\\s]+", " ")
                .strip();
    }

    private static String capitalised(String s) {
        return s.isEmpty() || !Character.isLowerCase(s.charAt(0))
                ? s
                : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
