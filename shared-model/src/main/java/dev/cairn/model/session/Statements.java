package dev.cairn.model.session;

import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a user's message is cut into statements and what its precise cues say, in English and Chinese: an explicit
 * request to remember (anywhere in the message), questions, temporary state, credentials, whose statement it is, the
 * words that name a memory type outright, and what makes a statement not the user's present truth: a hedge, someone
 * else's taste, a past state. The cues are deliberately narrow — the {@link EmbeddedExtractor}'s
 * nearest examples carry the rest — so that a cue firing is nearly always right.
 */
public final class Statements {

    private Statements() {}

    /** A statement, with what was left after an explicit "remember" clause was removed. */
    public record Statement(String text, String body, boolean explicit, boolean chinese) {}

    private static final String REMEMBER_EN = "(?:rem[ea]m?b[ea]r|rember|don'?t forget|do not forget|keep in mind|"
            + "make a note|note down|note|for future reference)";
    /** "remember that X", "please don't forget: X", "记一下：X" — the body follows the request. */
    private static final Pattern EXPLICIT_PREFIX = Pattern.compile(
            "(?i)^(?:(?:ok|okay|also|and|oh|btw|pls|please|thanks|so)[,.!]?\\s+)*(?:please\\s+|pls\\s+)?(?:also\\s+)?"
                    + REMEMBER_EN
                    + "(?:\\s+(?:that|this|it))?(?:\\s+for (?:me|later|next time))?\\s*[:,：，—-]?\\s*(.{4,})$"
                    + "|^(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下来|记下|记得|别忘了|不要忘了|以后记得)[了吧]?(?:[:：，,]\\s*)?(.{2,})$");
    /** "X, please remember that.", "X — keep that in mind", "X，记一下" — the body precedes the request. */
    private static final Pattern EXPLICIT_SUFFIX =
            Pattern.compile("(?i)^(.{4,}?)[\\s,;:—–-]+(?:so\\s+)?(?:please\\s+|pls\\s+)?(?:" + REMEMBER_EN
                    + ")(?:\\s+(?:that|this|it|for (?:me|later|next time)|going forward|in (?:the )?future))*[.!\\s]*$"
                    + "|^(.{2,}?)[，,。\\s]*(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下来|记下|记好)(?:这个|这一点|这点|了|吧)?[。！!]*$");

    private static final Pattern EXPLICIT_ANYWHERE =
            Pattern.compile("(?i)\\b" + REMEMBER_EN + "\\b|记住|记一下|记下|别忘了|以后记得");

    private static final Pattern HAN = Pattern.compile("\\p{IsHan}");

    /** Statements of a user's message, in order; a statement shorter than two characters is not one. */
    public static List<Statement> split(String content) {
        List<Statement> out = new ArrayList<>();
        for (String raw : sentences(content)) {
            String sentence = raw.strip();
            if (sentence.length() < 2) {
                continue;
            }
            boolean chinese = isChinese(sentence);
            String body = explicitBody(sentence);
            out.add(new Statement(
                    sentence, body == null ? withoutChangeOfMind(sentence) : body, body != null, chinese));
        }
        return out;
    }

