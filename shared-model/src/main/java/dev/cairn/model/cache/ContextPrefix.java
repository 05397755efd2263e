package dev.cairn.model.cache;

/**
 * What an agent sends once and Cairn puts first in every context: the system prompt, the tool definitions (as
 * canonical JSON text, so the same tools always give the same bytes) and the model the context is planned for.
 */
public record ContextPrefix(String system, String tools, String model) {}
