package dev.cairn.model.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The form of a statement without its topic: every word that is not a function word or a verb of the statement's frame
 * ("must", "always", "decided", "prefer", "runs on", "必须", "决定", "部署在" …) is masked, and the n-grams of what is left
 * are hashed into a fixed-length vector. A sentence embedding is dominated by what a statement is about; the bank is
 * about coding and operations, so a classifier that reads the embedding alone learns "talks about deployment →
 * environment" and fails on a household or product statement of the same form. These features let the linear
 * classifier see the frame ("we always … before …", "I'd rather … than …", "… is on version …") whatever the topic.
 *
 * <p>Numbers, versions and capitalised names in mid-sentence keep a placeholder of their kind, since a name or a figure
 * is itself a sign of a stable fact or a setup. The vector has unit length (an empty statement still has its start marker).
 */
public final class FormFeatures {

    /** Length of the hashed vector. */
    public static final int DIMENSIONS = 512;

    private FormFeatures() {}

    // Closed-class words and the verbs that frame a preference, rule, choice or setup. Kept short on purpose: a domain
    // noun here would bring the topic back in.
    private static final Set<String> EN_KEPT = java.util.stream.Stream.of(
                    // pronouns and determiners: the voice and who the statement is about
                    "i",
                    "i'm",
                    "im",
                    "i'd",
                    "i've",
                    "i'll",
                    "me",
                    "my",
                    "mine",
                    "myself",
                    "we",
                    "we're",
                    "we've",
                    "we'd",
                    "we'll",
                    "us",
                    "our",
                    "ours",
                    "you",
                    "your",
                    "they",
                    "their",
                    "them",
                    "it",
                    "it's",
                    "its",
                    "he",
                    "she",
                    "his",
                    "her",
                    "this",
                    "that",
                    "these",
                    "those",
                    "there",
                    "everyone",
                    "everybody",
                    "nobody",
                    "anyone",
                    "the",
                    "a",
                    "an",
                    "all",
                    "every",
                    "each",
                    "any",
                    "no",
                    "some",
                    "both",
                    "only",
                    "most",
                    "none",
                    "whole",
                    // auxiliaries and modals
                    "is",
                    "are",
                    "was",
                    "were",
                    "be",
                    "been",
                    "being",
                    "am",
                    "has",
                    "have",
                    "had",
                    "do",
                    "does",
                    "did",
                    "don't",
                    "dont",
                    "doesn't",
                    "didn't",
                    "must",
                    "should",
                    "shall",
                    "will",
                    "would",
                    "can",
                    "could",
                    "may",
                    "might",
                    "need",
                    "needs",
                    "isn't",
                    "aren't",
                    "won't",
                    "can't",
                    "cannot",
                    "shouldn't",
                    "mustn't",
                    "not",
                    "never",
                    "always",
                    "usually",
                    "often",
                    "sometimes",
                    "generally",
                    "ever",
                    "ok",
                    "okay",
                    // prepositions and conjunctions
                    "on",
                    "in",
                    "at",
                    "to",
                    "for",
                    "from",
                    "with",
                    "without",
                    "by",
                    "of",
                    "as",
                    "into",
                    "over",
                    "under",
                    "via",
                    "per",
                    "before",
                    "after",
                    "until",
                    "than",
                    "instead",
                    "rather",
                    "and",
                    "or",
                    "but",
                    "so",
                    "if",
                    "when",
                    "whenever",
                    "unless",
                    "because",
                    "since",
                    "then",
                    "also",
                    "too",
                    "just",
                    "still",
                    "anymore",
                    "now",
                    "currently",
                    "already",
                    "yet",
                    "again",
                    "from",
                    "about",
                    "around",
                    "between",
                    "like",
                    // the frame of a preference
                    "prefer",
                    "prefers",
                    "preferred",
                    "preference",
                    "love",
                    "loves",
                    "hate",
                    "hates",
                    "enjoy",
                    "want",
                    "wants",
                    "favorite",
                    "favourite",
                    "fan",
                    "happier",
                    "better",
                    "fine",
                    "please",
                    "pls",
                    // the frame of a rule
                    "rule",
                    "rules",
                    "policy",
                    "convention",
                    "standard",
                    "required",
                    "require",
                    "requires",
                    "allowed",
                    "forbidden",
                    "mandatory",
                    "goes",
                    "go",
                    "gets",
                    "get",
                    "got",
                    "has",
                    "have",
                    "keep",
                    "make",
                    "first",
                    // the frame of a choice
                    "decided",
                    "decide",
                    "decision",
                    "chose",
                    "choose",
                    "chosen",
                    "picked",
                    "pick",
                    "going",
                    "settled",
                    "switched",
                    "switch",
                    "switching",
                    "moved",
                    "move",
                    "migrated",
                    "dropped",
                    "drop",
                    "adopted",
                    "agreed",
                    "went",
                    "replaced",
                    "replace",
                    "instead",
                    "final",
                    "officially",
                    "last",
                    "week",
                    "month",
                    "year",
                    // the frame of a setup or a stable fact
                    "use",
                    "uses",
                    "used",
                    "using",
                    "run",
                    "runs",
                    "running",
                    "installed",
                    "version",
                    "hosted",
                    "deployed",
                    "lives",
                    "live",
                    "located",
                    "stored",
                    "set",
                    "configured",
                    "called",
                    "named",
                    "name",
                    "works",
                    "work",
                    "owns",
                    "owner",
                    "manages",
                    "leads",
                    "based",
                    "born",
                    "takes")
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final Pattern EN_TOKEN =
            Pattern.compile("[A-Za-z][A-Za-z']*|\\d+(?:[.,:/]\\d+)*[a-z%]*|[vV]\\d+(?:\\.\\d+)*|[^\\sA-Za-z\\d]");

