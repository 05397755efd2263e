package dev.cairn.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Deterministic synthetic memories and questions for the benchmark (same seed, same texts, every run). */
public final class Synthetic {

    private static final String[] NAMES = {
        "Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Gustav", "Hana", "Ivan", "Jun", "Kofi", "Lena", "Mateo",
        "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq"
    };
    private static final String[] TOOLS = {
        "Neovim",
        "IntelliJ IDEA",
        "VS Code",
        "Emacs",
        "tmux",
        "ripgrep",
        "fzf",
        "Gradle",
        "Maven",
        "Bazel",
        "Docker Compose",
        "Podman",
        "kubectl",
        "Terraform",
        "Pulumi",
        "Helm"
    };
    private static final String[] ACTIVITIES = {
        "code review",
        "debugging",
        "writing tests",
        "refactoring",
        "profiling",
        "release planning",
        "incident response",
        "data migrations",
        "API design",
        "pair programming"
    };
    private static final String[] PROJECTS = {
        "atlas",
        "borealis",
        "cobalt",
        "delta",
        "ember",
        "fjord",
        "granite",
        "helix",
        "iris",
        "juniper",
        "kestrel",
        "lumen",
        "meridian",
        "nimbus",
        "onyx",
        "pioneer"
    };
    private static final String[] DATABASES = {
        "PostgreSQL",
        "MySQL",
        "SQLite",
        "MongoDB",
        "Cassandra",
        "Redis",
        "DynamoDB",
        "CockroachDB",
        "ClickHouse",
        "Elasticsearch"
    };
    private static final String[] SERVICES = {
        "billing",
        "search",
        "checkout",
        "auth",
        "notifications",
        "reporting",
        "ingest",
        "gateway",
        "inventory",
        "payments",
        "profile",
        "analytics"
    };
    private static final String[] LANGS = {"Java", "Kotlin", "Go", "Rust", "Python", "TypeScript", "Scala", "C#"};
    private static final String[] STYLES = {
        "Google style",
        "tabs",
        "trailing commas",
        "snake_case file names",
        "conventional commits",
        "squash merges",
        "feature flags",
        "four-space indents"
    };
    private static final String[] CLOUDS = {
        "AWS eu-west-1",
        "AWS us-east-2",
        "GCP europe-west4",
        "Azure westeurope",
        "a bare-metal rack in Frankfurt",
        "AWS ap-southeast-1"
    };
    private static final String[] MONTHS = {
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December"
    };

    private Synthetic() {}

    public static List<String> memories(int n, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String body = switch (i % 6) {
                case 0 ->
                    pick(r, NAMES) + " prefers " + pick(r, TOOLS) + " for " + pick(r, ACTIVITIES) + " on the "
                            + pick(r, PROJECTS) + " project.";
                case 1 ->
                    "The team decided to use " + pick(r, DATABASES) + " " + (9 + r.nextInt(9)) + " for the "
                            + pick(r, SERVICES) + " service of " + pick(r, PROJECTS) + ".";
                case 2 ->
                    "Convention: " + pick(r, LANGS) + " code in the " + pick(r, PROJECTS) + " repository uses "
                            + pick(r, STYLES) + " and is reviewed by " + pick(r, NAMES) + ".";
                case 3 ->
                    "The " + pick(r, SERVICES) + " service runs on " + pick(r, CLOUDS) + " with "
                            + (1 << (1 + r.nextInt(6))) + " GB of memory per instance.";
                case 4 ->
                    pick(r, NAMES) + " said the " + pick(r, PROJECTS) + " release is due on " + pick(r, MONTHS) + " "
                            + (1 + r.nextInt(28)) + ", build " + r.nextInt(10_000) + ".";
                default ->
                    "Incident " + r.nextInt(100_000) + ": the " + pick(r, SERVICES) + " service of "
                            + pick(r, PROJECTS) + " timed out talking to " + pick(r, DATABASES) + " after "
                            + (100 + r.nextInt(900)) + " ms.";
            };
            // Real memories are rarely verbatim duplicates (consolidation merges those), so each text gets its own
            // provenance; without it, exact ties would make "top-10 agreement" a coin toss.
            out.add(body + " Noted by " + pick(r, NAMES) + " in sprint " + (1 + r.nextInt(400)) + ".");
        }
        return out;
    }

    public static List<String> queries(int n, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(
                    switch (i % 5) {
                        case 0 -> "What database does the " + pick(r, SERVICES) + " service use?";
                        case 1 ->
                            "Which editor or tool does " + pick(r, NAMES) + " like for " + pick(r, ACTIVITIES) + "?";
                        case 2 -> "How is " + pick(r, LANGS) + " code formatted in " + pick(r, PROJECTS) + "?";
                        case 3 -> "Where is the " + pick(r, SERVICES) + " service deployed?";
                        default -> "When does " + pick(r, PROJECTS) + " ship?";
                    });
        }
        return out;
    }

    private static String pick(Random r, String[] values) {
        return values[r.nextInt(values.length)];
    }
}
