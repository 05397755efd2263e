package dev.cairn.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import io.github.cdklabs.cdknag.RegexAppliesTo;
import java.util.List;
import software.constructs.IConstruct;

/**
 * cdk-nag suppressions, each with the reason the finding does not apply, recorded on the construct it concerns (and
 * its children) so the reviewer reads the reason next to the code; CdkNagTest fails on any finding without one.
 */
final class Nag {

    private Nag() {}

    static void suppress(IConstruct construct, String rule, String reason) {
        NagSuppressions.addResourceSuppressions(
                construct,
                List.of(NagPackSuppression.builder().id(rule).reason(reason).build()),
                true);
    }

    /** Only for the findings whose resource (or action) matches one of {@code regexes}, e.g. one wildcard resource. */
    static void suppressWhere(IConstruct construct, String rule, List<String> regexes, String reason) {
        NagSuppressions.addResourceSuppressions(
                construct,
                List.of(NagPackSuppression.builder()
                        .id(rule)
                        .reason(reason)
                        .appliesTo(regexes.stream()
                                .<Object>map(
                                        r -> RegexAppliesTo.builder().regex(r).build())
                                .toList())
                        .build()),
                true);
    }
}
