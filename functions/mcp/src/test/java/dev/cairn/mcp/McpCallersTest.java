package dev.cairn.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NamespaceViolation;
import dev.cairn.model.error.TeamAccessDenied;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a tool call's team is chosen: the argument checked against the token, else the token's only team. */
class McpCallersTest {

    private static final Caller ONE_TEAM = new Caller(new Id("alice"), Set.of(new Id("acme")));
    private static final Caller TWO_TEAMS = new Caller(new Id("alice"), Set.of(new Id("acme"), new Id("beta")));

    @Test
    void team_shouldBeTheTokensOnlyTeam_whenNoArgumentIsGiven() {
        assertThat(McpCallers.team(ONE_TEAM, null)).isEqualTo(new Id("acme"));
    }

    @Test
    void team_shouldBeTheArgument_whenTheTokenGrantsIt() {
        assertThat(McpCallers.team(TWO_TEAMS, "beta")).isEqualTo(new Id("beta"));
    }

    @Test
    void team_shouldBeRefused_whenTheTokenDoesNotGrantIt() {
        assertThatThrownBy(() -> McpCallers.team(ONE_TEAM, "beta")).isInstanceOf(TeamAccessDenied.class);
    }

    @Test
    void team_shouldBeRefusedWithTheGrammar_whenTheArgumentIsNotAnId() {
        assertThatThrownBy(() -> McpCallers.team(ONE_TEAM, "../acme"))
                .isInstanceOf(NamespaceViolation.class)
                .satisfies(e ->
                        assertThat(((InvalidInput) e).errors().get(0).field()).isEqualTo("team"));
    }

    @Test
    void team_shouldBeAskedFor_namingTheTokensTeams_whenTheTokenGrantsSeveral() {
        assertThatThrownBy(() -> McpCallers.team(TWO_TEAMS, null))
                .isInstanceOf(InvalidInput.class)
                .satisfies(e -> assertThat(((InvalidInput) e).detail()).contains("acme, beta"));
    }

    @Test
    void team_shouldBeAskedFor_whenTheTokenGrantsNone() {
        Caller none = new Caller(new Id("alice"), Set.of());
        assertThatThrownBy(() -> McpCallers.team(none, null))
                .isInstanceOf(InvalidInput.class)
                .satisfies(e -> assertThat(((InvalidInput) e).detail()).contains("grants no team"));
    }
}
