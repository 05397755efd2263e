package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionMessage.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractiveSummarizerTest {

    private final ExtractiveSummarizer summarizer = new ExtractiveSummarizer();

    private static List<SessionMessage> messages(Object... roleAndText) {
        List<SessionMessage> out = new ArrayList<>();
        for (int i = 0; i < roleAndText.length; i += 2) {
            out.add(new SessionMessage(
                    new Id("m" + i),
                    i / 2 + 1,
                    (Role) roleAndText[i],
                    (String) roleAndText[i + 1],
                    Instant.parse("2026-11-30T00:00:00Z")));
        }
        return out;
    }

    @Test
    void decisionsPreferencesEntitiesAndNumbers_shouldSurvive_chatterShouldNot() {
        String summary = summarizer.fold(
                "",
                messages(
                        Role.USER, "Hi! Thanks.",
                        Role.USER, "We decided to move the billing service to PostgreSQL 17 next sprint.",
                        Role.ASSISTANT, "Sounds good.",
                        Role.USER, "I prefer tabs over spaces in every Go file.",
                        Role.ASSISTANT, "The weather is nice today and I hope you are well.",
                        Role.USER, "Dana owns the Kafka cluster in eu-west-1."),
                400);
        assertThat(summary)
                .contains("PostgreSQL 17")
                .contains("I prefer tabs")
                .contains("Dana")
                .contains("Kafka")
                .doesNotContain("Thanks")
                .doesNotContain("Sounds good")
                .doesNotContain("weather");
    }

    @Test
    void chineseConversation_shouldKeepDecisionsAndNumbers() {
        String summary = summarizer.fold(
                "",
                messages(
                        Role.USER, "好的，谢谢。",
                        Role.USER, "我们决定把支付服务迁到 PostgreSQL 17。",
                        Role.USER, "我喜欢用 Neovim 写代码。",
                        Role.ASSISTANT, "收到。"),
                200);
        assertThat(summary)
                .contains("决定")
                .contains("PostgreSQL")
                .contains("17")
                .contains("Neovim")
                .doesNotContain("谢谢")
                .doesNotContain("收到");
    }

    @Test
    void everyEntityAndNumber_shouldStayFindable_evenWhenItsSentenceDoesNotFit() {
        String summary = summarizer.fold(
                "",
                messages(
                        Role.USER,
                                "We decided to adopt Terraform for every new stack and we will keep the state in S3.",
                        Role.TOOL, "Grafana shows 4312 requests from Berlin, Lisbon and Osaka over the last 24 hours."),
                130);
        assertThat(summary.length()).isLessThanOrEqualTo(130);
        for (String e : List.of("Terraform", "Grafana", "4312", "Berlin", "Lisbon", "Osaka", "24")) {
            assertThat(summary).as(e).contains(e);
        }
    }

    @Test
    void thePreviousSummary_shouldBeKept_andTheNewFoldAppended() {
        String first = summarizer.fold("", messages(Role.USER, "We decided to use Redis 7 for sessions."), 500);
        String second = summarizer.fold(first, messages(Role.USER, "Alice prefers Zig for the new CLI."), 500);
        assertThat(second).startsWith(first).contains("Alice").contains("Zig");
    }

    @Test
    void theUsersOwnStatements_shouldSurvive_evenWithoutANameOrCueWord() {
        String summary = summarizer.fold(
                "",
                messages(
                        Role.USER, "好的，谢谢。",
                        Role.USER, "金融科技论坛的规模是三千人。",
                        Role.ASSISTANT, "这听起来是一个很有意思的活动。"),
                400);
        assertThat(summary).contains("金融科技论坛的规模是三千人").doesNotContain("谢谢").doesNotContain("有意思");
    }

    @Test
    void aSentenceSaidTwice_shouldBeKeptOnce_withinAFoldAndAcrossFolds() {
        String first = summarizer.fold(
                "",
                messages(
                        Role.USER, "We decided to use Redis 7 for sessions.",
                        Role.ASSISTANT, "Noted.",
                        Role.USER, "we decided to use Redis 7 for sessions"),
                500);
        assertThat(occurrences(first, "Redis 7")).isEqualTo(1);
        String second = summarizer.fold(
                first,
                messages(
                        Role.USER, "We decided to use Redis 7 for sessions.",
                        Role.USER, "Alice prefers Zig for the new CLI."),
                500);
        assertThat(occurrences(second, "Redis 7")).isEqualTo(1);
        assertThat(second).contains("Alice prefers Zig for the new CLI.");
        // different words are different sayings: both stay
        String third = summarizer.fold(second, messages(Role.USER, "We decided to use Redis 7 for caching."), 500);
        assertThat(occurrences(third, "Redis 7")).isEqualTo(2);
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void aFullPreviousSummary_shouldGiveUpItsOldestSentences_forTheNewFold() {
        String previous = summarizer.fold(
                "",
                messages(
                        Role.USER, "We decided to use Redis 7 for sessions.",
                        Role.USER, "Dana prefers Neovim for every Go file she writes."),
                120);
        String next = summarizer.fold(previous, messages(Role.USER, "We decided to deploy Billing to Frankfurt."), 120);
        assertThat(next.length()).isLessThanOrEqualTo(120);
        assertThat(next).contains("We decided to deploy Billing to Frankfurt.").contains("Dana prefers Neovim");
        assertThat(next).doesNotContain("Redis");
    }

    @Test
    void sentenceInitialWords_shouldNotCountAsNames() {
        assertThat(ExtractiveSummarizer.entitiesAndNumbers("The deploy uses Kubernetes 1.31 in AWS."))
                .containsExactly("1.31", "Kubernetes", "AWS");
    }

    @Test
    void aNameEndsAtALineBreak_soEveryNameOfAMultiLineMessageCanBeKept() {
        String text = "We moved the cache to Redis\nThen Kafka went down";
        assertThat(ExtractiveSummarizer.entitiesAndNumbers(text)).containsExactly("Redis", "Kafka");
        // the previous definition joined the two lines into one name, which no summary of sentences can contain
        assertThat(ExtractiveSummarizer.entitiesAndNumbersAcrossLines(text)).containsExactly("Redis\nThen Kafka");
        String summary = summarizer.fold("", messages(Role.USER, text), 200);
        assertThat(summary).contains("Redis", "Kafka");
    }

    @Test
    void whenTheStatementsDoNotAllFit_theShortestGoFirst_soTheMostOfThemSurvive() {
        String summary = summarizer.fold(
                "",
                messages(
                        Role.USER, "I prefer reviews where one person reads the whole change in a single sitting.",
                        Role.USER, "We squash merges.",
                        Role.USER, "We rebase daily.",
                        Role.USER, "We pair on fridays."),
                90);
        assertThat(summary.length()).isLessThanOrEqualTo(90);
        assertThat(summary).contains("We squash merges.", "We rebase daily.", "We pair on fridays.");
    }
}
