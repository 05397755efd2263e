package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded extractor's decisions that do not depend on the embedding model's quality (those are measured by
 * {@code extract-bench} on the labelled corpus): explicit requests, secrets, questions, the threshold, scope and
 * evidence. The shipped bank is used with a bag-of-words test embedder.
 */
class EmbeddedExtractorTest {

    private final EmbeddedExtractor extractor = new EmbeddedExtractor(
            new HashingEmbedder(),
            SecretScanner.bundled(),
            ExampleBank.shipped(),
            EmbeddedExtractor.Settings.defaults());

    private static SessionMessage user(long seq, String text) {
        return new SessionMessage(new Id("m" + seq), seq, SessionMessage.Role.USER, text, Instant.EPOCH);
    }

    @Test
    void extract_shouldKeepAnExplicitRequest_asAnExplicitUserPreferenceWithItsEvidence() {
        SessionMessage m = user(1, "I always prefer Kotlin over Java for new services, please remember that.");

        FactExtractor.Extraction x = extractor.extract(List.of(m));

        assertThat(x.facts()).singleElement().satisfies(f -> {
            assertThat(f.type()).isEqualTo(MemoryType.PREFERENCE);
            assertThat(f.content()).isEqualTo("I always prefer Kotlin over Java for new services");
            assertThat(f.explicit()).isTrue();
            assertThat(f.scope()).isEqualTo(Scope.USER);
            assertThat(f.evidence()).containsExactly(m);
            assertThat(f.confidence()).isGreaterThanOrEqualTo(0.9);
        });
    }

    @Test
    void extract_shouldGiveTheTeamAConventionSaidInTheTeamsVoice() {
        FactExtractor.Extraction x = extractor.extract(
                List.of(user(1, "Our team convention is that every API returns RFC 9457 problem details on errors.")));

        assertThat(x.facts()).singleElement().satisfies(f -> {
            assertThat(f.type()).isEqualTo(MemoryType.CONVENTION);
            assertThat(f.scope()).isEqualTo(Scope.TEAM);
        });
    }

