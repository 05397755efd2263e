package dev.cairn.app;

/**
 * Where the use cases' counters go (secret findings by rule and outcome, the decay job's counts). The local server
 * backs it with Micrometer ({@code GET /q/metrics}); a Lambda package has no metrics registry to export from, so the
 * default counts nowhere and the packages do not carry Micrometer.
 */
public interface Counters {

    /** Adds {@code amount} to the counter {@code name} with the given tag key/value pairs. */
    void add(String name, double amount, String... tags);

    Counters NONE = (name, amount, tags) -> {};
}
