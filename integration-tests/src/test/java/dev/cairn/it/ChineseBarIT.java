package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code cairn.sessions.extraction-chinese-bar} reaches the extractor of a running server: raised above any first
 * sighting's score, it keeps a Chinese statement without a type cue out of memory (listed in {@code skipped} as
 * {@code low-confidence}), while a Chinese statement with a cue and an English one are extracted as before.
 */
class ChineseBarIT {

    @Test
    void aRaisedChineseBar_shouldSkipOnlyChineseStatementsWithoutACue_asLowConfidence() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "chinese-bar-");
        try (LocalServer server = new LocalServer(data).start("-Dcairn.sessions.extraction-chinese-bar=0.99")) {
            server.awaitHealth("/q/health/ready");
            String token = server.token("mei", "acme");
            String plain = "订单表大约有八千万行。"; // a line of the example bank: as sure as a first sighting gets
            String cued = "生产环境部署在阿里云杭州区。";
            String english = "The payments service is owned by Priya's team.";
            for (String text : new String[] {plain, cued, english}) {
                as(server, token)
                        .body(Map.of("role", "user", "content", text))
                        .post("/v1/teams/acme/sessions/zh/messages")
                        .then()
                        .statusCode(202);
            }

            JsonPath ended = as(server, token)
                    .post("/v1/teams/acme/sessions/zh/end")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();

            assertThat(ended.getList("extracted.content", String.class))
                    .anySatisfy(c -> assertThat(c).contains("阿里云杭州区"))
                    .anySatisfy(c -> assertThat(c).contains("Priya"))
                    .noneSatisfy(c -> assertThat(c).contains("八千万"));
            assertThat(ended.getList("skipped", Map.class)).singleElement().satisfies(s -> {
                assertThat((String) s.get("text")).contains("八千万");
                assertThat(s.get("reason")).isEqualTo("low-confidence");
                assertThat(((Number) s.get("score")).doubleValue()).isLessThan(0.99);
            });
        }
    }

    private static RequestSpecification as(LocalServer server, String token) {
        return RestAssured.given()
                .baseUri(server.baseUrl())
                .contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + token);
    }
}
