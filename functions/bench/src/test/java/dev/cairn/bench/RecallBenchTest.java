package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.bench.RecallBench.Question;
import dev.cairn.bench.RecallBench.Ranked;
import dev.cairn.bench.RecallBench.Turn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The recall benchmark's own arithmetic: date formats of the sources, the metrics, the fusions it compares. */
class RecallBenchTest {

    private static Turn turn(String id, String session) {
        return new Turn(id, session, "text of " + id, Instant.EPOCH);
    }

    private static List<Ranked> ranking(Turn... turns) {
        List<Ranked> out = new ArrayList<>();
        for (Turn t : turns) {
            out.add(new Ranked(t, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        return out;
    }

    private static Question question(Set<String> turns, Set<String> sessions) {
        return new Question("q", "c", "type", "what?", turns, sessions, null);
    }

    @Test
    void parseDate_readsEverySourcesSpelling() {
        assertThat(RecallBench.parseDate("March-15-2024")).isEqualTo(Instant.parse("2024-03-15T00:00:00Z"));
        assertThat(RecallBench.parseDate("2024年04月01日 周一 08:30")).isEqualTo(Instant.parse("2024-04-01T08:30:00Z"));
        assertThat(RecallBench.parseDate("2025-12-15 (Monday)")).isEqualTo(Instant.parse("2025-12-15T00:00:00Z"));
        assertThat(RecallBench.parseDate("sometime")).isNull();
    }

    @Test
    void recallAndNdcg_countEachGoldTurnOnce_byRank() {
        Turn a = turn("m1", "s1");
        Turn b = turn("m2", "s1");
        Turn c = turn("m3", "s2");
        Turn d = turn("m4", "s3");
        Question q = question(new LinkedHashSet<>(List.of("m2", "m4")), new LinkedHashSet<>(List.of("s1", "s3")));
        List<Ranked> ranked = ranking(a, b, c, d);

        assertThat(RecallBench.turnRecall(q, ranked, 1)).isZero();
        assertThat(RecallBench.turnRecall(q, ranked, 2)).isEqualTo(0.5);
        assertThat(RecallBench.turnRecall(q, ranked, 10)).isEqualTo(1.0);
        // a turn of session s1 at rank 1 finds that session
        assertThat(RecallBench.sessionRecall(q, ranked, 1)).isEqualTo(0.5);
        // gold at ranks 2 and 4: (1/log2(3) + 1/log2(5)) / (1 + 1/log2(3))
        double expected = (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3));
        assertThat(RecallBench.ndcg(q, ranked, 10)).isCloseTo(expected, within(1e-12));
        assertThat(RecallBench.ndcg(q, ranking(b, d), 10)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void reciprocalRank_putsWhatBothListsAgreeOnFirst() {
        Turn a = turn("m1", "s");
        Turn b = turn("m2", "s");
        Turn c = turn("m3", "s");
        List<Ranked> fused = RecallBench.reciprocalRank(ranking(a, b), ranking(c, b));
        assertThat(fused.get(0).turn()).isEqualTo(b);
        assertThat(fused).hasSize(3);
    }

    @Test
    void fused_letsAnExactLexicalMatchOvertakeACloseParaphrase_onlyWhenTheWeightAllows() {
        Turn paraphrase = turn("m1", "s");
        Turn named = turn("m2", "s");
        List<Ranked> cosines = List.of(
                new Ranked(paraphrase, 0.80, Double.NaN, Double.NaN, Double.NaN),
                new Ranked(named, 0.70, Double.NaN, Double.NaN, Double.NaN));
        List<Ranked> lexical = List.of(new Ranked(named, Double.NaN, 12.0, Double.NaN, Double.NaN));

        assertThat(RecallBench.fused(cosines, lexical, 0).get(0).turn()).isEqualTo(paraphrase);
        assertThat(RecallBench.fused(cosines, lexical, 0.3).get(0).turn()).isEqualTo(named);
        assertThat(RecallBench.fused(cosines, lexical, 0.3).get(0).lexical()).isEqualTo(1.0);
    }

    @Test
    void capped_cutsAtTheContentCapWithoutSplittingACharacter() {
        String chinese = "记".repeat(20_000); // 3 bytes each: 60,000 bytes
        String cut = RecallBench.capped(chinese);
        assertThat(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(32 * 1024);
        assertThat(cut).matches("记+");
        assertThat(RecallBench.capped("short")).isEqualTo("short");
    }

    @Test
    void conversation_keepsTurnsInFileOrder_whenTwoSessionsShareADateOrGoBackInTime() throws Exception {
        RecallBench.Conversation c =
                RecallBench.conversation(new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
                        {"conv_id": "c", "language": "en", "sessions": [
                          {"session_id": "a", "date": "2025-12-21 (Sunday)", "turns": [
                            {"turn_id": "a:0", "content": "x"}, {"turn_id": "a:1", "content": "y"}]},
                          {"session_id": "b", "date": "2025-12-21 (Sunday)", "turns": [{"turn_id": "b:0", "content": "z"}]},
                          {"session_id": "c", "date": "2025-12-01 (Monday)", "turns": [{"turn_id": "c:0", "content": "w"}]}]}
                        """));
        List<Instant> times = c.turns().stream().map(Turn::at).toList();
        assertThat(times.get(0)).isEqualTo(Instant.parse("2025-12-21T00:00:00Z"));
        for (int i = 1; i < times.size(); i++) {
            assertThat(times.get(i)).isAfter(times.get(i - 1));
        }
    }

    @Test
    void cutoffTurn_readsRealMemsSessionAndIndex_andPlainTurnIds() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        RecallBench.Conversation c = new RecallBench.Conversation(
                "c", "en", List.of(turn("s1:0", "s1"), turn("s1:1", "s1"), turn("s2:0", "s2"), turn("s2:1", "s2")));
        String cutoff = RecallBench.cutoff(json.readTree("{\"session_id\": \"s2\", \"turn_index\": 1}"));
        assertThat(RecallBench.cutoffTurn(c, cutoff).turnId()).isEqualTo("s2:1");
        assertThat(RecallBench.cutoffTurn(c, RecallBench.cutoff(json.readTree("\"s1:1\"")))
                        .turnId())
                .isEqualTo("s1:1");
        assertThat(RecallBench.cutoff(json.readTree("null"))).isNull();
        assertThat(RecallBench.cutoffTurn(c, null)).isNull();
    }

    @Test
    void seesBefore_aQuestionWithoutCutOff_isAskedJustAfterItsConversation_andACutOffWins() throws Exception {
        Instant last = Instant.parse("2024-04-25T00:00:07Z");
        RecallBench.Conversation c = new RecallBench.Conversation(
                "c",
                "en",
                List.of(
                        new Turn("m0", "s1", "a", Instant.parse("2024-03-15T00:00:00Z")),
                        new Turn("m1", "s1", "b", Instant.parse("2024-03-15T00:00:01Z")),
                        new Turn("m2", "s2", "c", last)));
        // as_of (one second before) = one second after the last turn: every turn seen, freshness from the end
        assertThat(RecallBench.seesBefore(c, null, true)).isEqualTo(last.plusSeconds(2));
        assertThat(RecallBench.seesBefore(c, null, false)).isNull(); // at the server's clock
        assertThat(RecallBench.seesBefore(c, "m1", true)).isEqualTo(Instant.parse("2024-03-15T00:00:01Z"));
        assertThat(RecallBench.seesBefore(c, "m1", false)).isEqualTo(Instant.parse("2024-03-15T00:00:01Z"));
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
