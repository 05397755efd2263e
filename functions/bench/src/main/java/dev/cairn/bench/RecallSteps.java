package dev.cairn.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the server spent a run of recalls, read from each answer's {@code Server-Timing} header (embed, search,
 * hydrate, rank and their sum, {@code recall}), and what the end-to-end time adds outside the recall service: HTTP,
 * token verification, JSON and the client. Percentiles are per step, so they need not add up to the total's.
 */
final class RecallSteps {

    static final List<String> STEPS = List.of("embed", "search", "hydrate", "rank", "recall");
    static final String OUTSIDE = "outside";

    private final Map<String, List<Double>> ms = new LinkedHashMap<>();

    RecallSteps() {
        for (String s : STEPS) {
            ms.put(s, new ArrayList<>());
        }
        ms.put(OUTSIDE, new ArrayList<>());
    }

    /** Parses a {@code Server-Timing} value such as {@code embed;dur=2.71, search;dur=3.00}; other metrics are kept. */
    static Map<String, Double> parse(String header) {
        if (header == null || header.isBlank()) {
            throw new IllegalStateException("the recall answer has no Server-Timing header");
        }
        Map<String, Double> steps = new LinkedHashMap<>();
        for (String metric : header.split(",")) {
            String name = null;
            Double dur = null;
            for (String part : metric.split(";")) {
                String p = part.strip();
                if (name == null) {
                    name = p;
                } else if (p.startsWith("dur=")) {
                    dur = Double.parseDouble(p.substring(4));
                }
            }
            if (name != null && dur != null) {
                steps.put(name, dur);
            }
        }
        return steps;
    }

    void add(Map<String, Double> steps, double endToEndMs) {
        for (String s : STEPS) {
            Double v = steps.get(s);
            if (v == null) {
                throw new IllegalStateException("Server-Timing lacks " + s + ": " + steps);
            }
            ms.get(s).add(v);
        }
        ms.get(OUTSIDE).add(endToEndMs - steps.get("recall"));
    }

    double percentile(String step, int p) {
        return Bench.percentile(
                ms.get(step).stream().mapToDouble(Double::doubleValue).toArray(), p);
    }

    String summary(int p) {
        return String.format(
                Locale.ROOT,
                "embed %.2f, search %.2f, hydrate %.2f, rank %.2f, recall service %.2f ms; outside it (HTTP, auth, JSON,"
                        + " client) %.2f ms",
                percentile("embed", p),
                percentile("search", p),
                percentile("hydrate", p),
                percentile("rank", p),
                percentile("recall", p),
                percentile(OUTSIDE, p));
    }

    void report(ObjectNode report, String prefix) {
        for (String s : ms.keySet()) {
            report.put(prefix + s + "_p50_ms", percentile(s, 50)).put(prefix + s + "_p99_ms", percentile(s, 99));
        }
    }
}
