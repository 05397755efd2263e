import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.embedded.TextAnalyzers;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

/**
 * Offline study tool (README "Recall quality on public conversation sets"): for every question of a recall-bench
 * candidates.jsonl, the lexical ceiling of its query against the Lucene index the server wrote (read-only), analysed
 * as the index's lexical field is: {@code idf} = sum of the query clauses' BM25 IDFs (the BM25 ceiling as tf → ∞ in
 * Lucene's BM25Similarity), {@code self} = the BM25 score a document equal to the query would get (Lucene's own
 * scorer with the query's length as the document norm). Statistics are index-wide, as the server's scores are.
 *
 * <p>usage: java -cp 'functions/bench/target/lib/*:functions/bench/target/cairn-bench.jar' tools/LexicalCeiling.java
 * INDEX_DIR CANDIDATES_JSONL OUT_TSV ; or with "-" for CANDIDATES_JSONL and queries as further arguments.
 */
public class LexicalCeiling {

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--demo")) {
            demo(args[1], java.util.Arrays.asList(args).subList(2, args.length));
            return;
        }
        Path indexDir = Path.of(args[0]);
        try (FSDirectory dir = FSDirectory.open(indexDir);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            Map<String, String> meta = SegmentInfos.readLatestCommit(dir).getUserData();
            String analyzerName = meta.getOrDefault(
                    "cairn.analyzer", meta.containsKey("cairn.model") ? "standard" : "cjk-bigrams");
            Analyzer analyzer =
                    analyzerName.equals("standard") ? TextAnalyzers.standard() : TextAnalyzers.cjkBigrams();
            IndexSearcher searcher = new IndexSearcher(reader);
            BM25Similarity sim = new BM25Similarity();
            CollectionStatistics coll = searcher.collectionStatistics("text");
            System.err.printf(
                    Locale.ROOT,
                    "analyzer %s (commit: %s), docCount %d, maxDoc %d, avgdl %.2f%n",
                    analyzerName,
                    meta.get("cairn.analyzer"),
                    coll.docCount(),
                    reader.maxDoc(),
                    coll.sumTotalTermFreq() / (double) coll.docCount());
            if (args[1].equals("-")) {
                for (int i = 2; i < args.length; i++) {
                    double[] c = ceiling(analyzer, searcher, sim, coll, args[i]);
                    System.out.printf(Locale.ROOT, "%s\tidf=%.4f\tself=%.4f\tterms=%d\tidf-all=%.4f\tself-all=%.4f%n", args[i], c[0], c[1], (int) c[2], c[3], c[4]);
                }
                return;
            }
            ObjectMapper json = new ObjectMapper();
            try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8);
                    PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8))) {
                String line;
                int n = 0;
                while ((line = in.readLine()) != null) {
                    JsonNode q = json.readTree(line);
                    double[] c = ceiling(analyzer, searcher, sim, coll, q.get("query").asText());
                    out.printf(Locale.ROOT, "%s\t%.6f\t%.6f\t%d\t%.6f\t%.6f%n", q.get("id").asText(), c[0], c[1], (int) c[2], c[3], c[4]);
                    n++;
                }
                System.err.println(n + " questions");
            }
        }
    }

    /**
     * The trial example: {@code memories} indexed alone (as a fresh team's index would hold them), {@code query}
     * asked as the server asks it; prints each memory's raw BM25 and its lexical part today (÷ the pool's best) and
     * with each ceiling (÷ max(best, C)).
     */
    static void demo(String query, List<String> memories) throws Exception {
        Analyzer analyzer = TextAnalyzers.cjkBigrams();
        try (org.apache.lucene.store.ByteBuffersDirectory dir = new org.apache.lucene.store.ByteBuffersDirectory()) {
            try (org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(
                    dir, new org.apache.lucene.index.IndexWriterConfig(analyzer))) {
                for (String m : memories) {
                    org.apache.lucene.document.Document d = new org.apache.lucene.document.Document();
                    d.add(new org.apache.lucene.document.TextField(
                            "text", m, org.apache.lucene.document.Field.Store.YES));
                    w.addDocument(d);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                CollectionStatistics coll = searcher.collectionStatistics("text");
                double[] c = ceiling(analyzer, searcher, new BM25Similarity(), coll, query);
                org.apache.lucene.search.BooleanQuery.Builder b = new org.apache.lucene.search.BooleanQuery.Builder();
                try (TokenStream ts = analyzer.tokenStream("text", query)) {
                    CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                    ts.reset();
                    while (ts.incrementToken()) {
                        b.add(new org.apache.lucene.search.TermQuery(new Term("text", term.toString())),
                                org.apache.lucene.search.BooleanClause.Occur.SHOULD);
                    }
                    ts.end();
                }
                var hits = searcher.search(b.build(), memories.size()).scoreDocs;
                double best = hits.length == 0 ? 0 : hits[0].score;
                System.out.printf(Locale.ROOT, "query \"%s\": %d clauses, C idf = %.4f, C self = %.4f, C idf-all = %.4f, C self-all = %.4f, pool best = %.4f%n",
                        query, (int) c[2], c[0], c[1], c[3], c[4], best);
                for (var h : hits) {
                    System.out.printf(Locale.ROOT, "  raw %.4f  lexical today %.3f  idf %.3f  self %.3f  idf-all %.3f  self-all %.3f  %s%n",
                            h.score, h.score / best, h.score / Math.max(best, c[0]), h.score / Math.max(best, c[1]),
                            h.score / Math.max(best, c[3]), h.score / Math.max(best, c[4]),
                            reader.storedFields().document(h.doc).get("text"));
                }
            }
        }
    }

    /** {sum of clause IDFs, BM25 of a document equal to the query, number of clauses}. */
    static double[] ceiling(
            Analyzer analyzer, IndexSearcher searcher, BM25Similarity sim, CollectionStatistics coll, String text)
            throws Exception {
        List<String> clauses = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            // the server's query: one SHOULD clause per token, repeats included, at most maxClauseCount / 2
            while (ts.incrementToken() && clauses.size() < IndexSearcher.getMaxClauseCount() / 2) {
                clauses.add(term.toString());
            }
            ts.end();
        }
        Map<String, Integer> tf = new LinkedHashMap<>();
        clauses.forEach(t -> tf.merge(t, 1, Integer::sum));
        long norm = SmallFloat.intToByte4(clauses.size());
        double dl = SmallFloat.byte4ToInt((byte) norm);
        double avgdl = (float) (coll.sumTotalTermFreq() / (double) coll.docCount());
        double k = 1.2 * (1 - 0.75 + 0.75 * dl / avgdl);
        double idfSum = 0;
        double self = 0;
        double idfAll = 0;
        double selfAll = 0;
        for (String t : clauses) {
            Term term = new Term("text", new BytesRef(t));
            TermStates states = TermStates.build(searcher, term, true);
            int f = tf.get(t);
            if (states.docFreq() == 0) {
                // a term no document holds: no memory scores by it (Lucene scores no such clause); the `all` variants
                // count it at the IDF of a document frequency of 0
                double idf = Math.log(1 + (coll.docCount() + 0.5D) / 0.5D);
                idfAll += idf;
                selfAll += idf * f / (f + k);
                continue;
            }
            TermStatistics ts = searcher.termStatistics(term, states.docFreq(), states.totalTermFreq());
            double idf = Math.log(1 + (coll.docCount() - ts.docFreq() + 0.5D) / (ts.docFreq() + 0.5D));
            idfSum += idf;
            Similarity.SimScorer scorer = sim.scorer(1f, coll, ts);
            double s = scorer.score(f, norm);
            double mine = idf * f / (f + k);
            if (Math.abs(s - mine) > 1e-4 * Math.max(1, s)) {
                throw new IllegalStateException("own BM25 " + mine + " differs from Lucene's " + s + " for " + t);
            }
            self += s;
        }
        idfAll += idfSum;
        selfAll += self;
        return new double[] {idfSum, self, clauses.size(), idfAll, selfAll};
    }
}
