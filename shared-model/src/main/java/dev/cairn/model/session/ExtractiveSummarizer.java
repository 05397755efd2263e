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
 * need, in English and Chinese, and drops chatter. First the user's own statements (said in their or their team's
 * voice, or with a decision, preference or convention cue; the shortest first, so the most of them fit), then a line
 * naming every name and number no kept sentence carries ("Also mentioned: …"), then the other sentences while they fit
 * beside that line, the user's before the assistant's and tools', each by score. When the line fits
 * the budget at all, every name and number of the folded messages stays findable; when it does not (long technical
 * messages), the user's names and the shortest go first.
 *
 * <p>A rolling summary favours what was folded last: when the previous summary and the new fold do not both fit, the
 * new fold may take up to two thirds of the budget and the previous summary gives up its oldest sentences.
 */
public final class ExtractiveSummarizer implements Summarizer {

    /** As in the extractor: a dot inside a version, a date or a host name does not end a sentence. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,:/-]\\d+)*%?");
    /**
     * Capitalised words after the first word, CamelCase, acronyms, versions, product-like tokens, 《titles》; {@code %s}
     * is what may separate the words of a multi-word name.
     */
    private static final String ENTITY_TEMPLATE =
            "(?<![\\p{L}\\d])(?:[A-Z][a-z]+(?:[A-Z][a-z]+)+|[A-Z]{2,}[0-9]*|[A-Z][a-z]{1,}(?:%s[A-Z][a-z]+)*"
                    + "|[a-z]+[A-Z][A-Za-z]+)(?![\\p{L}])|《[^》]{1,30}》";
    /**
     * Words of one name are separated by spaces or tabs only: a line break ends a name, as it ends a sentence, so two
     * capitalised words on separate lines ("…Redis" / "Then…") are two names, not one that no summary could keep.
     */
    private static final Pattern ENTITY = Pattern.compile(String.format(Locale.ROOT, ENTITY_TEMPLATE, "[ \\t]"));
    /** The previous definition, where any white space (a line break too) joined two capitalised words into a name. */
    private static final Pattern ENTITY_ACROSS_LINES =
            Pattern.compile(String.format(Locale.ROOT, ENTITY_TEMPLATE, "\\s"));

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

    /**
     * One candidate sentence of the folded text: {@code stated} when the user said it in their own voice or with a
     * decision/preference/convention cue (what later turns must not lose); {@code entities} its names and numbers.
     */
    private record Sentence(int order, String text, double score, boolean stated, boolean user, Set<String> entities) {}

    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Pattern CLOSING = Pattern.compile("[.。!！?？;；…]+$");

    /** The share of the budget a new fold may claim from the previous summary when both do not fit. */
    private static final double NEW_FOLD_SHARE = 2.0 / 3;

    @Override
    public String fold(String previous, List<SessionMessage> folded, int maxChars) {
        List<Sentence> sentences = new ArrayList<>();
        // every name and number of the folded text, the user's first (they are what the user will refer back to)
        Set<String> fromUser = new LinkedHashSet<>();
        Set<String> fromOthers = new LinkedHashSet<>();
        int order = 0;
        // a sentence said twice (repeated by the user, echoed by the assistant) is one candidate, ranked as its best
        // saying: the user's stated copy outranks an assistant's echo wherever each came
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (SessionMessage m : folded) {
            // split by a loop, not a per-character regular expression, which overflows the stack on long messages
            for (String raw : Statements.sentences(m.content())) {
                String text = raw.strip();
                if (text.isEmpty() || isChatter(text)) {
                    continue;
                }
                Set<String> entities = entitiesAndNumbers(text);
                (m.role() == SessionMessage.Role.USER ? fromUser : fromOthers).addAll(entities);
                boolean stated = m.role() == SessionMessage.Role.USER
                        && (Statements.voice(text) != null || cue(text.toLowerCase(Locale.ROOT)) > 0);
                Sentence candidate = new Sentence(
                        order++,
                        text,
                        score(text, m.role(), stated),
                        stated,
                        m.role() == SessionMessage.Role.USER,
                        entities);
                Integer earlier = seen.putIfAbsent(sameSaying(text), sentences.size());
                if (earlier == null) {
                    sentences.add(candidate);
                } else {
                    sentences.set(earlier, better(sentences.get(earlier), candidate));
                }
            }
        }
        List<String> mustKeep = new ArrayList<>(fromUser);
        fromOthers.stream().filter(e -> !fromUser.contains(e)).forEach(mustKeep::add);
        boolean chinese = folded.stream().anyMatch(m -> m.content().codePoints().anyMatch(ExtractiveSummarizer::isHan));

        String alone = compose(sentences, mustKeep, fromUser, chinese, maxChars);
        String original = previous == null ? "" : previous.strip();
        // a sentence of the previous summary that the new fold says again is kept once, where it was said last
        String base = without(original, alone);
        if (base.isEmpty()) {
            return alone;
        }
        if (base.length() + 1 + alone.length() <= maxChars) {
            return base + " " + alone; // room for both: the previous summary is kept as it was
        }
        // a rolling summary favours what was folded last: the new fold may take up to two thirds of the budget,
        // and the previous summary gives up its oldest sentences to make that room. Measured from the summary as it
        // was: the smaller fold below may leave out a sentence the previous summary shares with it.
        int forNew =
                Math.max(maxChars - original.length() - 1, Math.min(alone.length(), (int) (maxChars * NEW_FOLD_SHARE)));
        String kept = dropOldest(original, maxChars - forNew - 1);
        String fresh =
                compose(sentences, mustKeep, fromUser, chinese, maxChars - (kept.isEmpty() ? 0 : kept.length() + 1));
        kept = without(kept, fresh); // only shorter: still within the budget
        return kept.isEmpty() ? fresh : kept + " " + fresh;
    }

