package dev.cairn.model.secret;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One detection rule, loaded from the versioned rules file ({@code secret-rules.txt}).
 *
 * @param id          stable id, reported in findings and redactions ({@code [REDACTED:<id>]})
 * @param keywords    lower-case literals of which at least one occurs near every match: the prefilter runs a rule
 *                    only where one of them was seen
 * @param pattern     the match; {@code group} captures the secret itself (0 = the whole match)
 * @param minEntropy  Shannon entropy (bits per character) the captured secret must reach
 * @param span        how far after a keyword a match may end (characters); bounds the regex work per keyword hit
 * @param generic     a rule without a vendor-specific shape: hashes, UUIDs and digests are not secrets to it, and a
 *                    specific rule wins over it when both match the same text
 * @param anchored    the match starts where a keyword starts: one anchored attempt per keyword occurrence instead of
 *                    a search through a window (the cheap way for rules whose keywords are frequent words)
 * @param positives   texts the rule must flag (the build tests them)
 * @param negatives   texts the rule must not flag
 * @param check       the format's own check the scanner runs on each match ({@link FormatCheck}), or null if the
 *                    format has none beyond its prefix, length and alphabet
 */
public record SecretRule(
        String id,
        String description,
        List<String> keywords,
        Pattern pattern,
        int group,
        double minEntropy,
        int span,
        boolean generic,
        boolean anchored,
        List<String> positives,
        List<String> negatives,
        String check) {}
