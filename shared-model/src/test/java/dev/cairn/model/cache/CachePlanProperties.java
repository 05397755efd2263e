package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The prompt-cache plan's rules, for any block sizes and any model minimum. */
class CachePlanProperties {

    private static final String[] KINDS = {"system", "tools", "memories", "summary", "messages"};

    private static List<ContextAssembler.Block> blocks(List<Integer> tokens) {
        List<ContextAssembler.Block> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            out.add(new ContextAssembler.Block(KINDS[i], "x", tokens.get(i), null));
        }
        return out;
    }

    @Property(tries = 1000)
    void atMostFourBreakpoints_oneHourBeforeFiveMinutes_andNeverBeforeTheMinimum(
            @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 0, max = 6000) Integer> tokens,
            @ForAll @IntRange(min = 1, max = 5000) int minimum) {
        List<ContextAssembler.Block> planned = ContextAssembler.plan(blocks(tokens), minimum);
        int cumulative = 0;
        int breakpoints = 0;
        boolean fiveMinutesSeen = false;
        for (ContextAssembler.Block b : planned) {
            cumulative += b.tokens();
            if (b.cacheTtl() != null) {
                breakpoints++;
                assertThat(cumulative).isGreaterThanOrEqualTo(minimum);
                assertThat(fiveMinutesSeen && b.cacheTtl().equals("1h")).isFalse();
                fiveMinutesSeen |= b.cacheTtl().equals("5m");
            }
        }
        assertThat(breakpoints).isLessThanOrEqualTo(ContextAssembler.MAX_BREAKPOINTS);
        ContextAssembler.Plan plan = ContextAssembler.planOf(planned, minimum);
        assertThat(plan.breakpoints()).isEqualTo(breakpoints);
        assertThat(plan.stablePrefixTokens()).isLessThanOrEqualTo(cumulative);
    }

    @Property(tries = 300)
    void aPrefixAboveTheMinimum_shouldAlwaysBeCached(
            @ForAll @IntRange(min = 1024, max = 9000) int system, @ForAll @IntRange(min = 0, max = 500) int messages) {
        List<ContextAssembler.Block> planned = ContextAssembler.plan(
                List.of(
                        new ContextAssembler.Block("system", "s", system, null),
                        new ContextAssembler.Block("messages", "m", messages, null)),
                1024);
        assertThat(planned.get(0).cacheTtl()).isEqualTo("1h");
        assertThat(ContextAssembler.planOf(planned, 1024).stablePrefixTokens()).isEqualTo(system);
    }
}
