package dev.cairn.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the server spent a run of requests, read from each answer's {@code Server-Timing} header (a recall: embed,
 * search, hydrate, rank; a write: check, store, embed, index), their sum (the service), and what the end-to-end time
 * adds outside it: HTTP, token verification, JSON and the client. Percentiles are per step, so they need not add up.
 */
final class ServerSteps {

    static final List<String> RECALL = List.of("embed", "search", "hydrate", "rank");
    static final List<String> WRITE = List.of("check", "store", "embed", "index");
    static final String SERVICE = "service";
    static final String OUTSIDE = "outside";

    private final List<String> steps;
    private final Map<String, List<Double>> ms = new LinkedHashMap<>();
    /** Parts an adapter reports inside a step ({@code search.knn}, {@code index.reopen}), where the server sends them. */
    private final Map<String, List<Double>> parts = new LinkedHashMap<>();

    ServerSteps(List<String> steps) {
        this.steps = steps;
        for (String s : steps) {
            ms.put(s, new ArrayList<>());
        }
        ms.put(SERVICE, new ArrayList<>());
        ms.put(OUTSIDE, new ArrayList<>());
    }

    /** Parses a {@code Server-Timing} value such as {@code embed;dur=2.71, search;dur=3.00}. */
    static Map<String, Double> parse(String header) {
        if (header == null || header.isBlank()) {
            throw new IllegalStateException("the answer has no Server-Timing header");
        }
        Map<String, Double> parsed = new LinkedHashMap<>();
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
                parsed.put(name, dur);
            }
        }
        return parsed;
    }

    void add(Map<String, Double> timing, double endToEndMs) {
        double service = 0;
        for (String s : steps) {
            Double v = timing.get(s);
            if (v == null) {
                throw new IllegalStateException("Server-Timing lacks " + s + ": " + timing);
            }
            ms.get(s).add(v);
            service += v;
        }
        timing.forEach((name, v) -> {
            if (name.contains(".")) {
                parts.computeIfAbsent(name, n -> new ArrayList<>()).add(v);
            }
        });
        ms.get(SERVICE).add(service);
        ms.get(OUTSIDE).add(endToEndMs - service);
    }

    double percentile(String step, int p) {
        List<Double> values = ms.containsKey(step) ? ms.get(step) : parts.get(step);
        return Bench.percentile(values.stream().mapToDouble(Double::doubleValue).toArray(), p);
    }

    /** The parts seen, e.g. {@code search.knn 1.20, search.bm25 0.40}; empty when the server sent none. */
    String partsSummary(int p) {
        StringBuilder b = new StringBuilder();
        for (String s : parts.keySet()) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(String.format(Locale.ROOT, "%s %.2f", s, percentile(s, p)));
        }
        return b.toString();
    }

    String summary(int p) {
        StringBuilder b = new StringBuilder();
        for (String s : steps) {
            b.append(String.format(Locale.ROOT, "%s %.2f, ", s, percentile(s, p)));
        }
        return b.append(String.format(
                        Locale.ROOT,
                        "service %.2f ms; outside it (HTTP, auth, JSON, client) %.2f ms",
                        percentile(SERVICE, p),
                        percentile(OUTSIDE, p)))
                .toString();
    }

    void report(ObjectNode report, String prefix) {
        for (String s : ms.keySet()) {
            report.put(prefix + s + "_p50_ms", percentile(s, 50)).put(prefix + s + "_p99_ms", percentile(s, 99));
        }
        for (String s : parts.keySet()) {
            String key = prefix + s.replace('.', '_');
            report.put(key + "_p50_ms", percentile(s, 50)).put(key + "_p99_ms", percentile(s, 99));
        }
    }
}
