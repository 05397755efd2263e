package dev.cairn.model.index;

/** Arithmetic on embedding vectors shared by the domain and the in-memory fakes. */
public final class Vectors {

    private Vectors() {}

    /**
     * The cosine of two vectors; 0 when either is all zeros. Over the shorter length, so a vector of another model's
     * width compares as far, not as an error.
     */
    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