    /** One candidate for two sayings of a sentence: the earlier's place, the better one's text and rank. */
    private static Sentence better(Sentence earlier, Sentence later) {
        boolean laterFirst = later.stated() && !earlier.stated() || later.user() && !earlier.user();
        Sentence best = laterFirst ? later : earlier;
        return new Sentence(
                earlier.order(),
                best.text(),
                Math.max(earlier.score(), later.score()),
                earlier.stated() || later.stated(),
                earlier.user() || later.user(),
                best.entities());
    }

    /** The sentences of {@code summary} that {@code fresh} does not say again (same words, case and spacing aside). */
    private static String without(String summary, String fresh) {
        if (summary.isEmpty() || fresh.isEmpty()) {
            return summary;
        }
        Set<String> again = new java.util.HashSet<>();
        for (String f : Statements.sentences(fresh)) {
            again.add(sameSaying(f));
        }
        StringBuilder out = new StringBuilder();
        for (String part : Statements.sentences(summary)) {
            if (!again.contains(sameSaying(part))) {
                out.append(part);
            }
        }
        return out.toString().strip();
    }

    /** What makes two sentences the same saying: their words, regardless of case, spacing and closing punctuation. */
    private static String sameSaying(String sentence) {
        return SPACES.matcher(sentence.strip().toLowerCase(Locale.ROOT))
                .replaceAll(" ")
                .transform(t -> CLOSING.matcher(t).replaceAll(""));
    }

    /**
     * The summary of one fold within {@code budget} characters: first the user's stated decisions, preferences and
     * facts, shortest first (up to what the line of names leaves, or half the budget), then a line with every name and number no kept sentence carries (cut, when even
     * that does not fit, to the user's names first and the shortest next, so the most of them survive), then the other
     * sentences by score while they fit beside that line.
     */
    private static String compose(
            List<Sentence> sentences, List<String> mustKeep, Set<String> userEntities, boolean chinese, int budget) {
        if (budget <= 0) {
            return "";
        }
        List<Sentence> ranked = new ArrayList<>(sentences);
        ranked.removeIf(s -> s.score() <= 0);
        ranked.sort(Comparator.comparing((Sentence s) -> !s.stated())
                .thenComparing((Sentence s) -> !s.user())
                .thenComparing(Comparator.comparingDouble(Sentence::score).reversed())
                .thenComparingInt(Sentence::order));
        List<Sentence> kept = new ArrayList<>();
        int used = 0;
        String prefix = chinese ? "另提及：" : "Also mentioned: ";
        // the stated sentences may take what the full line of names leaves (a kept sentence only shortens the line,
        // so every name stays findable whenever the line fits at all), or half the budget when it does not fit
        int fullLine = lineLength(mustKeep, prefix);
        int statedCap = fullLine <= budget ? budget - fullLine : budget / 2;
        // within the cap, the shortest statements first: the cap holds the most of them, and a long one left out
        // still leaves its names on the line
        List<Sentence> statedShortestFirst = new ArrayList<>(ranked);
        statedShortestFirst.removeIf(s -> !s.stated());
        statedShortestFirst.sort(
                Comparator.comparingInt((Sentence s) -> s.text().length()));
        for (Sentence s : statedShortestFirst) {
            if (used + s.text().length() + 1 <= statedCap) {
                kept.add(s);
                used += s.text().length() + 1;
            }
        }
        // the line of names and numbers no kept sentence carries, as much of it as the rest of the budget holds
        List<String> line = new ArrayList<>();
        int lineChars = 0;
        String keptText = join(kept);
        List<String> missing = new ArrayList<>();
        for (String e : mustKeep) {
            if (!keptText.contains(e)) {
                missing.add(e);
            }
        }
        if (!missing.isEmpty()) {
            int room = budget - used - prefix.length() - 2;
            // an entity inside a longer one is findable through it ("Flask" inside "Flask 2.0")
            List<String> distinct = new ArrayList<>();
            missing.stream()
                    .sorted(Comparator.comparingInt(String::length).reversed())
                    .filter(e -> distinct.stream().noneMatch(d -> d.contains(e)))
                    .forEach(distinct::add);
            // when they do not all fit: the user's names first, then the shortest, so a cut line keeps the most
            distinct.sort(Comparator.comparing((String e) -> !userEntities.contains(e))
                    .thenComparingInt(String::length));
            Set<String> chosen = new LinkedHashSet<>();
            for (String e : distinct) {
                if (lineChars + e.length() + 2 <= room) {
                    chosen.add(e);
                    lineChars += e.length() + 2;
                }
            }
            missing.stream().filter(chosen::contains).forEach(line::add);
        }
        int lineCost = line.isEmpty() ? 0 : prefix.length() + lineChars + 1;
        for (Sentence s : ranked) {
            if (kept.contains(s)) {
                continue;
            }
            // a kept sentence takes its names off the line, so the line only shrinks
            int saved = 0;
            for (String e : s.entities()) {
                if (line.contains(e)) {
                    saved += e.length() + 2;
                }
            }
            if (used + s.text().length() + 1 + lineCost - saved <= budget) {
                kept.add(s);
                used += s.text().length() + 1;
                line.removeAll(s.entities());
                lineCost = line.isEmpty() ? 0 : lineCost - saved;
            }
        }
        kept.sort(Comparator.comparingInt(Sentence::order));
        StringBuilder out = new StringBuilder(join(kept));
        if (!line.isEmpty()) {
            out.append(out.length() == 0 ? "" : " ")
                    .append(prefix)
                    .append(String.join(chinese ? "、" : ", ", line))
                    .append(chinese ? "。" : ".");
        }
        String summary = out.toString();
        return summary.length() <= budget
                ? summary
                : summary.substring(0, budget).strip();
    }

