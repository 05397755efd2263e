package dev.cairn.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleRoutesTest {

    @Test
    void policy_shouldAllowOnlyThisServersScriptsAndStyles_andNoInlineCode() {
        String p = ConsoleRoutes.policy(List.of());
        assertThat(p)
                .contains("default-src 'none'")
                .contains("script-src 'self';")
                .contains("style-src 'self';")
                .contains("connect-src 'self';")
                .contains("frame-ancestors 'none'")
                .doesNotContain("unsafe-inline")
                .doesNotContain("unsafe-eval")
                .doesNotContain("*");
    }

    @Test
    void policy_shouldAddConfiguredApiOrigins_toConnectSrcOnly() {
        String p = ConsoleRoutes.policy(List.of("https://abc.execute-api.eu-west-1.amazonaws.com"));
        assertThat(p).contains("connect-src 'self' https://abc.execute-api.eu-west-1.amazonaws.com;");
        assertThat(p).contains("script-src 'self';");
    }

    @Test
    void policy_shouldRefuseAWildcardOrAPath_namingTheProperty() {
        for (String bad : List.of("*", "https://*.example.com", "https://api.example.com/v1", "javascript:alert(1)")) {
            assertThatThrownBy(() -> ConsoleRoutes.policy(List.of(bad)))
                    .as(bad)
                    .hasMessageContaining("cairn.console.api-origins");
        }
    }
}
