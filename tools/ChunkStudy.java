import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.embedded.OnnxEmbedder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

/**
 * Offline study tool (README "Recall quality on public conversation sets"): does a long turn's dense score get better
 * when the turn is embedded in pieces and scored by its best piece? The server embeds a memory's content whole; the
 * in-process BGE model cuts a text longer than its 512-token window into windows and averages their vectors, which
 * blurs a long turn. For every question of a recall-bench candidates.jsonl, this writes, for every turn of the
 * question's conversation: the cosine of the whole turn (what the server does) and the best cosine over its pieces
 * (paragraphs packed up to N words; the whole turn when it is shorter), the cosine of the pieces' mean vector and
 * that of the first piece alone, for N in the given sizes.
 *
 * <p>With {@code --reply} it also writes three more cosines per turn: that of the turn embedded together with the next
 * turn of its session (the reply, which the bench writes as the memory's context and which only the lexical side reads
 * today), that of the reply alone, and the cosine between the turn and its reply (so that a mix of the two vectors can
 * be normalised offline); for a session's last turn the reply is the turn itself. SIZES "-" writes no pieces.
 *
 * <p>usage: java -cp 'functions/bench/target/lib/*:functions/bench/target/cairn-bench.jar' tools/ChunkStudy.java
 * DATASET_DIR CANDIDATES_JSONL OUT_TSV MODEL SIZES(e.g. 64,128, or -) [--reply]
 */
public class ChunkStudy {

