package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor.Fact;
import dev.cairn.model.session.SessionMessage.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleBasedExtractorTest {

    private final RuleBasedExtractor extractor = new RuleBasedExtractor(SecretScanner.bundled());

    private static List<SessionMessage> said(Object... roleAndText) {
        List<SessionMessage> out = new ArrayList<>();
        for (int i = 0; i < roleAndText.length; i += 2) {
            out.add(new SessionMessage(
                    new Id("m" + (i / 2 + 1)),
                    i / 2 + 1,
                    (Role) roleAndText[i],
                    (String) roleAndText[i + 1],
                    Instant.parse("2026-11-30T00:00:00Z")));
        }
        return out;
    }

    @Test
    void typedFacts_shouldComeFromTheUsersStatements_withEvidence() {
        var result = extractor.extract(said(
                Role.USER, "I prefer dark mode in every editor.",
                Role.ASSISTANT, "We decided nothing yet; I prefer to wait.",
                Role.USER, "We always squash-merge pull requests.",
                Role.USER, "We decided to move billing to PostgreSQL 17.",
                Role.USER, "Our staging cluster runs in eu-west-1.",
                Role.USER, "Thanks, that's all."));
        assertThat(result.facts())
                .extracting(Fact::type)
                .containsExactly(
                        MemoryType.PREFERENCE, MemoryType.CONVENTION, MemoryType.DECISION, MemoryType.ENVIRONMENT);
        assertThat(result.facts().get(2).content()).isEqualTo("We decided to move billing to PostgreSQL 17.");
        assertThat(result.facts().get(2).evidence())
                .extracting(m -> m.id().value())
                .containsExactly("m4");
        assertThat(result.facts()).allSatisfy(f -> assertThat(f.confidence()).isBetween(0.7, 1.0));
    }

    @Test
    void anExplicitRemember_shouldBeTheStrongestCue_inEnglishAndChinese() {
        var result = extractor.extract(said(
                Role.USER, "Remember that the on-call phone is in the blue drawer.",
                Role.USER, "记住：我们统一用 pnpm 管理依赖。"));
        assertThat(result.facts()).hasSize(2);
        assertThat(result.facts().get(0).content()).isEqualTo("The on-call phone is in the blue drawer.");
        assertThat(result.facts().get(0).confidence()).isEqualTo(0.95);
        assertThat(result.facts().get(1).type()).isEqualTo(MemoryType.CONVENTION);
        assertThat(result.facts().get(1).content()).contains("pnpm");
    }

    @Test
    void chineseCues_shouldBeTyped() {
        var result = extractor.extract(said(
                Role.USER, "我喜欢用 Neovim 写代码。",
                Role.USER, "我们决定改用 Kafka 做消息队列。",
                Role.USER, "服务部署在杭州的机房。"));
        assertThat(result.facts())
                .extracting(Fact::type)
                .containsExactly(MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.ENVIRONMENT);
    }

    @Test
    void questionsTemporaryStateAndSecrets_shouldBeSkippedWithAReason() {
        var result = extractor.extract(said(
                Role.USER, "Do we prefer Gradle or Maven?",
                Role.USER, "For now I prefer the old dashboard.",
                Role.USER, "We decided the deploy token is ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI.",
                Role.USER, "今天我喜欢坐窗边。"));
        assertThat(result.facts()).isEmpty();
        assertThat(result.skipped())
                .extracting(FactExtractor.Skipped::reason)
                .containsExactly("question", "temporary", "secret", "temporary");
        assertThat(result.skipped().get(2).text()).doesNotContain("ghp_").contains("[REDACTED:github-pat]");
    }

    @Test
    void aPlainWordPasswordOrALowerCasePin_shouldBeSkippedAsASecret_withTheValueRedacted() {
        var result = extractor.extract(said(
                Role.USER, "Remember that my password is sunflower.",
                Role.USER, "Remember that my bank card pin 482193."));
        assertThat(result.facts()).isEmpty();
        assertThat(result.skipped()).extracting(FactExtractor.Skipped::reason).containsExactly("secret", "secret");
        assertThat(result.skipped().get(0).text())
                .doesNotContain("sunflower")
                .contains("[REDACTED:prose-password-word]");
        assertThat(result.skipped().get(1).text()).doesNotContain("482193").contains("[REDACTED:prose-pin-lower]");
    }

    @Test
    void aPlainWordPasswordNamedTheShortWay_orADoorCode_shouldBeSkippedAsASecret_withTheValueRedacted() {
        var result = extractor.extract(said(
                Role.USER, "Remember that my wifi pass is sunflower.",
                Role.USER, "Remember that the door code is 4821."));
        assertThat(result.facts()).isEmpty();
        assertThat(result.skipped()).extracting(FactExtractor.Skipped::reason).containsExactly("secret", "secret");
        assertThat(result.skipped().get(0).text())
                .doesNotContain("sunflower")
                .contains("[REDACTED:prose-password-word]");
        assertThat(result.skipped().get(1).text()).doesNotContain("4821").contains("[REDACTED:prose-door-code]");
    }

    @Test
    void aFactSaidTwice_shouldBeOneFact_withBothMessagesAsEvidence() {
        var result = extractor.extract(said(
                Role.USER, "I prefer tabs.",
                Role.USER, "i prefer tabs"));
        assertThat(result.facts()).singleElement().satisfies(f -> {
            assertThat(f.evidence()).hasSize(2);
            assertThat(f.confidence()).isGreaterThan(0.85);
        });
    }

    @Test
    void aDotInsideAVersionDateOrHost_shouldNotEndTheSentence() {
        var result = extractor.extract(said(
                Role.USER, "We decided to pin Node 20.11.1 and tag releases as vYYYY.MM.DD. Thanks!",
                Role.USER, "Our prod database runs on db.internal.example.com..."));
        assertThat(result.facts())
                .extracting(Fact::content)
                .containsExactly(
                        "We decided to pin Node 20.11.1 and tag releases as vYYYY.MM.DD.",
                        "Our prod database runs on db.internal.example.com...");
    }

    @Test
    void temporaryFacts_shouldBeTheUsersCurrentStateStatements_newestFirst() {
        List<SessionMessage> recent = said(
                Role.USER, "For now I'm on the hotfix branch. We always rebase.",
                Role.ASSISTANT, "Right now I am checking the logs.",
                Role.USER, "Are you done for today?",
                Role.USER, "今天先用测试库。");
        assertThat(RuleBasedExtractor.temporaryFacts(recent, 10))
                .containsExactly("今天先用测试库。", "For now I'm on the hotfix branch.");
        assertThat(RuleBasedExtractor.temporaryFacts(recent, 1)).containsExactly("今天先用测试库。");
    }
}