    /** The length of the line naming {@code entities}, an entity inside another one left out. */
    private static int lineLength(List<String> entities, String prefix) {
        List<String> longestFirst = new ArrayList<>(entities);
        longestFirst.sort(Comparator.comparingInt(String::length).reversed());
        List<String> listed = new ArrayList<>();
        int length = prefix.length() + 1;
        for (String e : longestFirst) {
            if (listed.stream().noneMatch(l -> l.contains(e))) {
                listed.add(e);
                length += e.length() + 2;
            }
        }
        return listed.isEmpty() ? 0 : length + 1;
    }

    /** The newest sentences of {@code summary} that fit in {@code budget}: older ones go first. */
    private static String dropOldest(String summary, int budget) {
        if (budget <= 0) {
            return "";
        }
        List<String> parts = Statements.sentences(summary);
        int length = summary.length();
        int first = 0;
        while (first < parts.size() && length > budget) {
            length -= parts.get(first).length();
            first++;
        }
        return String.join("", parts.subList(first, parts.size())).strip();
    }

    private static String join(List<Sentence> sentences) {
        StringBuilder out = new StringBuilder();
        for (Sentence s : sentences) {
            out.append(out.length() == 0 ? "" : " ").append(s.text());
        }
        return out.toString();
    }

    /** The names (capitalised or CJK runs) and numbers of a text: what a summary must keep. */
    public static Set<String> entitiesAndNumbers(String text) {
        return entitiesAndNumbers(text, ENTITY);
    }

    /**
     * The names and numbers under the previous definition, where a name could run across a line break: kept only so
     * the summary bench can show what the change of definition moves; nothing else should use it.
     */
    public static Set<String> entitiesAndNumbersAcrossLines(String text) {
        return entitiesAndNumbers(text, ENTITY_ACROSS_LINES);
    }

    private static Set<String> entitiesAndNumbers(String text, Pattern entity) {
        Set<String> out = new LinkedHashSet<>();
        Matcher n = NUMBER.matcher(text);
        while (n.find()) {
            out.add(n.group());
        }
        Matcher e = entity.matcher(text);
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

    private static double score(String text, SessionMessage.Role role, boolean stated) {
        double score = cue(text.toLowerCase(Locale.ROOT));
        score += Math.min(3, entitiesAndNumbers(text).size());
        if (role == SessionMessage.Role.USER) {
            // what the user says is what later turns refer back to, even without a name in it ("我将要参加…")
            score += stated ? 1 : 0.5;
        }
        if (role == SessionMessage.Role.TOOL) {
            score -= 1; // tool output is evidence, not what was said; keep it only when it carries names or numbers
        }
        return score;
    }

    /** What the cue words say a sentence is worth: a decision or preference 3, a rule 1.5. */
    private static double cue(String lower) {
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
        return score;
    }

    private static boolean isChatter(String sentence) {
        // "好的，谢谢。" and "ok, thanks!" are chatter too: every clause of it is
        for (String clause : sentence.split("[,，、;；]+")) {
            String c = clause.toLowerCase(Locale.ROOT)
                    .replaceAll("[\\p{Punct}。！？，、；：\\s]+", " ")
                    .strip();
            if (!c.isEmpty() && !CHATTER.contains(c)) {
                return false;
            }
        }
        return true;
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
