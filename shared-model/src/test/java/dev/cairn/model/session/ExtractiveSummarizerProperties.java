package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever is folded, in whatever order and budget: the summary fits, and no name or number is lost. */
class ExtractiveSummarizerProperties {

    private static final String[] POOL = {
        "We decided to move Billing to PostgreSQL 17.",
        "Dana prefers Neovim with 4 spaces.",
        "The Kafka cluster in Frankfurt handles 1200 events per second.",
        "ok thanks",
        "Sounds good.",
        "Please always run Gradle with 8 workers.",
        "我们决定把支付服务迁到 Aurora。",
        "张伟喜欢用 IntelliJ。",
        "Grafana alerts go to PagerDuty after 15 minutes.",
        "lol",
        "Remember that Lisbon is our DR region."
    };

    @Property(tries = 200)
    void theSummaryFits_andKeepsEveryNameAndNumber(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 10) Integer> picks,
            @ForAll @IntRange(min = 0, max = 400) int extra) {
        List<SessionMessage> folded = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < picks.size(); i++) {
            String text = POOL[picks.get(i)];
            all.append(text).append(' ');
            folded.add(new SessionMessage(
                    new Id("m" + i), i + 1, SessionMessage.Role.USER, text, Instant.parse("2026-11-30T00:00:00Z")));
        }
        var mustKeep = ExtractiveSummarizer.entitiesAndNumbers(all.toString());
        // a budget that can at least hold the "also mentioned" line, plus a random amount for sentences
        int maxChars = 20 + mustKeep.stream().mapToInt(e -> e.length() + 2).sum() + extra;
        String summary = new ExtractiveSummarizer().fold("", folded, maxChars);
        assertThat(summary.length()).isLessThanOrEqualTo(maxChars);
        for (String e : mustKeep) {
            assertThat(summary).as("%s in %s", e, summary).contains(e);
        }
    }
}