    /**
     * The sentences of {@code content}: a sentence ends at CJK end punctuation, at a line break, or at {@code . ! ? ;}
     * followed by white space or the end — a dot inside a token ({@code PostgreSQL 16.2}, {@code api.example.com})
     * does not end it. A loop rather than a regular expression: a pattern that alternates per character recurses per
     * character, and a 32 KB message without a full stop would overflow the stack.
     */
    static List<String> sentences(String content) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = content.length();
        for (int i = 0; i < n; i++) {
            char c = content.charAt(i);
            boolean end;
            if (c == '\n' || c == '。' || c == '！' || c == '？' || c == '；') {
                end = true;
            } else if (c == '.' || c == '!' || c == '?' || c == ';') {
                int j = i + 1;
                while (j < n && ".!?;".indexOf(content.charAt(j)) >= 0) {
                    j++;
                }
                end = j == n || Character.isWhitespace(content.charAt(j));
                if (end) {
                    i = j - 1;
                }
            } else {
                end = false;
            }
            if (end) {
                out.add(content.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < n) {
            out.add(content.substring(start));
        }
        return out;
    }

    /**
     * "Actually, I changed my mind: I now prefer Go …", "Scratch that — we deploy on Mondays", "更正一下：…": the words
     * that announce a change are not part of what is now true, and a trial saw them stored in the memory.
     */
    private static final Pattern CHANGE_OF_MIND = Pattern.compile("(?i)^(?:(?:ok|okay|oh|so|well|hmm|wait|actually)"
            + "[,.!]?\\s+)*(?:(?:i(?:'ve|\\s+have)?|we(?:'ve|\\s+have)?)\\s+changed\\s+(?:my|our)\\s+minds?|"
            + "(?:change|correction|update|scratch that|never ?mind|on second thought|second thoughts)"
            + "|(?:i|we)\\s+take\\s+(?:that|it)\\s+back)\\s*[:,;.!—–-]+\\s*(\\S.{3,})$"
            + "|^(?:更正一下|更正|改一下|我改主意了|改主意了|纠正一下)[:：，,]\\s*(.{2,})$");

    static String withoutChangeOfMind(String sentence) {
        Matcher m = CHANGE_OF_MIND.matcher(sentence);
        if (!m.find()) {
            return sentence;
        }
        return capitalised((m.group(1) != null ? m.group(1) : m.group(2)).strip());
    }

    /** Whether some statement of {@code content} asks for something to be remembered, wherever it stands. */
    public static boolean asksToRemember(String content) {
        if (!EXPLICIT_ANYWHERE.matcher(content).find()) {
            return false; // the cheap check first: appends call this on every user message
        }
        for (Statement s : split(content)) {
            if (s.explicit()) {
                return true;
            }
        }
        return false;
    }

    /** Two or more Han characters make a statement Chinese (a Chinese sentence often carries English names). */
    public static boolean isChinese(String text) {
        Matcher m = HAN.matcher(text);
        return m.find() && m.find();
    }

    /** What an explicit request to remember asks to keep, or null when the sentence makes no such request. */
    static String explicitBody(String sentence) {
        Matcher p = EXPLICIT_PREFIX.matcher(sentence);
        if (p.find()) {
            String body = (p.group(1) != null ? p.group(1) : p.group(2)).strip();
            if (p.group(1) != null
                    && body.matches("(?is)^to\\s+\\S.*")
                    && sentence.substring(0, p.start(1)).strip().matches("(?is).*" + REMEMBER_EN)) {
                // "remember to call me tomorrow", "don't forget to push": a reminder of something to do, not a fact to
                // keep (a new user's trial got the preference "To call me tomorrow")
                return null;
            }
            // "remember that." alone refers to the previous sentence, handled by the caller
            return capitalised(body);
        }
        Matcher x = EXPLICIT_SUFFIX.matcher(sentence);
        if (x.find()) {
            String body = (x.group(1) != null ? x.group(1) : x.group(2)).strip();
            return capitalised(trimEnd(body));
        }
        return null;
    }

    // ---- cues ---------------------------------------------------------------------------------------------------

    private static final Pattern QUESTION = Pattern.compile("[?？]\\s*\\p{Punct}*\\s*$"
            + "|(?i)^(?:(?:so|and|but|hmm|wait|ok|sorry|also|quick question)[,.!:]?\\s+)*"
            // "Do not use lodash in new code" is a rule in the imperative, not a question
            + "(?:do(?!\\s+not\\b)|does|did|should|shall|can|could|would|will|what|what's|whats|which|why|how|is|are|"
            + "was|were|"
            + "where|who|whom|when|any idea|i wonder|is there|are there)\\b(?!.*\\b(?:please|pls)\\b)[^.!]*$"
            + "|吗[。？?]?$|呢[。？?]?$|(?:什么|怎么|为什么|为啥|哪个|哪些|哪里|几点|多少|是不是|有没有|能不能|到底).*[？?]?$");
    /** A question that asks the assistant to do something is a request, not a question. */
    private static final Pattern POLITE_REQUEST =
            Pattern.compile("(?i)^(?:(?:so|and|ok|okay|now|great|cool|also)[,.!]?\\s+)*(?:can|could|would|will) you\\s+"
                    + "(?!remember|tell me|remind)");

    private static final Pattern TEMPORARY = Pattern.compile("(?i)\\b(?:right now|rn|atm|for now|today|tonight|"
            + "this (?:morning|afternoon|evening|week|sprint|time|task|draft|session)|at the moment|for the moment|"
            + "currently|temporarily|for this (?:session|task|pr|draft|chart|one)|just for this|just this once|"
            + "for the time being|until (?:tomorrow|next week|monday|tuesday|wednesday|thursday|friday|the)|"
            + "in \\d+ (?:minutes|hours)|mid-\\w+)\\b"
            + "|临时|今天|今晚|明天|现在|暂时|这次|目前|这会儿|这周|本周|这两天|这一版|这个\\s?PR|刚才|刚刚|待会|等会|稍后|"
            + "一会儿|马上|"
            + "(?:\\d+|[一二三四五六七八九十两半]+)(?:个)?(?:分钟|小时)(?:后|之后|以后)");
    /** What makes a statement durable even when it mentions a time ("from now on", "every day"). */
    private static final Pattern DURABLE = Pattern.compile("(?i)\\b(?:always|never|every|from now on|going forward|"
            + "in future|in the future|all my|for future)\\b|以后|一律|总是|每次|每天|每周|一直"
            // "我们现在用 MySQL 9", "现在改用 pnpm": a change of what is used, like the English "we now use" (which no
            // temporary cue matches), not the passing state of "我现在在调试"
            + "|现在(?:改用|改成|改为|换成|换到|换用|统一|都用|采用|用)");

    /**
     * A statement whose point is a credential: a password, PIN, token or key given with its value. The secret scanner
     * finds credentials by their shape; a short or human-chosen one ("hunter2", "4821") has no shape and is recognised
     * by what the sentence says it is.
     */
    private static final Pattern CREDENTIAL = Pattern.compile("(?i)\\b(?:password|passwd|passphrase|pwd|pin|passcode|"
            + "door code|access code|alarm code|api[ _-]?key|secret(?: key)?|token|private key|credentials?|login)\\b"
            // the verb as a word, in the languages the scanner reads: "Meine PIN … ist 6158" once gave "is" + "t"
            + "(?:\\s+\\S+){0,5}?\\s*(?:(?:is|was|ist|war|lautet|es|era|est|é)\\b|=|:|：)\\s*(\\S+)"
            + "|(?i)\\b(?:login|credentials?)\\b[^.]*?:\\s*\\S+\\s*/\\s*(\\S+)"
            + "|(?i)\\b(?:password|secret key|secret|token|api key|key|pin)\\s+"
            + "((?=\\S*[0-9!@#$%^&*_/+])[A-Za-z0-9/+_\\-!@#$%^&*.]{6,})"
            + "|(?:密码|密钥|口令|令牌|token|秘钥|验证码)[^，。,]{0,6}?(?:是|为|：|:|\\s)\\s*"
            + "((?=[^\\s，。,]*[0-9!@#$%^&*_\\-])[^\\s，。,]{3,})");

    private static final Pattern TEAM_VOICE = Pattern.compile(
            "(?i)\\bmy\\s+(?:team|company|org|organi[sz]ation|squad|group|colleagues|coworkers|co-workers)\\b"
                    + "|\\b(?:we|we're|we've|we'll|we'd|our|ours|us|team|everyone|everybody)\\b|我们|咱们|大家|团队|全组|我们组|公司");

    /**
     * The speaker's opinion about what the team does ("I think we should always squash-merge", "我觉得我们应该…"): the
     * statement is the team's, and the "I" only frames it.
     */
    private static final Pattern OPINION_FRAME = Pattern.compile("(?i)\\b(?:i|i'd)\\s+(?:(?:really|honestly|strongly|"
            + "still|also|do)\\s+)*(?:think|believe|guess|feel(?:\\s+like)?|suppose|reckon|suggest|propose|hope|say|"
            + "would\\s+say|(?:want|(?:would\\s+)?like)(?=\\s+(?:us|the\\s+team|everyone)\\b))\\b"
            + "|'d\\s+(?:say|like(?=\\s+us\\b))\\b|\\bimo\\b|\\bimho\\b|我(?:觉得|认为|想|建议|希望|感觉)");

    private static final Pattern USER_VOICE =
            Pattern.compile("(?i)\\b(?:i|i'm|im|i'd|id|i've|i'll|my|me|mine)\\b|我(?!们)");

    private static final Map<MemoryType, Pattern> TYPE_CUES = new EnumMap<>(MemoryType.class);

    static {
        TYPE_CUES.put(
                MemoryType.PREFERENCE,
                Pattern.compile("(?i)\\b(?:prefer|prefere|perfer|preferred|preference|i'd rather|i would rather|"
                        + "rather (?:have|use|get|not)|fan of|favou?rite|fav|go-to|partial to|happier with|"
                        + "happiest with|more comfortable|i (?:really )?(?:like|love|hate|dislike|enjoy)|"
                        + "i'm (?:more of|a fan)|don't like|do not like|i want|i'd like|i'd love|give me|for me|"
                        + "with me|to me|my code|my (?:projects?|documents?|writing|decks?|reports?))\\b"
                        + "|(?:我|我个人)[^们，。]{0,8}?(?:更喜欢|喜欢|偏好|偏爱|习惯|倾向|宁愿|宁可|愿意|更爱|爱喝|不喜欢|讨厌|首选|希望|想要|要)"
                        + "|给我|跟我|对我|帮我写|写给我|叫我|请用|别给我|首选|我的编辑器|我用的"));
        TYPE_CUES.put(
                MemoryType.CONVENTION,
                Pattern.compile("(?i)\\b(?:convention|conventions|policy|rule|rules|standard|style guide|by convention|"
                        + "must|mandatory|required|requires?|no exceptions|not allowed|we always|we never|"
                        + "we (?:don't|do not|require|write|use|keep|tag|name|review|version|pin)|"
                        + "(?:every|each|all|any)\\s+\\w+(?:\\s+\\w+)?\\s+(?:must|needs?|has to|have to|gets?|goes|go|"
                        + "are|is|lives?|starts?|ends?|requires?))\\b"
                        + "|规定|规范|约定|规矩|惯例|一律|统一|必须|都要|要求|不允许|禁止|不许|不能|家规|每个.{0,20}?(?:都|要|必须)"));
        TYPE_CUES.put(
                MemoryType.DECISION,
                Pattern.compile("(?i)\\b(?:decided|decide|decidd|decidid|decision|chose|chosen|picked|settled|"
                        + "went with|going with|go with|agreed|approved|voted|selected|opted|adopting|adopted|"
                        + "switch(?:ed|ing)? (?:to|from)|migrat(?:e|ed|ing) (?:to|from)|mov(?:e|ed|ing|es) (?:to|from)|"
                        + "replac(?:e|ed|ing)|dropp(?:ed|ing)|scrapped|killed|cancell?ed|sunset|deprecat\\w+|"
                        + "standardi[sz]\\w+|landed on|final call|final answer|is settled|signed off|won)\\b"
                        + "|决定|定了|拍板|选了|选择|选定|采用|改用|换成|迁移到|迁到|批准|投票|定为|定在|不用了|不做了|砍掉|下线|停止|订好|已经定"));
        TYPE_CUES.put(
                MemoryType.ENVIRONMENT,
                Pattern.compile("(?i)\\b(?:runs? on|running on|runs in|deployed (?:on|in|to|with)|hosted (?:on|at|in)|"
                        + "lives (?:in|on|behind)|served (?:by|with|from)|is on|are on|we're on|built with|targets?|"
                        + "prod|production|staging|cluster|region|laptop|machine|runtime|instances?|"
                        + "v?\\d+(?:\\.\\d+)+|\\d+ ?(?:gb|tb|cores?))\\b"
                        + "|部署在|跑在|运行在|托管在|用的是|跑着|装的|环境|集群|服务器|区域|实例|运行时|内存|显卡|硬盘"));
    }

    public static boolean isQuestion(String s) {
        return QUESTION.matcher(s).find() && !POLITE_REQUEST.matcher(s).find();
    }

    /**
     * An instruction about the work at hand ("Add logging to the retry loop", "Delete the unused imports in this
     * file"): an imperative verb first and nothing that makes it a standing rule ("always", "for me", "my code").
     */
    public static boolean isImperativeRequest(String s) {
        return IMPERATIVE.matcher(s).find()
                && !DURABLE.matcher(s).find()
                && !STANDING.matcher(s).find();
    }

    private static final Pattern IMPERATIVE = Pattern.compile("(?i)^(?:(?:ok|okay|now|great|cool|good|thanks|so|and|"
            + "also|then)[,.!]?\\s+)*(?:please\\s+|pls\\s+|just\\s+)?(?:write|fix|rename|generate|run|explain|add|draft|"
            + "translate|make|look|bump|convert|delete|remove|open|show|split|undo|try|summari[sz]e|plot|book|create|"
            + "clean|rewrite|set|find|compare|turn|resize|send|tag|shorten|order|retrain|check|put|refactor|update|"
            + "move|change|replace|implement|build|deploy|review|list|draw|format|sort|merge|commit|push|"
            + "revert|install|upgrade|test|debug|port|migrate|reply|call(?!\\s+me\\b)|email|schedule|cancel|print|read|search)\\b"
            + "|^(?:帮我|请帮我|麻烦|把|再帮我|再把|删掉|修一下|跑一下|解释一下|撤销|生成|总结一下|清理一下|翻译|提醒我)"
            // a Chinese instruction about the work at hand: a request to the assistant ("你帮我…", "能不能帮…"), or
            // a verb of doing first with a measure of this once ("写个…", "查一下…", "在循环里加…")
            + "|^(?:请你?(?!用|一直|始终|别|不要)|你(?:帮|给|来|去|再)|能不能帮|能帮|可以帮|可不可以帮|"
            + "(?:写|改|加|查|看|列|算|订|发|设|补|换|做|画|搜|找|读|跑|测)(?:个|一个|一下|一份|几个|点)|"
            + "(?:查查|看看|安排|整理|检查|重构|优化|去掉|格式化|列出|算算|对比|比较)|"
            + "在[^，。]{1,15}(?:里|中|上|前|后)(?:加|写|补|删|改|插))"
            + "|(?:一下|下吧)[。！!]?$");
    /** What turns an imperative into a standing preference or rule. */
    private static final Pattern STANDING = Pattern.compile("(?i)\\b(?:for me|with me|my (?:code|projects?|writing|"
            + "documents?|repos?)|anything|everything|whenever|any time|all (?:my|of my|the time)|by default|"
            + "in general|generally)\\b|以后|所有|默认|一律|都用|都要|每次|尽量|一般");

    public static boolean isPoliteRequest(String s) {
        return POLITE_REQUEST.matcher(s).find();
    }

    /** Temporary state, unless something in the statement makes it durable ("always", "from now on"). */
    public static boolean isTemporary(String s) {
        return TEMPORARY.matcher(s).find() && !DURABLE.matcher(s).find();
    }

    public static boolean isDurable(String s) {
        return DURABLE.matcher(s).find();
    }

    /** The start and end of the credential's value when {@code s} gives one, else null. */
    public static int[] credential(String s) {
        Matcher m = CREDENTIAL.matcher(s);
        if (!m.find()) {
            return null;
        }
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
                String value = m.group(g);
                // a value is not a plain word of the sentence ("the password is stored in Vault")
                // nor a participle ("the door code feature is shipping in version 2.4")
                if (value.matches("(?i)(?:stored|kept|in|on|the|a|an|managed|rotated|set|not|never|always|"
                                + "required|handled|saved|located|available|here|there|below|above|same)[.,]?")
                        || value.matches("[a-z]{3,}(?:ing|ed)[.,]?")) {
                    return null;
                }
                // "password: ${DB_PASSWORD}", "token is <your-token>": a reference or a placeholder, which the secret
                // scanner does not take for a secret either (a second new-user trial saw it redacted at the end)
                if (PLACEHOLDER.matcher(value).matches()) {
                    return null;
                }
                // "the token expiry for sessions is 15 minutes", "password length: 12": a setting of the credential
                // (an attribute noun between its name and the value, or a number with its unit), not its value
                if (ATTRIBUTE.matcher(s.substring(m.start(), m.start(g))).find()
                        || QUANTITY.matcher(s.substring(m.start(g))).lookingAt()) {
                    return null;
                }
                return new int[] {m.start(g), m.end(g)};
            }
        }
        return null;
    }

    /**
     * A value that only names where the credential is: a variable (${DB_PASSWORD}, $DB_PASSWORD, %DB_PASSWORD%,
     * {{ db_password }}, process.env.X, os.environ[...]), a placeholder in angle brackets, or a mask (****, xxxx).
     */
    private static final Pattern PLACEHOLDER = Pattern.compile("[\"'`]?(?:\\$\\{[^}\\s]{1,80}}|\\$[A-Z_][A-Z0-9_]{1,80}"
            + "|%[A-Za-z_][A-Za-z0-9_]{1,80}%|\\{\\{[^}]{1,80}}}|<[^>\\s]{1,80}>|\\*{3,}|[xX]{3,}"
            + "|(?:process\\.env|os\\.environ|import\\.meta\\.env|System\\.getenv|ENV)[\\[.(]\\S{1,80})[\"'`]?[.,;]?");

    private static final Pattern PLACEHOLDER_IN_TEXT = Pattern.compile("(?<!\\S)" + PLACEHOLDER.pattern() + "(?!\\S)");

    /** Nouns that make "password X is N" / "token X: N" a setting of the credential rather than its value. */
    private static final Pattern ATTRIBUTE = Pattern.compile("(?i)\\b(?:expiry|expiration|lifetime|ttl|timeout|"
            + "length|policy|policies|rotation|size|limit|budget|count|age|requirements?|strength|complexity|hash|"
            + "hashing|algorithm|field|column|header|endpoint|url|scopes?|format|prefix|manager|history|attempts?|"
            + "retries|window|interval|cost|rounds)\\b|有效期|长度|过期|策略|位数");

    /**
     * A number with its unit ("15 minutes", "12 characters", "3 attempts", "90 天"): a duration, size or count said
     * about a credential, which no one writes as the credential itself.
     */
    private static final Pattern QUANTITY = Pattern.compile("(?i)\\d+(?:[.,]\\d+)?\\s*(?:minutes?|mins?|hours?|hrs?|"
            + "days?|weeks?|months?|years?|seconds?|secs?|ms|characters?|chars?|digits?|letters?|symbols?|words?|"
            + "attempts?|tries|times|retries|bytes?|bits?|kb|mb|gb|kib|mib|%|percent|users?|sessions?|requests?|"
            + "tokens?|rounds|分钟|小时|天|周|个月|年|秒|位|个字符|次"
            // the same units in German, Spanish, French and Portuguese ("Die PIN muss 6 Ziffern haben", "El PIN
            // debe tener 4 dígitos"), which a trial saw withheld as credentials
            + "|ziffern|stellen|zeichen|versuche|minuten|stunden|tage|d[ií]gitos|caracteres|intentos|minutos|d[ií]as"
            + "|chiffres|caract[eè]res|tentatives|jours)(?![\\p{L}\\d])");

    /**
     * Tokens that are names, not values: a field or column named for the credential ("password_hash", "api_token",
     * "reset_token_expires"), a number of one or two digits ("mod 97": no credential is that short, and the scanner
     * reads a card's CVV by its name) and the password manager whose name starts with a digit (1Password).
     */
    private static final Pattern NAME_NOT_VALUE = Pattern.compile("(?i)(?<!\\S)(?:[a-z]+_)*(?:password|passwd|pwd|"
            + "secret|token|key|pin|otp|hash|salt)(?:_[a-z]+)*(?=[.,;:!?)]*(?:\\s|$))(?<=_[a-z]{1,20}|[a-z]_[a-z]{1,20})"
            + "|(?<!\\S)\\d{1,2}(?=[.,;:!?)]*(?:\\s|$))|\\b1Password\\b");

    /**
     * Where a token is a tool, not a value: after a participle and "with", "using", "by" or "via" ("hashed with
     * argon2id", "signed using ed25519").
     */
    private static final Pattern TOOL = Pattern.compile("(?i)\\b\\p{L}+ed\\s+(?:with|using|by|via)\\s+\\S+");

    /**
     * Whether {@code s} holds a token that could be a credential's value: one with a digit or a symbol, one with
     * a capital after a small letter ("hunTer"), a run of 16+ letters no English word is ("correcthorsebattery"),
     * whatever follows a colon ("助记词：orbit lemon …") or twelve lower-case words in a row, the shortest wallet seed
     * phrase (BIP-39: 12 to 24 words of 3–8 letters). Plain prose — "The password is stored in Vault." — holds none.
     */
    public static boolean holdsValueLikeToken(String s) {
        // quantities ("12 characters", "15 minutes") and tools ("hashed with argon2id") hold digits but no value
        String rest = TOOL.matcher(QUANTITY.matcher(s).replaceAll(" ")).replaceAll(" ");
        // nor do a field named for the credential, a one- or two-digit number, or 1Password
        rest = NAME_NOT_VALUE.matcher(rest).replaceAll(" ");
        // and a variable or placeholder where the value would be ("password: ${DB_PASSWORD}") is none either
        // (a full stop, not a space, takes its place: "password: ${DB_PASSWORD} comes from the env" must not read
        // "comes" as what follows the colon)
        rest = PLACEHOLDER_IN_TEXT.matcher(rest).replaceAll(" . ");
        return VALUE_LIKE.matcher(rest).find();
    }

    // a token is a run of non-space characters; trailing sentence punctuation is not part of it
    private static final Pattern VALUE_LIKE =
            // a lone sign ("api key = …", "a -> b") is not a value: a token needs a letter or digit
            Pattern.compile("(?<![\\S])(?=[^\\s]*?[\\p{L}\\p{N}])(?=[^\\s]*?(?:[0-9]|[!@#$%^&*_+=/\\\\~|<>{}\\[\\]]"
                    + "|\\p{Ll}\\p{Lu}))[^\\s]*[^\\s.,;:!?。，！？]"
                    + "|[A-Za-z]{16,}"
                    + "|[:：]\\s*[^\\s.。]"
                    + "|\\b[a-z]{3,8}(?:\\s+[a-z]{3,8}){11}\\b");

    /**
     * Words of someone weighing an idea rather than stating one: "we might move to Terraform", "maybe we should try
     * Bun at some point", "not sure yet", "在考虑要不要换", "也许可以试试". Narrow on purpose: "I think" alone softens
     * a firm statement ("I think we should always squash-merge") and is no hedge; "may" grants permission as often as
     * it hedges; "eventually" is also "eventually consistent"; "尽可能" is "as far as possible", "大概" an estimate of a
     * number; "考虑" counts only as an ongoing or open consideration ("优先考虑 SQL", "不考虑了" are a taste and a choice).
     */
    private static final Pattern HEDGE = Pattern.compile("(?i)\\b(?:(?:we|i|they)\\s+(?:(?!not\\b)\\w+\\s+)?might|"
            + "might\\s+(?:just\\s+)?(?:go|move|switch|try|use|adopt|drop|stay|migrate|change|start|look|end up)|"
            + "maybe|mayb|perhaps|possibly|probably|not sure|unsure|undecided|(?:not|haven'?t|hasn'?t) (?:been )?decided|"
            + "nothing(?:'s| is) (?:decided|settled|final)|not (?:settled|final|decided)(?: yet)?|thinking (?:about|of)|"
            + "considering|toying with|at some point|some ?day|sometime|we'?ll see|who knows|idk|tbd)\\b"
            + "|(?<![尽不])可能(?!性)|也许|或许|说不定|还不确定|不确定|还没定|没定下来|还没想好|没想好|还在纠结|还在犹豫"
            + "|(?:在|正在|还在|打算|准备)考虑|考虑(?:要不要|是否|一下)");

    /**
     * What keeps a hedged statement firm: a standing rule ("maybe overkill, but every service must have an owner") or
     * a choice already made ("we were considering Kafka but decided on RabbitMQ"; not "nothing's decided", "havent
     * decided", "hasn't been decided", "it is not decided").
     */
    private static final Pattern FIRM = Pattern.compile("(?i)\\b(?:always|never|every|must|from now on|going forward|"
            + "no exceptions)\\b|(?<!\\bnot\\s|n'?t\\s|\\bbeen\\s|nothing's\\s|\\bis\\s)\\b(?:decided|agreed|"
            + "settled on|picked|chose|went with|signed off)\\b"
            + "|一律|必须|统一|每次|每个|从不|始终|(?<![没未不])决定|定了|已经定|拍板|选了|最后选");

    /**
     * The speaker's own taste, which is soft by nature ("I think I prefer Vitest", "可能我更喜欢列表形式") and stays a
     * preference under a hedge; "我" must be the one who likes ("我老婆喜欢…" is someone else's taste).
     */
    private static final Pattern OWN_TASTE =
            Pattern.compile("(?i)\\bI(?:'d|\\s+would)?\\s+(?:(?:also|really|much|still|"
                    + "both|personally|honestly|definitely|kinda|generally|usually|always|do|just|too|actually|think\\s+i)\\s+)*"
                    + "(?:prefer|like|love|hate|dislike|enjoy|rather)\\b"
                    + "|我(?:和[^，。]{1,6}?)?(?:也|还|都|就|比较|更|很|一直|特别|最|个人|自己|其实|还是|不太|不)*"
                    + "(?:更喜欢|喜欢|偏好|偏爱|习惯|倾向|宁愿|宁可|更爱|讨厌)");

    /** Whether {@code s} weighs an idea instead of stating a fact, a rule, a choice or the speaker's own taste. */
    public static boolean isTentative(String s) {
        return HEDGE.matcher(s).find()
                && !FIRM.matcher(s).find()
                && !OWN_TASTE.matcher(s).find();
    }

    /** The hundred or so most common Chinese surnames (one character each), as a character class. */
    private static final String SURNAMES = "[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶"
            + "程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧]";
    /** Words between a subject and its verb of taste in Chinese: "也", "比较", "一直", "不太" … (at most two). */
    private static final String TASTE_ADVERBS_ZH = "(?:也|还|就|比较|更|很|一直|特别|最|都|不太|不){0,2}";
    /** The Chinese verbs of taste that follow someone else as subject. */
    private static final String TASTE_VERBS_ZH = "(?:更喜欢|喜欢|偏好|偏爱|习惯|爱用|爱喝|爱吃|讨厌|倾向|想要|宁愿|宁可|不喜欢)";

    /**
     * A taste whose subject is someone other than the speaker: "John said he prefers Vim", "my wife hates spicy food",
     * "Priya told me she'd rather pair", "张三说他喜欢用 Vim", "我老婆喜欢靠窗的座位", "李四喜欢用 Emacs". A name is a
     * capitalised word that is not a function word at the head of the sentence. A Chinese name is read only where
     * its form says so, at the head of a clause and right before the verb of taste: one of the common surnames with
     * one or two characters after it, 小/老/阿 before a surname, or a title after a name (王总, 陈老师). Words that
     * begin with a surname's character and often open a sentence without a subject (周末, 白天, 夏天, 高中, 向来, 任何) are not
     * names. Elsewhere it is "他/她" or a relative or colleague before the verb.
     */
    private static final Pattern SOMEONE_ELSES_TASTE = Pattern.compile("^(?i:(?:ok|okay|so|also|btw|fyi|oh|and|but)"
            + "[,:]?\\s+)*(?:(?!(?:I|We|You|It|This|That|These|Those|There|The|Our|My|Your|Everyone|Everybody|Nobody|"
            + "Team|Please|Let|Let's|Maybe|Perhaps)\\b)\\p{Lu}\\p{Ll}+(?:\\s+\\p{Lu}\\p{Ll}+)?"
            + "|(?i:he|she|they|(?:my|our)\\s+(?:wife|husband|partner|girlfriend|boyfriend|colleague|coworker|co-worker|"
            + "boss|manager|lead|mom|mum|dad|mother|father|son|daughter|kids?|children|friend|teammate|cto|ceo|pm|"
            + "designer|client|customer|landlord|brother|sister|parents?)))\\s+"
            + "(?i:(?:said|says|told (?:me|us)|mentioned|thinks|claims)(?:\\s+that)?\\s+(?:he|she|they)\\b|"
            + "(?:\\w+\\s+)?(?:prefers|likes|loves|hates|dislikes|enjoys|wants|is a (?:big |huge )?fan of|"
            + "would rather|'d rather|can'?t stand))"
            + "|(?:^|[，。；！？,;]\\s*)(?!周末|周[一二三四五六日天]|白天|夏天|夏季|高中|高峰|方便|马上|江湖|向来|于是|任何|万一)"
            + "(?:[小老阿]" + SURNAMES + "|" + SURNAMES + "\\p{IsHan}{1,2}?|\\p{IsHan}{1,2}?(?:总|哥|姐|老师|经理|工|博士))"
            + TASTE_ADVERBS_ZH
            + TASTE_VERBS_ZH
            + "|(?<![我其])(?:他|她)们?" + TASTE_ADVERBS_ZH
            + TASTE_VERBS_ZH
            + "|^(?:我的?|我们的?)?(?:老婆|老公|妻子|丈夫|太太|先生|爱人|对象|女朋友|男朋友|同事|老板|领导|经理|主管|组长|"
            + "妈妈?|爸爸?|母亲|父亲|女儿|儿子|孩子|朋友|室友|家人|父母|爷爷|奶奶|客户|甲方)[^，。我]{0,4}?"
            + TASTE_VERBS_ZH);

    /** Whether {@code s} tells someone else's taste and not the speaker's ("my colleague and I prefer …" is theirs too). */
    public static boolean isSomeoneElsesTaste(String s) {
        return SOMEONE_ELSES_TASTE.matcher(s).find() && !OWN_TASTE.matcher(s).find();
    }

    /**
     * A state that held before and is not said to hold now: "we used to deploy on Heroku", "previously the API was
     * hosted on DigitalOcean", "我们以前部署在 Heroku 上". "I'm used to vim keybindings" and "Redis is used to cache"
     * are not the past; "之前" after a noun is "before it" ("上线之前必须跑测试"), and "过去三年" a span.
     */
    private static final Pattern PAST_STATE = Pattern.compile("(?i)(?<!\\b(?:be|been|being|am|is|are|was|were|get|gets|"
            + "got|getting|im|m|re|s)\\s)\\bused\\s+to\\b(?!\\s+(?:it|this|that|them)\\b)"
            + "|\\b(?:previously|formerly|back then|in the old days|in the past)\\b"
            + "|(?:^|[，,；;\\s]|我们|咱们|我|公司|团队|大家)(?:以前|之前|曾经|原先|早先|过去|当初)"
            + "(?!的?\\s*(?:\\d|[一二三四五六七八九十两几]))");
    /** What says the present beside the past: "we used to be on Heroku but now …", "以前…，现在都跑在…". */
    private static final Pattern PRESENT = Pattern.compile("(?i)\\b(?:now|nowadays|these days|since then|moved|"
            + "switched|migrated|replaced|today|currently)\\b|现在|如今|目前|后来|改成|换成|换到|迁到|迁移到|改用|切到|转到");

    /** Whether {@code s} says how things were, not how they are. */
    public static boolean isPastState(String s) {
        return PAST_STATE.matcher(s).find() && !PRESENT.matcher(s).find();
    }

    /** The memory types whose cue words occur in {@code s}. */
    public static Map<MemoryType, Boolean> typeCues(String s) {
        Map<MemoryType, Boolean> out = new EnumMap<>(MemoryType.class);
        TYPE_CUES.forEach((type, p) -> {
            if (p.matcher(s).find()) {
                out.put(type, true);
            }
        });
        return out;
    }

    /** Whose statement it is: the team's when it speaks as "we"/"our", the user's as "I"/"my", else null. */
    /**
     * The scope a statement belongs to: its first voice, past an opinion frame ("I think we …"). "I'm vegetarian, so
     * keep that in mind for team lunches" is the speaker's, not the team's: a trial saw such statements stored as team
     * memories and recalled by a teammate. Where "I" and "we" share a statement the earlier one decides, so a personal
     * fact that goes on to mention the team stays the user's (the narrower scope, when in doubt).
     */
    public static Scope scopeOf(String s) {
        String rest = OPINION_FRAME.matcher(s).replaceAll(" ");
        Matcher team = TEAM_VOICE.matcher(rest);
        Matcher user = USER_VOICE.matcher(rest);
        boolean isTeam = team.find();
        boolean isUser = user.find();
        if (isTeam && isUser) {
            return team.start() <= user.start() ? Scope.TEAM : Scope.USER;
        }
        return isTeam ? Scope.TEAM : isUser ? Scope.USER : null;
    }

    /** Whether the statement speaks for the team or the speaker at all, and which it mentions (the team first). */
    public static Scope voice(String s) {
        if (TEAM_VOICE.matcher(s).find()) {
            return Scope.TEAM;
        }
        if (USER_VOICE.matcher(s).find()) {
            return Scope.USER;
        }
        return null;
    }

    private static String trimEnd(String s) {
        return s.replaceAll("[\\s,;:—–，；：-]+$", "");
    }

    private static String capitalised(String s) {
        return s.isEmpty() || !Character.isLowerCase(s.charAt(0))
                ? s
                : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
