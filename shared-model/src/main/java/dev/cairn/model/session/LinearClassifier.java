package dev.cairn.model.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Multinomial logistic regression over sentence embeddings, trained in-process on the example bank (full-batch
 * gradient descent with L2 regularisation, from zero weights, so the same bank always gives the same model). It
 * generalises better than a nearest-neighbour vote where the bank is thin, because it weighs every example of a label
 * rather than the few closest ones.
 */
public final class LinearClassifier {

    private final List<String> labels;
    private final double[][] weights; // [label][dimension + 1], the last one the bias

    private LinearClassifier(List<String> labels, double[][] weights) {
        this.labels = labels;
        this.weights = weights;
    }

    /**
     * Trains on {@code vectors} and their {@code targets}; each example counts in inverse proportion to its label's
     * frequency, so a label with many examples does not swallow the others.
     */
    public static LinearClassifier train(
            List<float[]> vectors, List<String> targets, double l2, int epochs, double learningRate) {
        List<String> labels = new ArrayList<>(
                new LinkedHashMap<String, Boolean>() {
                    {
                        targets.forEach(t -> put(t, true));
                    }
                }.keySet());
        int k = labels.size();
        int d = vectors.get(0).length;
        int n = vectors.size();
        int[] y = new int[n];
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            y[i] = labels.indexOf(targets.get(i));
            counts.merge(targets.get(i), 1, Integer::sum);
        }
        double[] sampleWeight = new double[n];
        for (int i = 0; i < n; i++) {
            sampleWeight[i] = (double) n / (k * counts.get(targets.get(i)));
        }
        double[][] w = new double[k][d + 1];
        double[][] grad = new double[k][d + 1];
        double[] p = new double[k];
        for (int epoch = 0; epoch < epochs; epoch++) {
            for (double[] g : grad) {
                java.util.Arrays.fill(g, 0);
            }
            for (int i = 0; i < n; i++) {
                probabilities(w, vectors.get(i), p);
                float[] x = vectors.get(i);
                for (int c = 0; c < k; c++) {
                    double err = (p[c] - (y[i] == c ? 1 : 0)) * sampleWeight[i];
                    double[] g = grad[c];
                    for (int j = 0; j < d; j++) {
                        g[j] += err * x[j];
                    }
                    g[d] += err;
                }
            }
            for (int c = 0; c < k; c++) {
                for (int j = 0; j <= d; j++) {
                    double reg = j < d ? l2 * w[c][j] : 0;
                    w[c][j] -= learningRate * (grad[c][j] / n + reg);
                }
            }
        }
        return new LinearClassifier(List.copyOf(labels), w);
    }

    /** Each label's probability for {@code vector}. */
    public Map<String, Double> predict(float[] vector) {
        double[] p = new double[labels.size()];
        probabilities(weights, vector, p);
        Map<String, Double> out = new LinkedHashMap<>();
        for (int c = 0; c < p.length; c++) {
            out.put(labels.get(c), p[c]);
        }
        return out;
    }

    private static void probabilities(double[][] w, float[] x, double[] p) {
        int d = x.length;
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < w.length; c++) {
            double z = w[c][d];
            for (int j = 0; j < d; j++) {
                z += w[c][j] * x[j];
            }
            p[c] = z;
            max = Math.max(max, z);
        }
        double sum = 0;
        for (int c = 0; c < p.length; c++) {
            p[c] = Math.exp(p[c] - max);
            sum += p[c];
        }
        for (int c = 0; c < p.length; c++) {
            p[c] /= sum;
        }
    }
}
