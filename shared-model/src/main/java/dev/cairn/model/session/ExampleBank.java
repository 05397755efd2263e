package dev.cairn.model.session;

import dev.cairn.model.port.Embedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Labelled user utterances the {@link EmbeddedExtractor} compares a statement with: its nearest examples vote on what
 * the statement is. The shipped bank is the development part of the extraction corpus
 * ({@code extraction/dev-en.tsv}, {@code extraction/dev-zh.tsv}); the held-out part is not in this jar, so figures
 * measured on it are measured on text the extractor has never seen.
 *
 * <p>Vectors are computed on first use with the embedder the process already loaded (one batch for the whole bank) and
 * kept: a bank embedded by one model is never compared with another model's vectors.
 */
public final class ExampleBank {

    /** One labelled utterance: {@code label} is a memory type's wire name or {@code skip:<reason>}. */
    public record Example(String label, String text, boolean chinese) {

        public boolean isFact() {
            return !label.startsWith("skip:");
        }
    }

    /** An example and its cosine similarity to the statement asked about. */
    public record Neighbour(Example example, double similarity) {}

    private static final String[] SHIPPED = {"extraction/dev-en.tsv", "extraction/dev-zh.tsv"};

    private final List<Example> examples;
    private final Map<String, List<float[]>> vectorsByModel = new LinkedHashMap<>();
    private final Map<String, Double> shares = new java.util.concurrent.ConcurrentHashMap<>();

    public ExampleBank(List<Example> examples) {
        this.examples = List.copyOf(examples);
    }

    /** The development part shipped with shared-model. */
    public static ExampleBank shipped() {
        List<Example> all = new ArrayList<>();
        for (String name : SHIPPED) {
            try (InputStream in = ExampleBank.class.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IllegalStateException("missing resource " + name + " next to " + ExampleBank.class);
                }
                all.addAll(parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new ExampleBank(all);
    }

    /**
     * Reads {@code label<TAB>utterance} lines; blank lines and lines starting with {@code #} are comments. A line
     * without a tab is a mistake in the corpus and stops the load rather than being dropped silently.
     */
    public static List<Example> parse(InputStream in) throws IOException {
        List<Example> out = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                throw new IllegalArgumentException("line " + number + " has no label: " + line);
            }
            String text = line.substring(tab + 1).strip();
            out.add(new Example(line.substring(0, tab).strip(), text, Statements.isChinese(text)));
        }
        return out;
    }

    /** The share of this script's examples that carry {@code label} (at least one example's worth). */
    public double share(String label, boolean chinese) {
        return shares.computeIfAbsent((chinese ? "zh:" : "en:") + label, k -> {
            long inScript =
                    examples.stream().filter(e -> e.chinese() == chinese).count();
            long withLabel = examples.stream()
                    .filter(e -> e.chinese() == chinese && e.label().equals(label))
                    .count();
            return Math.max(1, withLabel) / (double) Math.max(1, inScript);
        });
    }

    public List<Example> examples() {
        return examples;
    }

    /** The examples that pass {@code keep}; vectors already computed are shared, not recomputed. */
    public ExampleBank subset(Predicate<Example> keep) {
        List<Example> kept = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            if (keep.test(examples.get(i))) {
                kept.add(examples.get(i));
                positions.add(i);
            }
        }
        ExampleBank sub = new ExampleBank(kept);
        synchronized (this) {
            vectorsByModel.forEach((model, vectors) -> {
                List<float[]> picked = new ArrayList<>(positions.size());
                for (int p : positions) {
                    picked.add(vectors.get(p));
                }
                sub.vectorsByModel.put(model, picked);
            });
        }
        return sub;
    }

    /** Embeds the bank with {@code embedder} now (otherwise done by the first {@link #nearest} call). */
    public synchronized List<float[]> vectors(Embedder embedder) {
        return vectorsByModel.computeIfAbsent(
                embedder.modelId(),
                m -> List.copyOf(embedder.embedDocuments(
                        examples.stream().map(Example::text).toList())));
    }

    /**
     * The {@code k} examples most similar to {@code vector} among those in the same script (Chinese or not): a
     * Chinese statement is compared with Chinese examples only, since a model's cross-language similarities are much
     * weaker than its in-language ones.
     */
    public List<Neighbour> nearest(Embedder embedder, float[] vector, boolean chinese, int k) {
        List<float[]> vectors = vectors(embedder);
        List<Neighbour> all = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            Example e = examples.get(i);
            if (e.chinese() == chinese) {
                all.add(new Neighbour(e, dot(vector, vectors.get(i))));
            }
        }
        all.sort(Comparator.comparingDouble(Neighbour::similarity).reversed());
        return all.subList(0, Math.min(k, all.size()));
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
