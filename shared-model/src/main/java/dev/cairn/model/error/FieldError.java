package dev.cairn.model.error;

/** One field of a request that failed validation, with the reason a person can act on. */
public record FieldError(String field, String message) {}
