package dev.cairn.model.secret;

/**
 * A secret found in a text: which rule, and where ({@code [start, end)} in UTF-16 code units of the text as given,
 * the same indices JavaScript and Java strings use). Never carries the secret itself.
 */
public record Finding(String ruleId, String description, int start, int end) {}
