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

    @Test
    void theInlineScriptOfIndexHtml_shouldBeAllowedByItsHashOnly() throws Exception {
        String html;
        try (var in = ConsoleRoutes.class.getResourceAsStream("/META-INF/resources/console/index.html")) {
            html = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<String> hashes = ConsoleRoutes.inlineScriptHashes(html);
        assertThat(hashes).hasSize(1).allMatch(h -> h.matches("'sha256-[A-Za-z0-9+/]{43}='"));
        // the hash is of the script's exact text: changing one character changes it
        assertThat(ConsoleRoutes.inlineScriptHashes(html.replace("limit=50", "limit=51")))
                .doesNotContainAnyElementsOf(hashes);
        String p = ConsoleRoutes.policy(List.of(), hashes);
        assertThat(p).contains("script-src 'self' " + hashes.get(0) + ";").doesNotContain("unsafe-inline");
    }
}
