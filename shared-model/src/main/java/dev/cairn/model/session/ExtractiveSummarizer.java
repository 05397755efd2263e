package dev.cairn.model.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded default {@link Summarizer}: no model, no network. It keeps whole sentences, chosen by what later turns
 * need — decisions, preferences, conventions, numbers and named entities — in English and Chinese, drops chatter, and
 * then guarantees that every entity and number of the folded messages is still in the summary (an "also mentioned"
 * line collects the ones no kept sentence carries).
 */
public final class ExtractiveSummarizer implements Summarizer {

    /** As in the extractor: a dot inside a version, a date or a host name does not end a sentence. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,:/-]\\d+)*%?");
    /** Capitalised words after the first word, CamelCase, acronyms, versions, product-like tokens, 《titles》. */
    private static final Pattern ENTITY = Pattern.compile(
            "(?<![\\p{L}\\d])(?:[A-Z][a-z]+(?:[A-Z][a-z]+)+|[A-Z]{2,}[0-9]*|[A-Z][a-z]{1,}(?:\\s[A-Z][a-z]+)*"
                    + "|[a-z]+[A-Z][A-Za-z]+)(?![\\p{L}])|《[^》]{1,30}》");

    private static final List<String> DECISIONS = List.of(
            "decided",
            "decide",
            "we will use",
            "we'll use",
            "let's use",
            "agreed",
            "going with",
            "switch to",
            "switched to",
            "chose",
            "choose",
            "we use",
            "we now use",
            "adopt",
            "决定",
            "选择",
            "改用",
            "采用",
            "确定",
            "同意",
            "定了",
            "就用");
    private static final List<String> PREFERENCES = List.of(
            "prefer",
            "i like",
            "i love",
            "always use",
            "never use",
            "don't like",
            "do not like",
            "please use",
            "please don't",
            "i want",
            "favorite",
            "favourite",
            "喜欢",
            "偏好",
            "习惯",
            "总是",
            "不要",
            "请用",
            "希望",
            "更愿意");
    private static final List<String> CONVENTIONS = List.of(
            "convention", "always", "must", "never", "should", "rule", "standard", "规范", "约定", "必须", "一律", "统一");
    private static final Set<String> CHATTER = Set.of(
            "ok",
            "okay",
            "thanks",
            "thank you",
            "thx",
            "lol",
            "sure",
            "great",
            "cool",
            "got it",
            "sounds good",
            "yes",
            "no",
            "hi",
            "hello",
            "好的",
            "谢谢",
            "嗯",
            "好",
            "收到",
            "明白",
            "可以",
            "没问题",
            "哈哈");
    /** Sentence-initial words that look like names only because they start a sentence. */
    private static final Set<String> COMMON_CAPITALISED = Set.copyOf(List.of(
            "The",
            "We",
            "I",
            "It",
            "This",
            "That",
            "Please",
            "Let",
            "Let's",
            "Our",
            "My",
            "You",
            "They",
            "And",
            "But",
            "So",
            "Also",
            "Then",
            "If",
            "When",
            "What",
            "How",
            "Yes",
            "No",
            "Ok",
            "Okay",
            "Thanks",
            "Sure",
            "Hi",
            "Hello",
            "A",
            "An",
            "In",
            "On",
            "For",
            "To",
            "Is",
            "Do",
            "Does",
            "Did",
            "Can",
            "Could",
            "Would",
            "Should",
            "Will",
            "Why",
            "Where",
            "Who",
            "Which",
            "There",
            "Here",
            "Now",
            "After",
            "Before",
            "Since",
            "As",
            "At",
            "By",
            "From",
            "With",
            "Without",
            "Not",
            "Maybe",
            "Sounds",
            "Great",
            "Good",
            "Nice",
            "Done",
            "See",
            "Note",
            "Remember",
            "Use",
            "Make",
            "Keep",
            "Set",
            "Add",
            "Run",
            "Check",
            "Try",
            "Thank",
            "Sorry",
            "Oh",
            "Well",
            "Also",
            "Just",
            "Every",
            "All",
            "Some",
            "Any"));

    private record Sentence(int order, String text, double score) {}

