package dev.cairn.bench;

import dev.cairn.model.port.Embedder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link Embedder} that remembers the vectors of another in a file, keyed by the SHA-256 of the model id and the
 * text, so a tuning loop over the extraction corpus re-embeds nothing after its first run. The file holds hashes and
 * vectors only, never the text, so caching the held-out part's vectors does not put its lines anywhere readable.
 * Timing must never go through it: a cached vector costs nothing.
 */
final class VectorCache implements Embedder {

    private final Embedder delegate;
    private final Path file;
    private final Map<String, float[]> vectors = new LinkedHashMap<>();
    private final List<String> added = new ArrayList<>();

    VectorCache(Embedder delegate, Path file) throws IOException {
        this.delegate = delegate;
        this.file = file;
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                if (tab > 0) {
                    vectors.put(line.substring(0, tab), decode(line.substring(tab + 1)));
                }
            }
        }
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public int dimensions() {
        return delegate.dimensions();
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts) {
        List<String> missing = new ArrayList<>();
        for (String t : texts) {
            if (!vectors.containsKey(key(t)) && !missing.contains(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> fresh = delegate.embedDocuments(missing);
            for (int i = 0; i < missing.size(); i++) {
                String k = key(missing.get(i));
                vectors.put(k, fresh.get(i));
                added.add(k);
            }
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(vectors.get(key(t)));
        }
        return out;
    }

    @Override
    public float[] embedQuery(String query) {
        return delegate.embedQuery(query);
    }

    /** Appends the vectors computed since the file was read. */
    synchronized void save() throws IOException {
        if (added.isEmpty()) {
            return;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (BufferedWriter w = Files.newBufferedWriter(
                file,
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND)) {
            for (String k : added) {
                w.write(k + "\t" + encode(vectors.get(k)) + "\n");
            }
        }
        added.clear();
    }

    private String key(String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(delegate.modelId().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String encode(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return Base64.getEncoder().encodeToString(b.array());
    }

    static float[] decode(String s) {
        try {
            ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(s)).order(ByteOrder.LITTLE_ENDIAN);
            float[] v = new float[b.remaining() / 4];
            for (int i = 0; i < v.length; i++) {
                v[i] = b.getFloat();
            }
            return v;
        } catch (IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("vector cache line is not base64: " + e.getMessage()));
        }
    }
}
