package dev.cairn.it;

import dev.cairn.bench.Synthetic;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.port.DecayContract;
import dev.cairn.model.port.Embedder;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * The decay contract as the real backends run it: memories embedded by the ONNX model the server ships, texts from
 * the benchmark's generator, so recall of kept and archived memories is checked on real vectors and real ranking.
 */
abstract class OnnxDecayContract extends DecayContract {

    private static OnnxEmbedder embedder;

    @Override
    protected Embedder embedder() {
        synchronized (OnnxDecayContract.class) {
            if (embedder == null) {
                embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
            }
            return embedder;
        }
    }

    @Override
    protected List<String> texts(int n, long seed) {
        return Synthetic.memories(n, seed);
    }
}
