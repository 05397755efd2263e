package dev.cairn.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/**
 * CORS for the web console served from another origin: off unless {@code corsOrigins} names origins, and then exactly
 * those origins, the headers the console sends and the ETag it reads — never a wildcard.
 */
class ConsoleCorsTest {

    @Test
    void theApi_shouldHaveNoCorsConfiguration_whenNoOriginIsGiven() {
        Template t = synth("CairnNoCors", Map.of());
        Map<String, Object> api = onlyApi(t);
        assertThat(api).doesNotContainKey("CorsConfiguration");
    }

    @Test
    void theApi_shouldAllowExactlyTheContextsOrigins_withTheConsolesHeaders_whenOriginsAreGiven() {
        Template t = synth("CairnCors", Map.of("corsOrigins", "https://console.example.com, http://localhost:8080"));
        t.hasResourceProperties(
                "AWS::ApiGatewayV2::Api",
                Map.of(
                        "CorsConfiguration",
                        Map.of(
                                "AllowOrigins", List.of("https://console.example.com", "http://localhost:8080"),
                                "AllowMethods", List.of("GET", "POST", "PUT", "PATCH", "DELETE"),
                                "AllowHeaders", List.of("authorization", "content-type", "if-match"),
                                "ExposeHeaders", List.of("etag"),
                                "MaxAge", 3600)));
        Map<String, Object> cors = cast(onlyApi(t).get("CorsConfiguration"));
        assertThat(cors).doesNotContainKey("AllowCredentials");
    }

    @Test
    void aWildcardOrAnOriginWithAPath_shouldFailSynthNamingTheKey() {
        for (String bad : List.of("*", "https://*.example.com", "https://console.example.com/app", "ftp://x.example")) {
            assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                            "jwtIssuer", "https://x", "jwtAudience", "a", "corsOrigins", bad)::get))
                    .as(bad)
                    .hasMessageContaining("corsOrigins");
        }
    }

    private static Template synth(String name, Map<String, Object> extra) {
        Map<String, Object> context = new java.util.HashMap<>(Map.of(
                "jwtIssuer", "https://auth.example.com", "jwtAudience", "cairn-api", "functionsDir", "/nonexistent"));
        context.putAll(extra);
        CairnStack stack = new CairnStack(
                new App(),
                name,
                StackProps.builder()
                        .env(Environment.builder()
                                .account("123456789012")
                                .region("eu-west-1")
                                .build())
                        .build(),
                CairnSettings.from(context::get));
        return Template.fromStack(stack);
    }

    private static Map<String, Object> onlyApi(Template t) {
        Map<String, Object> apis = cast(t.findResources("AWS::ApiGatewayV2::Api"));
        assertThat(apis).hasSize(1);
        Map<String, Object> api = cast(apis.values().iterator().next());
        return cast(api.get("Properties"));
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }
}