    @Override
    public String fold(String previous, List<SessionMessage> folded, int maxChars) {
        List<Sentence> sentences = new ArrayList<>();
        Set<String> mustKeep = new LinkedHashSet<>();
        int order = 0;
        for (SessionMessage m : folded) {
            // split by a loop, not a per-character regular expression, which overflows the stack on long messages
            for (String raw : Statements.sentences(m.content())) {
                String text = raw.strip();
                if (text.isEmpty() || isChatter(text)) {
                    continue;
                }
                mustKeep.addAll(entitiesAndNumbers(text));
                sentences.add(new Sentence(order++, text, score(text, m.role())));
            }
        }
        String base = previous == null ? "" : previous.strip();
        // room for the worst case of the "also mentioned" line, so that it never pushes kept sentences out
        int alsoMentioned = mustKeep.isEmpty()
                ? 0
                : 20 + mustKeep.stream().mapToInt(e -> e.length() + 2).sum();
        int budget = Math.max(0, maxChars - base.length() - (base.isEmpty() ? 0 : 1) - alsoMentioned);
        List<Sentence> ranked = new ArrayList<>(sentences);
        ranked.sort(Comparator.comparingDouble(Sentence::score).reversed().thenComparingInt(Sentence::order));
        List<Sentence> kept = new ArrayList<>();
        int used = 0;
        for (Sentence s : ranked) {
            if (s.score() <= 0) {
                break;
            }
            if (used + s.text().length() + 1 <= budget) {
                kept.add(s);
                used += s.text().length() + 1;
            }
        }
        kept.sort(Comparator.comparingInt(Sentence::order));
        StringBuilder out = new StringBuilder(base);
        for (Sentence s : kept) {
            out.append(out.length() == 0 ? "" : " ").append(s.text());
        }
        // every entity and number of the folded text stays findable, even when no kept sentence carries it
        List<String> missing = new ArrayList<>();
        String sofar = out.toString();
        for (String e : mustKeep) {
            if (!sofar.contains(e)) {
                missing.add(e);
            }
        }
        if (!missing.isEmpty()) {
            boolean chinese =
                    folded.stream().anyMatch(m -> m.content().codePoints().anyMatch(ExtractiveSummarizer::isHan));
            out.append(out.length() == 0 ? "" : " ")
                    .append(
                            chinese
                                    ? "另提及：" + String.join("、", missing) + "。"
                                    : "Also mentioned: " + String.join(", ", missing) + ".");
        }
        String summary = out.toString();
        return summary.length() <= maxChars
                ? summary
                : summary.substring(summary.length() - maxChars).strip();
    }

    /** The names (capitalised or CJK runs) and numbers of a text: what a summary must keep. */
    public static Set<String> entitiesAndNumbers(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher n = NUMBER.matcher(text);
        while (n.find()) {
            out.add(n.group());
        }
        Matcher e = ENTITY.matcher(text);
        while (e.find()) {
            // a capitalised word at the start of a sentence is a name unless it is a common sentence opener
            String word = e.group();
            String firstWord = word.split("\\s")[0];
            if (COMMON_CAPITALISED.contains(firstWord)) {
                word = word.substring(firstWord.length()).strip();
            }
            if (!word.isEmpty() && !COMMON_CAPITALISED.contains(word)) {
                out.add(word);
            }
        }
        return out;
    }

    private static double score(String text, SessionMessage.Role role) {
        String lower = text.toLowerCase(Locale.ROOT);
        double score = 0;
        if (containsAny(lower, DECISIONS)) {
            score += 3;
        }
        if (containsAny(lower, PREFERENCES)) {
            score += 3;
        }
        if (containsAny(lower, CONVENTIONS)) {
            score += 1.5;
        }
        score += Math.min(3, entitiesAndNumbers(text).size());
        if (role == SessionMessage.Role.TOOL) {
            score -= 1; // tool output is evidence, not what was said; keep it only when it carries names or numbers
        }
        return score;
    }

    private static boolean isChatter(String sentence) {
        String s = sentence.toLowerCase(Locale.ROOT)
                .replaceAll("[\\p{Punct}。！？，、；：\\s]+", " ")
                .strip();
        return s.isEmpty() || CHATTER.contains(s);
    }

    private static boolean containsAny(String lower, List<String> cues) {
        for (String c : cues) {
            if (lower.contains(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHan(int cp) {
        return Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
    }
}
