package dev.cairn.model.secret;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the rules file: a version line, then one block per rule.
 *
 * <pre>
 * version = 2026.11.30
 *
 * [github-pat]
 * description = GitHub personal access token (classic)
 * keywords = ghp_
 * pattern = \b(ghp_[A-Za-z0-9]{36})\b
 * group = 1
 * entropy = 3.0
 * positive = token ghp_...
 * negative = ghp_xxxxxxxx...
 * </pre>
 *
 * A plain line format rather than JSON or YAML: the domain module has no parser dependency, patterns need no escaping
 * beyond the regex's own, and a rule reads top to bottom like its documentation.
 */
public final class SecretRules {

    public static final String RESOURCE = "/dev/cairn/model/secret/secret-rules.txt";

    private final String version;
    private final List<SecretRule> rules;

    private SecretRules(String version, List<SecretRule> rules) {
        this.version = version;
        this.rules = List.copyOf(rules);
    }

    public String version() {
        return version;
    }

    public List<SecretRule> rules() {
        return rules;
    }

    /** The rules shipped with this build. */
    public static SecretRules bundled() {
        try (InputStream in = SecretRules.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static SecretRules parse(String text) {
        String version = null;
        List<SecretRule> rules = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Block block = null;
        int lineNo = 0;
        try (BufferedReader r = new BufferedReader(new java.io.StringReader(text))) {
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("[") && line.endsWith("]")) {
                    if (block != null) {
                        rules.add(block.build());
                    }
                    block = new Block(line.substring(1, line.length() - 1).trim(), lineNo);
                    if (!ids.add(block.id)) {
                        throw new IllegalArgumentException("line " + lineNo + ": rule " + block.id + " twice");
                    }
                    continue;
                }
                int eq = line.indexOf(" = ");
                if (eq < 0) {
                    throw new IllegalArgumentException("line " + lineNo + ": expected 'name = value'");
                }
                String name = line.substring(0, eq).trim();
                String value = line.substring(eq + 3);
                if (block == null) {
                    if (!name.equals("version")) {
                        throw new IllegalArgumentException("line " + lineNo + ": only 'version' may precede rules");
                    }
                    version = value.trim();
                } else {
                    block.set(name, value, lineNo);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (block != null) {
            rules.add(block.build());
        }
        if (version == null) {
            throw new IllegalArgumentException("the rules file has no version line");
        }
        return new SecretRules(version, rules);
    }

    private static final class Block {
        final String id;
        final int line;
        String description;
        final List<String> keywords = new ArrayList<>();
        String pattern;
        int group;
        double entropy;
        int span = 256;
        boolean generic;
        boolean anchored;
        String check;
        final List<String> positives = new ArrayList<>();
        final List<String> negatives = new ArrayList<>();

        Block(String id, int line) {
            if (!id.matches("[a-z0-9][a-z0-9-]{1,63}")) {
                throw new IllegalArgumentException("line " + line + ": bad rule id " + id);
            }
            this.id = id;
            this.line = line;
        }

        void set(String name, String value, int lineNo) {
            switch (name) {
                case "description" -> description = value.trim();
                case "keywords" -> {
                    for (String k : value.split(",")) {
                        if (!k.isBlank()) {
                            keywords.add(k.trim().toLowerCase(Locale.ROOT));
                        }
                    }
                }
                case "pattern" -> pattern = value;
                case "group" -> group = Integer.parseInt(value.trim());
                case "entropy" -> entropy = Double.parseDouble(value.trim());
                case "span" -> span = Integer.parseInt(value.trim());
                case "generic" -> generic = Boolean.parseBoolean(value.trim());
                case "anchored" -> anchored = Boolean.parseBoolean(value.trim());
                case "check" -> {
                    check = value.trim();
                    if (!FormatCheck.isKnown(check)) {
                        throw new IllegalArgumentException(
                                "line " + lineNo + ": unknown check " + check + " (known: " + FormatCheck.KNOWN + ")");
                    }
                }
                case "positive" -> positives.add(unescape(value));
                case "negative" -> negatives.add(unescape(value));
                default -> throw new IllegalArgumentException("line " + lineNo + ": unknown field " + name);
            }
        }

        SecretRule build() {
            if (description == null || pattern == null || keywords.isEmpty()) {
                throw new IllegalArgumentException(
                        "rule " + id + " (line " + line + ") needs description, keywords and pattern");
            }
            if (positives.isEmpty() || negatives.isEmpty()) {
                throw new IllegalArgumentException("rule " + id + " needs positive and negative examples");
            }
            try {
                return new SecretRule(
                        id,
                        description,
                        List.copyOf(keywords),
                        Pattern.compile(pattern),
                        group,
                        entropy,
                        span,
                        generic,
                        anchored,
                        List.copyOf(positives),
                        List.copyOf(negatives),
                        check);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("rule " + id + ": " + e.getMessage(), e);
            }
        }
    }

    /** Examples may hold line breaks (private-key blocks, .netrc files) written as {@code \n}. */
    private static String unescape(String s) {
        return s.replace("\\n", "\n");
    }
}