    // Chinese frame words, longest first when they overlap (the matcher tries them in this order).
    private static final List<String> ZH_KEPT = List.of(
            "我们", "我", "你们", "你", "他们", "他", "她", "大家", "团队", "公司", "所有人", "每个人", "必须", "一律", "一定要", "一定", "总是", "每次",
            "每个", "每周", "每天", "所有", "永远", "统一", "规定", "规范", "约定", "习惯", "不要", "不能", "不许", "禁止", "不准", "别", "要", "得",
            "应该", "需要", "决定", "选了", "选择", "定了", "改成", "改用", "换成", "换到", "迁移", "采用", "最后", "最终", "定下", "喜欢", "偏好", "更喜欢",
            "倾向", "宁愿", "宁可", "讨厌", "不喜欢", "希望", "想要", "爱", "习惯于", "部署在", "运行在", "跑在", "装的是", "装了", "版本", "用的是", "使用",
            "用", "在", "是", "有", "叫", "住在", "位于", "属于", "负责", "管理", "大概", "大约", "左右", "的", "了", "过", "着", "把", "被", "给",
            "从", "到", "和", "跟", "或", "但", "而", "就", "也", "还", "才", "已经", "现在", "目前", "一直", "以后", "之前", "以前", "上", "里",
            "下", "个", "位", "年", "月", "日", "号", "不", "没有", "没", "请", "帮", "吧", "呢", "吗", "啊", "哦", "嗯", "比", "而不是", "不是",
            "先", "再", "都", "只", "，", "。", "！", "、", "：", "；");

    private static final Pattern ZH_OTHER = Pattern.compile("\\d+(?:[.,:/]\\d+)*|[A-Za-z][A-Za-z0-9_.'-]*");

    /** The statement's masked form as tokens: kept words, {@code _} for a masked run, placeholders for kinds. */
    public static List<String> tokens(String text) {
        return Statements.isChinese(text) ? chineseTokens(text) : englishTokens(text);
    }

    /** The hashed n-grams (one to three tokens) of {@link #tokens}, as a unit-length vector. */
    public static float[] vector(String text) {
        List<String> t = tokens(text);
        float[] v = new float[DIMENSIONS];
        String lang = Statements.isChinese(text) ? "zh" : "en";
        for (int n = 1; n <= 3; n++) {
            for (int i = 0; i + n <= t.size(); i++) {
                String gram = lang + ":" + String.join(" ", t.subList(i, i + n));
                if (n > 1 && gram.replace("_", "").replace(" ", "").length() == lang.length() + 1) {
                    continue; // a run of masks says nothing
                }
                v[Math.floorMod(gram.hashCode() * 0x9E3779B1, DIMENSIONS)] += 1;
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm > 0) {
            float s = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= s;
            }
        }
        return v;
    }

    private static List<String> englishTokens(String text) {
        List<String> out = new ArrayList<>();
        out.add("<s>");
        Matcher m = EN_TOKEN.matcher(text);
        boolean first = true;
        while (m.find()) {
            String w = m.group();
            String lower = w.toLowerCase(Locale.ROOT);
            String token;
            if (EN_KEPT.contains(lower)) {
                token = lower;
            } else if (Character.isDigit(w.charAt(0)) || lower.matches("v\\d.*")) {
                token = "<num>";
            } else if (!Character.isLetter(w.charAt(0))) {
                token = w.matches("[,.;:!—–-]") ? w : null;
            } else if (!first && Character.isUpperCase(w.charAt(0))) {
                token = "<Name>";
            } else {
                token = "_";
            }
            first = false;
            if (token != null && !(token.equals("_") && out.get(out.size() - 1).equals("_"))) {
                out.add(token);
            }
        }
        return out;
    }

    private static List<String> chineseTokens(String text) {
        List<String> out = new ArrayList<>();
        out.add("<s>");
        int i = 0;
        while (i < text.length()) {
            String token = null;
            int length = 1;
            for (String w : ZH_KEPT) {
                if (text.startsWith(w, i) && w.length() >= length) {
                    if (token == null || w.length() > token.length()) {
                        token = w;
                        length = w.length();
                    }
                }
            }
            if (token == null) {
                Matcher m = ZH_OTHER.matcher(text).region(i, text.length());
                if (m.lookingAt()) {
                    token = Character.isDigit(text.charAt(i)) ? "<num>" : "<latin>";
                    length = m.end() - i;
                } else if (Character.isWhitespace(text.charAt(i))) {
                    i++;
                    continue;
                } else {
                    token = "_";
                }
            }
            if (!(token.equals("_") && out.get(out.size() - 1).equals("_"))) {
                out.add(token);
            }
            i += length;
        }
        return out;
    }
}
