package dev.cairn.model.memory;

/**
 * Size caps on what one memory may hold. Content above {@code maxContentBytes} is refused with 413 rather than
 * truncated: a truncated fact is a different fact.
 */
public record MemoryLimits(int maxContentBytes, int maxTags, int maxEvidence, int maxBatch) {

    public static final MemoryLimits DEFAULTS = new MemoryLimits(32 * 1024, 32, 64, 500);
}
