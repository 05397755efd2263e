package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Another person's taste ("John said he prefers Vim", "张三说他喜欢用Vim") is a fact about that person: a new user's
 * trial had it stored as the user's own preference, in the user's scope. A bank of preferences and environments makes
 * every vote one of the two, so a fact here is the cue's doing.
 */
class SomeoneElsesTasteTest {

    private final OneStatement extractor = new OneStatement(
            new ExampleBank.Example("preference", "I prefer Vim over Emacs.", false),
            new ExampleBank.Example("environment", "My editor is Vim with LazyVim.", false),
            new ExampleBank.Example("preference", "我喜欢用 Vim。", true),
            new ExampleBank.Example("environment", "我的编辑器是 Vim。", true));

    @Test
    void theTrialsThirdPersonTaste_isAFactOfTheTeam_notTheUsersPreference() {
        for (String said : List.of("John said he prefers Vim", "张三说他喜欢用Vim")) {
            FactExtractor.Fact f = extractor.fact(said);

            assertThat(f.type()).as(said).isEqualTo(MemoryType.FACT);
            // no "I"/"我" speaks: the default scope of a fact, not the user's as a preference's would be
            assertThat(f.scope()).as(said).isEqualTo(Scope.TEAM);
        }
    }

    @Test
    void aRelativesOrColleaguesTaste_isAFact_inTheUsersScopeWhenTheUserSaysMy() {
        for (String said : List.of(
                "my wife hates spicy food", "Priya told me she'd rather pair in the mornings.", "我老婆喜欢靠窗的座位。")) {
            FactExtractor.Fact f = extractor.fact(said);

            assertThat(f.type()).as(said).isEqualTo(MemoryType.FACT);
            assertThat(f.scope()).as(said).isEqualTo(Scope.USER);
        }
    }

    /** A Chinese name with no 他/她 after it: the limit the README named, "李四喜欢用 Emacs" was the user's preference. */
    @Test
    void aChineseNameBeforeTheVerbOfTaste_isAFactOfTheTeam() {
        for (String said :
                List.of("李四喜欢用 Emacs。", "小王习惯用 Vim 写代码", "王总偏好周报用表格。", "陈老师更喜欢用 LaTeX 排版。", "我们组里，欧阳明喜欢用 Neovim。")) {
            FactExtractor.Fact f = extractor.fact(said);

            assertThat(f.type()).as(said).isEqualTo(MemoryType.FACT);
            assertThat(f.scope()).as(said).isEqualTo(Scope.TEAM);
        }
    }

    /** Words that start with a surname's character and open a sentence with no subject are the speaker's own taste. */
    @Test
    void aSubjectlessTasteAfterATimeWord_isNotReadAsSomeoneElses() {
        assertThat(List.of("周末喜欢去爬山。", "白天喜欢用浅色主题，晚上用深色。", "向来喜欢简洁的界面。", "高中时我就喜欢 Python。", "李四喜欢 Emacs，但我喜欢 Vim。"))
                .noneMatch(Statements::isSomeoneElsesTaste);
    }

    @Test
    void aTasteTheSpeakerShares_staysTheirPreference() {
        for (String said : List.of("My colleague and I both prefer Vim keybindings.", "我和同事都更喜欢用 Vim 键位。")) {
            assertThat(Statements.isSomeoneElsesTaste(said)).as(said).isFalse();
            assertThat(extractor.fact(said).type()).as(said).isNotEqualTo(MemoryType.FACT);
        }
    }

    @Test
    void isSomeoneElsesTaste_needsAThirdPersonSubjectBeforeTheVerbOfTaste() {
        assertThat(List.of(
                        "Sarah likes her reports as PDF, not Word.",
                        "Our CTO is a big fan of Go.",
                        "He said they like the dark theme better.",
                        "fyi my manager prefers weekly status emails",
                        "她说她更喜欢早上开会。",
                        "我们领导喜欢周报用表格。"))
                .allMatch(Statements::isSomeoneElsesTaste);
        assertThat(List.of(
                        "I prefer Vim.",
                        "The team prefers rebasing.",
                        "Everyone likes the new dashboard.",
                        "Please use tabs, I like them.",
                        "其他人喜欢什么无所谓，我喜欢 Vim。",
                        "孩子午睡这事我们家更倾向让他自然醒。"))
                .noneMatch(Statements::isSomeoneElsesTaste);
    }
}
