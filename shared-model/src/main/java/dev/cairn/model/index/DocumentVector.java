package dev.cairn.model.index;

/**
 * The vector a memory is stored under. A memory written with a {@code context} (in a conversation: the turn's reply)
 * is found through its context on the lexical side, and on the dense side by the vector {@code (1 − s) · content + s ·
 * context}, left unnormalised: its dot product with a unit query is {@code (1 − s)·cos(query, content) + s·cos(query,
 * context)}, so a turn counts its reply's closeness to the question, a share of it, but never more than its own. The
 * question a turn answers is often worded like the reply rather than like the turn. The share {@code s} is measured on
 * the recall benchmark (README, "Recall quality on public conversation sets"), where normalising the mix lost most of
 * its gain; 0, the default, keeps the content's vector alone.
 */
public final class DocumentVector {

    /**
     * The context's share in a memory's vector by default: none. 0.3, the share the development halves of the English
     * sets chose, raised BEAM 100K's held-out recall but lowered RealMem's a little and MemDaily's development half by
     * 3 points (README), so it is an option ({@code cairn.recall.context-vector}), not the default.
     */
    public static final double DEFAULT_CONTEXT_SHARE = 0.0;

    private DocumentVector() {}

    /**
     * {@code (1 − share) · content + share · context}, of length at most 1; {@code content} itself when {@code context}
     * is null or {@code share} is 0. Both inputs are the embedder's unit vectors of one model.
     */
    public static float[] of(float[] content, float[] context, double share) {
        if (share < 0 || share >= 1 || Double.isNaN(share)) {
            throw new IllegalArgumentException("the context's share is in [0, 1), not " + share);
        }
        if (context == null || share == 0) {
            return content;
        }
        if (context.length != content.length) {
            throw new IllegalArgumentException(
                    "content and context vectors differ in size: " + content.length + " and " + context.length);
        }
        float[] mixed = new float[content.length];
        for (int i = 0; i < mixed.length; i++) {
            mixed[i] = (float) ((1 - share) * content[i] + share * context[i]);
        }
        return mixed;
    }

    /**
     * The length an index scales the vector's unit direction to ({@link dev.cairn.model.port.VectorIndex.Entry}): its
     * norm, 1 for a unit vector (within float rounding) and for one longer than that. A mix of two unit vectors is
     * never shorter than {@code |1 − 2·share|}, so never 0 below a share of 0.5; a zero vector gets 1 (it has no
     * direction to scale).
     */
    public static double length(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        double norm = Math.sqrt(sum);
        return norm == 0 || norm > 1 - 1e-6 ? 1.0 : norm;
    }

    /**
     * What an index stores for an entry: its vector's unit direction {@code unit} scaled to the entry's {@code length}
     * ({@code unit} itself at length 1), so that the dot product with a unit query is the entry's similarity.
     */
    public static float[] scaled(float[] unit, double length) {
        if (length == 1.0) {
            return unit;
        }
        float[] out = new float[unit.length];
        for (int i = 0; i < unit.length; i++) {
            out[i] = (float) (unit[i] * length);
        }
        return out;
    }
}
