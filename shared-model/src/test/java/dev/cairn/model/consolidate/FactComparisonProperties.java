package dev.cairn.model.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.consolidate.FactComparison.Relation;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;

/** The comparison's laws, over statements built from a vocabulary that makes overlaps likely. */
class FactComparisonProperties {

    private final FactComparison comparison = new FactComparison(FactComparison.Thresholds.defaults());

    @Provide
    Arbitrary<String> statements() {
        Arbitrary<String> word = Arbitraries.of(
                "we",
                "use",
                "postgresql",
                "16",
                "17",
                "for",
                "billing",
                "i",
                "prefer",
                "tabs",
                "spaces",
                "deploy",
                "to",
                "eu-west-1",
                "terraform",
                "the",
                "now",
                "我们",
                "使用",
                "部署",
                "在",
                "法兰克福");
        return word.list().ofMinSize(1).ofMaxSize(9).map(ws -> String.join(" ", ws));
    }

    @Property(tries = 500)
    void everyStatement_shouldDuplicateItself(
            @ForAll("statements") String s, @ForAll @DoubleRange(min = -1, max = 1) double similarity) {
        assertThat(comparison.relate(s, s, similarity)).isEqualTo(Relation.DUPLICATE);
    }

    @Property(tries = 1000)
    void theRelation_shouldNotDependOnWhichStatementCameFirst(
            @ForAll("statements") String a,
            @ForAll("statements") String b,
            @ForAll @DoubleRange(min = -1, max = 1) double sim) {
        assertThat(comparison.relate(a, b, sim)).isEqualTo(comparison.relate(b, a, sim));
    }

    @Property(tries = 500)
    void caseSpacingPunctuationAndTimeMarkers_shouldNotMakeADifferentFact(
            @ForAll("statements") String s, @ForAll @DoubleRange(min = 0.6, max = 1) double similarity) {
        String restated = "Now, " + s.toUpperCase(java.util.Locale.ROOT).replace(" ", "  ") + "!";
        assertThat(comparison.relate(s, restated, similarity)).isEqualTo(Relation.DUPLICATE);
    }

    @Property(tries = 500)
    void wordsOfTimeFrequencyOrHedging_shouldNotMakeADifferentFact(
            @ForAll("statements") String s,
            @ForAll("hedges") String hedge,
            @ForAll @DoubleRange(min = 0.6, max = 1) double similarity) {
        assertThat(comparison.relate(s, hedge + ", " + s, similarity)).isEqualTo(Relation.DUPLICATE);
    }

    @Provide
    Arbitrary<String> hedges() {
        return Arbitraries.of(
                "Actually", "These days", "Honestly", "From now on", "Going forward", "I think", "Always", "Nowadays");
    }

    @Property(tries = 500)
    void statementsWithNoWordInCommon_shouldBeDistinct(@ForAll @DoubleRange(min = -1, max = 1) double similarity) {
        List<String> pair = List.of("We deploy with Terraform.", "Lisbon hosts the disaster recovery site.");
        assertThat(comparison.relate(pair.get(0), pair.get(1), similarity)).isEqualTo(Relation.DISTINCT);
    }

    @Property(tries = 500)
    void anAdditiveStatement_shouldNeverContradict(
            @ForAll("statements") String a,
            @ForAll("statements") String b,
            @ForAll @DoubleRange(min = -1, max = 1) double similarity) {
        assertThat(comparison.relate(a, b + " also", similarity)).isNotEqualTo(Relation.CONTRADICTION);
    }
}
