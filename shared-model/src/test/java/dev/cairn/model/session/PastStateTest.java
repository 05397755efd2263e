package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.memory.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A past state ("We used to deploy on Heroku", "我们以前部署在Heroku上") is history, kept as a fact: a new user's trial
 * had it stored as the current environment. A move that names the present ("We moved from Heroku to AWS last year")
 * is still about now. A bank of environments, conventions and decisions makes every vote one of the three, so a fact
 * here is the cue's doing.
 */
class PastStateTest {

    private final OneStatement extractor = new OneStatement(
            new ExampleBank.Example("environment", "We deploy on Heroku.", false),
            new ExampleBank.Example("convention", "We always deploy on Fridays.", false),
            new ExampleBank.Example("decision", "We decided to deploy on Heroku.", false),
            new ExampleBank.Example("environment", "我们部署在 Heroku 上。", true),
            new ExampleBank.Example("convention", "我们每周五部署。", true));

    @Test
    void theTrialsPastState_isKeptAsAHistoricalFact_notTheCurrentEnvironment() {
        for (String said : List.of(
                "We used to deploy on Heroku", "我们以前部署在Heroku上", "Previously the API was hosted on DigitalOcean.")) {
            assertThat(extractor.fact(said).type()).as(said).isEqualTo(MemoryType.FACT);
        }
    }

    @Test
    void aChoiceNamedAsSuch_staysADecision_evenInThePast() {
        String said = "We previously decided to deploy on Heroku.";

        assertThat(Statements.isPastState(said)).isTrue();
        assertThat(extractor.fact(said).type()).isEqualTo(MemoryType.DECISION);
    }

    @Test
    void aMoveThatNamesThePresent_staysAboutThePresent() {
        for (String said : List.of(
                "We moved from Heroku to AWS last year.",
                "We used to be on Heroku but now we deploy to Fly.io.",
                "以前部署在 Heroku，如今都跑在阿里云 ECS 上。")) {
            assertThat(Statements.isPastState(said)).as(said).isFalse();
            assertThat(extractor.fact(said).type()).as(said).isNotEqualTo(MemoryType.FACT);
        }
    }

    @Test
    void isPastState_tellsThePastFromBeingUsedToAndFromBefore() {
        assertThat(List.of(
                        "we used to run everything on a single EC2 box",
                        "The old monolith used to be on Java 8.",
                        "Back then we kept the tickets in Trello.",
                        "之前公司的服务都跑在自建机房里。",
                        "我们曾经用过 Oracle 数据库。"))
                .allMatch(Statements::isPastState);
        assertThat(List.of(
                        "I'm used to vim keybindings everywhere.",
                        "Redis is used to cache sessions.",
                        "You'll get used to it.",
                        "上线之前必须跑一遍冒烟测试。",
                        "我们过去三年一直用 Java。",
                        "半年以前的体检报告不认。"))
                .noneMatch(Statements::isPastState);
    }
}