    public static void main(String[] args) throws Exception {
        Path datasetDir = Path.of(args[0]);
        Path candidates = Path.of(args[1]);
        Path out = Path.of(args[2]);
        String model = args[3];
        List<Integer> sizes = new ArrayList<>();
        for (String s : args[4].split(",")) {
            if (!s.equals("-")) {
                sizes.add(Integer.parseInt(s));
            }
        }
        boolean reply = args.length > 5 && args[5].equals("--reply");
        ObjectMapper json = new ObjectMapper();
        OnnxEmbedder embedder = OnnxEmbedder.load(model, Executors.newFixedThreadPool(2));

        // conversation -> turn id -> content; turn id -> the next turn's id in the same session
        Map<String, Map<String, String>> turns = new HashMap<>();
        Map<String, String> nextOf = new HashMap<>();
        try (BufferedReader r = gz(datasetDir.resolve("conversations.jsonl.gz"))) {
            for (String line; (line = r.readLine()) != null; ) {
                JsonNode c = json.readTree(line);
                Map<String, String> byId = new java.util.LinkedHashMap<>();
                for (JsonNode s : c.get("sessions")) {
                    String previous = null;
                    for (JsonNode t : s.get("turns")) {
                        if (t.get("content").asText().isBlank()) {
                            continue; // the bench writes no memory for an empty turn either
                        }
                        String id = t.get("turn_id").asText();
                        byId.put(id, t.get("content").asText());
                        if (previous != null) {
                            nextOf.put(c.get("conv_id").asText() + "/" + previous, id);
                        }
                        previous = id;
                    }
                }
                turns.put(c.get("conv_id").asText(), byId);
            }
        }
        Map<String, String> convOf = new HashMap<>();
        try (BufferedReader r = gz(datasetDir.resolve("questions.jsonl.gz"))) {
            for (String line; (line = r.readLine()) != null; ) {
                JsonNode q = json.readTree(line);
                convOf.put(q.get("question_id").asText(), q.get("conv_id").asText());
            }
        }
        // embed every turn whole and in pieces, per conversation, only for conversations the candidates ask about
        List<JsonNode> questions = new ArrayList<>();
        for (String line : Files.readAllLines(candidates)) {
            JsonNode q = json.readTree(line);
            if (q.get("gold").size() > 0) {
                questions.add(q);
            }
        }
        Map<String, Map<String, float[]>> whole = new HashMap<>();
        Map<String, Map<Integer, Map<String, List<float[]>>>> pieces = new HashMap<>();
        Map<String, float[]> withReply = new HashMap<>();
        Map<String, float[]> replyAlone = new HashMap<>();
        long t0 = System.nanoTime();
        int done = 0;
        for (JsonNode q : questions) {
            String conv = convOf.get(q.get("id").asText());
            if (whole.containsKey(conv)) {
                continue;
            }
            Map<String, String> byId = turns.get(conv);
            List<String> ids = new ArrayList<>(byId.keySet());
            List<float[]> vs = embedder.embedDocuments(ids.stream().map(byId::get).toList());
            Map<String, float[]> w = new HashMap<>();
            for (int i = 0; i < ids.size(); i++) {
                w.put(ids.get(i), vs.get(i));
            }
            whole.put(conv, w);
            if (reply) {
                List<String> joined = new ArrayList<>();
                for (String id : ids) {
                    String next = nextOf.get(conv + "/" + id);
                    joined.add(next == null ? byId.get(id) : byId.get(id) + "\n\n" + byId.get(next));
                }
                List<float[]> jv = embedder.embedDocuments(joined);
                for (int i = 0; i < ids.size(); i++) {
                    withReply.put(conv + "/" + ids.get(i), jv.get(i));
                }
                for (String id : ids) {
                    String next = nextOf.get(conv + "/" + id);
                    replyAlone.put(conv + "/" + id, next == null ? w.get(id) : w.get(next));
                }
            }
            Map<Integer, Map<String, List<float[]>>> bySize = new HashMap<>();
            for (int size : sizes) {
                List<String> texts = new ArrayList<>();
                List<String> owners = new ArrayList<>();
                for (String id : ids) {
                    for (String p : split(byId.get(id), size)) {
                        texts.add(p);
                        owners.add(id);
                    }
                }
                List<float[]> pv = embedder.embedDocuments(texts);
                Map<String, List<float[]>> m = new HashMap<>();
                for (int i = 0; i < texts.size(); i++) {
                    m.computeIfAbsent(owners.get(i), k -> new ArrayList<>()).add(pv.get(i));
                }
                bySize.put(size, m);
            }
            pieces.put(conv, bySize);
            done++;
            System.err.printf("conversation %s: %d turns, %d done, %.0f s%n", conv, ids.size(), done,
                    (System.nanoTime() - t0) / 1e9);
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
            for (JsonNode q : questions) {
                String conv = convOf.get(q.get("id").asText());
                float[] qv = embedder.embedQuery(q.get("query").asText());
                for (Map.Entry<String, float[]> e : whole.get(conv).entrySet()) {
                    StringBuilder row = new StringBuilder();
                    row.append(q.get("id").asText()).append('\t').append(e.getKey()).append('\t')
                            .append(dot(qv, e.getValue()));
                    for (int size : sizes) {
                        float best = -2;
                        List<float[]> ps = pieces.get(conv).get(size).get(e.getKey());
                        float[] mean = new float[qv.length];
                        for (float[] pv : ps) {
                            best = Math.max(best, dot(qv, pv));
                            for (int i = 0; i < mean.length; i++) {
                                mean[i] += pv[i];
                            }
                        }
                        float norm = (float) Math.sqrt(dot(mean, mean));
                        row.append('\t').append(best).append('\t').append(dot(qv, mean) / norm).append('\t')
                                .append(dot(qv, ps.get(0)));
                    }
                    if (reply) {
                        row.append('\t').append(dot(qv, withReply.get(conv + "/" + e.getKey()))).append('\t')
                                .append(dot(qv, replyAlone.get(conv + "/" + e.getKey())))
                                .append('\t')
                                .append(dot(e.getValue(), replyAlone.get(conv + "/" + e.getKey())));
                    }
                    w.println(row);
                }
            }
        }
        System.exit(0); // the embedder's pool threads would keep the JVM alive
    }

    /** Paragraphs (then lines, then words) packed greedily up to {@code size} words; a short text is one piece. */
    static List<String> split(String text, int size) {
        List<String> units = new ArrayList<>();
        for (String para : text.split("\n")) {
            String[] words = para.trim().split("\\s+");
            if (para.isBlank()) {
                continue;
            }
            for (int i = 0; i < words.length; i += size) {
                units.add(String.join(" ", java.util.Arrays.copyOfRange(words, i, Math.min(words.length, i + size))));
            }
        }
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = 0;
        for (String u : units) {
            int k = u.split("\\s+").length;
            if (n > 0 && n + k > size) {
                out.add(cur.toString());
                cur.setLength(0);
                n = 0;
            }
            if (n > 0) {
                cur.append('\n');
            }
            cur.append(u);
            n += k;
        }
        if (n > 0) {
            out.add(cur.toString());
        }
        if (out.isEmpty()) {
            out.add(text);
        }
        return out;
    }

    static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static BufferedReader gz(Path p) throws Exception {
        return new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(p)), StandardCharsets.UTF_8));
    }
}
