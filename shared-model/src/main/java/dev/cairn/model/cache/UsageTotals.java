package dev.cairn.model.cache;

/** Token counts summed over a session's model responses (the usage fields of Anthropic and Bedrock answers). */
public record UsageTotals(
        long requests, long inputTokens, long outputTokens, long cacheCreationInputTokens, long cacheReadInputTokens) {

    public static final UsageTotals ZERO = new UsageTotals(0, 0, 0, 0, 0);

    public UsageTotals plus(UsageTotals o) {
        return new UsageTotals(
                requests + o.requests,
                inputTokens + o.inputTokens,
                outputTokens + o.outputTokens,
                cacheCreationInputTokens + o.cacheCreationInputTokens,
                cacheReadInputTokens + o.cacheReadInputTokens);
    }

    /** Every input token the model saw: uncached, written to the cache, read from it. */
    public long allInputTokens() {
        return inputTokens + cacheCreationInputTokens + cacheReadInputTokens;
    }
}
