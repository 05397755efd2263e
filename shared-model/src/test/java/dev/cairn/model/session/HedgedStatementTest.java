package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.memory.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hedge or hypothetical ("we might move to Terraform", "maybe we should try Bun", "也许可以试试 Bun") is an idea the
 * user is weighing, not a decision: a new user's trial had both stored as decisions at 0.95. The extractor halves a
 * hedged statement's score, so it is listed in {@code skipped}, while a firm statement with a softener ("I think we
 * should always squash-merge") and the speaker's own soft taste are kept. A bank whose every example is a decision
 * makes each vote all memory, so what is skipped here is skipped by the hedge and nothing else.
 */
class HedgedStatementTest {

    private final OneStatement extractor = new OneStatement(
            new ExampleBank.Example("decision", "We decided to move to Terraform for infrastructure.", false),
            new ExampleBank.Example("decision", "We switched the runtime to Bun.", false),
            new ExampleBank.Example("preference", "I prefer Vitest over Jest.", false),
            new ExampleBank.Example("decision", "我们决定下个季度迁到 Terraform。", true),
            new ExampleBank.Example("decision", "运行时换成 Bun 了。", true),
            new ExampleBank.Example("preference", "我更喜欢列表形式的回答。", true));

    @Test
    void theTrialsHedges_areSkippedWithHalfTheirScore_notStoredAsDecisions() {
        List<String> trial = List.of(
                "I think we might move to Terraform next quarter, not sure yet",
                "maybe we should try Bun at some point",
                "我觉得我们可能下个季度会迁到Terraform，还不确定",
                "也许可以试试Bun");

        for (String said : trial) {
            FactExtractor.Extraction x = extractor.extract(said);

            assertThat(x.facts()).as(said).isEmpty();
            assertThat(x.skipped()).as(said).singleElement().satisfies(s -> {
                assertThat(s.text()).isEqualTo(said);
                assertThat(s.reason()).isEqualTo("low-confidence");
                assertThat(s.score()).isLessThanOrEqualTo(EmbeddedExtractor.FIRST_SIGHT_CAP * EmbeddedExtractor.HEDGED);
            });
        }
    }

    @Test
    void aFirmStatementWithASoftener_andAChoiceAlreadyMade_areKept() {
        for (String said : List.of(
                "I think we should always squash-merge into main.",
                "We were considering Kafka but decided on RabbitMQ.",
                "之前考虑过 Kafka，最后还是选了 RabbitMQ。",
                "我觉得提交前都必须跑一遍单元测试。")) {
            assertThat(extractor.extract(said).facts())
                    .as(said)
                    .singleElement()
                    .satisfies(f -> assertThat(f.confidence()).isGreaterThanOrEqualTo(0.5));
        }
    }

    @Test
    void theSpeakersOwnTaste_staysAPreference_underAHedge() {
        for (String said : List.of("Honestly I think I prefer Vitest over Jest, maybe.", "可能我更喜欢列表形式吧。")) {
            assertThat(Statements.isTentative(said)).as(said).isFalse();
            assertThat(extractor.extract(said).facts()).as(said).hasSize(1);
        }
    }

    @Test
    void anExplicitRequestToRemember_keepsAHedgedStatement() {
        FactExtractor.Extraction x = extractor.extract("Remember that we might move to Terraform next quarter.");

        assertThat(x.facts()).singleElement().satisfies(f -> {
            assertThat(f.explicit()).isTrue();
            assertThat(f.type()).isEqualTo(MemoryType.DECISION);
        });
    }

    @Test
    void isTentative_findsHedges_butNotTheWordsThatOnlyLookLikeOne() {
        assertThat(List.of(
                        "We're thinking about switching to pnpm.",
                        "Not sure yet whether we'll use Redis or Memcached.",
                        "We'll probably move the docs to Docusaurus.",
                        "might go with fly.io for the side project, havent decided",
                        "在考虑要不要把前端换成 Vue",
                        "说不定下半年会上 k8s",
                        "团队还在纠结用 Kafka 还是 RabbitMQ"))
                .allMatch(Statements::isTentative);
        assertThat(List.of(
                        "I think we should always squash-merge into main.",
                        "The read model is eventually consistent.",
                        "Contractors may not push to main.",
                        "We haven't got a staging cluster, we decided against it.",
                        "时间尽可能都用 UTC。",
                        "能用 SQL 搞定的就优先考虑 SQL。",
                        "车最后定了比亚迪的插混，纯油车不考虑了。",
                        "线上高峰大概每秒两千个请求。"))
                .noneMatch(Statements::isTentative);
    }
}