    @Test
    void extract_shouldSkipACredential_withItsValueRedacted_evenWhenAskedToRemember() {
        FactExtractor.Extraction x =
                extractor.extract(List.of(user(1, "Remember that my database password is Tr0ub4dor&3.")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped()).singleElement().satisfies(s -> {
            assertThat(s.reason()).isEqualTo("secret");
            assertThat(s.text()).doesNotContain("Tr0ub4dor").contains("[REDACTED");
        });
    }

    @Test
    void extract_shouldSkipAPlainWordPassword_withTheWordRedacted_evenWhenAskedToRemember() {
        // a lower-case word after "my password is" used to pass the scanner and be remembered as a fact
        FactExtractor.Extraction x = extractor.extract(List.of(user(1, "remember that my password is sunflower")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped()).singleElement().satisfies(s -> {
            assertThat(s.reason()).isEqualTo("secret");
            assertThat(s.text()).doesNotContain("sunflower").contains("[REDACTED");
        });
    }

    @Test
    void aSkippedStatementTheWriteGateRedacted_shouldKeepItsMarkerWhole() {
        // the credential cue read "passwd [REDACTED:prose-passwd-letters-digits]" as "passwd <value>" and answered
        // "passwd [REDACTED:[REDACTED]" (a new user's trial)
        String stored = "passwd [REDACTED:prose-passwd-letters-digits]";
        assertThat(ModelProposals.redact(stored, SecretScanner.bundled())).isEqualTo(stored);
        assertThat(ModelProposals.redact("passwd hunter2", SecretScanner.bundled()))
                .isEqualTo(stored);
        assertThat(ModelProposals.redact("my password is [REDACTED] and the pin is 4821", SecretScanner.bundled()))
                .doesNotContain("4821")
                .startsWith("my password is [REDACTED] and");
    }

    @Test
    void extract_shouldNotRemember_aStatementTheWriteGateAlreadyRedacted_evenWhenAskedTo() {
        // a redacting team stores "Remember that ghp_…" as "Remember that [REDACTED:github-pat]"
        FactExtractor.Extraction x = extractor.extract(
                List.of(user(1, "Remember that [REDACTED:github-pat]"), user(2, "记住：[REDACTED:slack-bot-token]")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped()).extracting(FactExtractor.Skipped::reason).containsExactly("secret", "secret");
    }

    @Test
    void aSecretStatement_shouldBeShownRedacted_orWithheldWholeWhenNoPartOfItCanBePointedAt() {
        assertThat(extractor.redactSecretStatement("Remember that my database password is Tr0ub4dor&3."))
                .contains("[REDACTED")
                .doesNotContain("Tr0ub4dor")
                .isNotEqualTo(EmbeddedExtractor.WITHHELD);
        // recognised by the vote alone: which word is the password is unknown, so none of it is shown
        assertThat(extractor.redactSecretStatement("the password's correcthorsebattery"))
                .isEqualTo(EmbeddedExtractor.WITHHELD);
    }

    /** A bank whose every example is a credential statement, so the vote always says "secret". */
    private final EmbeddedExtractor secretsOnly = new EmbeddedExtractor(
            new HashingEmbedder(),
            SecretScanner.bundled(),
            new ExampleBank(List.of(
                    new ExampleBank.Example("skip:secret", "the password is stored here", false),
                    new ExampleBank.Example("skip:secret", "reset your password now", false),
                    new ExampleBank.Example("skip:chatter", "the weather is nice", false))),
            new EmbeddedExtractor.Settings(3, 0.35, 0.5, 0, 0, false, 0.05, 0.5));

    @Test
    void extract_shouldNotWithholdAStatementAboutAPassword_thatGivesNoValue_evenWhenTheVoteSaysSecret() {
        FactExtractor.Extraction x = secretsOnly.extract(
                List.of(user(1, "The password is stored in Vault."), user(2, "Reset your password.")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped()).noneMatch(s -> s.reason().equals("secret"));
        assertThat(x.skipped()).noneMatch(s -> s.text().equals(EmbeddedExtractor.WITHHELD));
    }

    @Test
    void extract_shouldStillWithholdAStatementTheVoteCallsSecret_whenItHoldsSomethingValueLike() {
        FactExtractor.Extraction x = secretsOnly.extract(List.of(user(1, "the password's correcthorsebattery")));

        assertThat(x.skipped()).singleElement().satisfies(s -> {
            assertThat(s.reason()).isEqualTo("secret");
            assertThat(s.text()).isEqualTo(EmbeddedExtractor.WITHHELD);
        });
    }

    @Test
    void extract_shouldNotTakeAReminderToDoSomething_asARequestToRemember() {
        FactExtractor.Extraction x = extractor.extract(List.of(user(1, "Please remember to call me tomorrow")));

        assertThat(x.facts()).noneMatch(FactExtractor.Fact::explicit);
    }

    @Test
    void extract_shouldReportQuestionsAndTemporaryState_withAScoreAndNoMemory() {
        FactExtractor.Extraction x = extractor.extract(List.of(
                user(1, "Which region has the lowest latency from Singapore?"),
                user(2, "I'm on the hotfix branch right now.")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped()).extracting(FactExtractor.Skipped::reason).containsExactly("question", "temporary");
        assertThat(x.skipped()).allSatisfy(s -> assertThat(s.score()).isBetween(0.0, 1.0));
    }

    @Test
    void extract_shouldIgnoreWhatTheAssistantSays() {
        SessionMessage said = new SessionMessage(
                new Id("a1"), 1, SessionMessage.Role.ASSISTANT, "We always squash merge into main.", Instant.EPOCH);

        assertThat(extractor.extract(List.of(said)).facts()).isEmpty();
    }

    @Test
    void extract_shouldMergeAFactSaidTwice_intoOneWithBothMessagesAsEvidence() {
        SessionMessage first = user(1, "We always squash merge into main.");
        SessionMessage again = user(2, "We always squash merge into main!");

        FactExtractor.Extraction x = extractor.extract(List.of(first, again));

        assertThat(x.facts())
                .singleElement()
                .satisfies(f -> assertThat(f.evidence()).containsExactly(first, again));
    }

    @Test
    void extract_shouldKeepNothing_whenTheThresholdIsAboveEveryScore() {
        EmbeddedExtractor strict = new EmbeddedExtractor(
                new HashingEmbedder(),
                SecretScanner.bundled(),
                ExampleBank.shipped(),
                new EmbeddedExtractor.Settings(7, 0.35, 1.0, 0.8));

        FactExtractor.Extraction x = strict.extract(List.of(user(1, "The orders table has roughly 80 million rows.")));

        assertThat(x.facts()).isEmpty();
        assertThat(x.skipped())
                .singleElement()
                .satisfies(s -> assertThat(s.score()).isLessThan(1.0));
    }

    private static EmbeddedExtractor withChineseBar(ExampleBank bank, double bar) {
        return new EmbeddedExtractor(
                new HashingEmbedder(),
                SecretScanner.bundled(),
                bank,
                EmbeddedExtractor.Settings.defaults().withChineseThreshold(bar));
    }

    @Test
    void extract_shouldHoldOnlyChineseStatementsWithoutACue_toTheChineseBar() {
        // a bank of memories only: every statement's vote is all memory, so its score is the first-sighting cap
        ExampleBank memoriesOnly = new ExampleBank(List.of(
                new ExampleBank.Example("fact", "The payments service is owned by Priya's team.", false),
                new ExampleBank.Example("environment", "Production runs on Kubernetes 1.29.", false),
                new ExampleBank.Example("fact", "订单表大约有八千万行。", true),
                new ExampleBank.Example("environment", "生产环境部署在阿里云上海区。", true)));
        String plain = "订单表大约有八千万行。";
        String english = "The payments service is owned by Priya's team.";
        String cued = "我们决定主库用 PostgreSQL。";
        List<SessionMessage> said = List.of(user(1, plain), user(2, english), user(3, cued));

        FactExtractor.Extraction lenient = withChineseBar(memoriesOnly, 0.9).extract(said);
        FactExtractor.Extraction strict = withChineseBar(memoriesOnly, 0.99).extract(said);

        assertThat(lenient.facts())
                .extracting(FactExtractor.Fact::content)
                .containsExactlyInAnyOrder(plain, english, cued);
        assertThat(strict.facts()).extracting(FactExtractor.Fact::content).containsExactlyInAnyOrder(english, cued);
        assertThat(strict.skipped()).singleElement().satisfies(s -> {
            assertThat(s.text()).isEqualTo(plain);
            assertThat(s.reason()).isEqualTo("low-confidence");
            assertThat(s.score()).isEqualTo(EmbeddedExtractor.FIRST_SIGHT_CAP);
        });
    }

    @Test
    void settings_shouldHoldChineseStatementsToTheCommonBarByDefault_andChangeOnlyThatBar() {
        EmbeddedExtractor.Settings defaults = EmbeddedExtractor.Settings.defaults();
        EmbeddedExtractor.Settings strict = defaults.withChineseThreshold(0.75);

        assertThat(defaults.chineseThreshold()).isEqualTo(defaults.threshold());
        assertThat(strict.chineseThreshold()).isEqualTo(0.75);
        assertThat(strict.withChineseThreshold(defaults.threshold())).isEqualTo(defaults);
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> defaults.withChineseThreshold(0))
                .withMessageContaining("chineseThreshold");
    }

    @Test
    void settings_shouldRefuseANegativeFormWeight_andAFactBiasOutsideZeroToOne() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new EmbeddedExtractor.Settings(7, 0.35, 0.5, 0.8, -0.1, true, 0.05, 0.5))
                .withMessageContaining("formWeight");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new EmbeddedExtractor.Settings(7, 0.35, 0.5, 0.8, 0.5, true, 1.0, 0.5))
                .withMessageContaining("factBias");
    }

    @Test
    void aSkippedScoreJustUnderTheBar_shouldNotBeShownAsTheBar() {
        assertThat(EmbeddedExtractor.shownBelowBar(0.49996)).isEqualTo(0.499);
        assertThat(EmbeddedExtractor.shownBelowBar(0.25)).isEqualTo(0.25);
        assertThat(EmbeddedExtractor.shownBelowBar(0.57)).isEqualTo(0.57);
    }
}
