package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * More than a hundred hostile ids — traversal, separators, encodings, control characters, confusable and full-width
 * Unicode, case, length — in every place an id enters: the team and memory path segments and the ids inside a body
 * (tags, evidence, source session). Each is refused with a 400 problem naming the field; none is cleaned into
 * something else, and nothing is stored.
 */
@ExtendWith(SharedServer.class)
class HostileIdsIT {

    private static final String TEAM = "hostile";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    static List<String> hostileIds() {
        List<String> ids = new ArrayList<>(List.of(
                "..",
                "../x",
                "..\\x",
                "a/../b",
                ".",
                "./a",
                ".hidden",
                "a/b",
                "a\\b",
                "%2e%2e",
                "%2E%2E%2F",
                "..%2f",
                "%252e%252e",
                "%c0%ae%c0%ae",
                "a%2fb",
                "a%5cb",
                "a:b",
                "a;b",
                "a,b",
                "a b",
                "a+b",
                "a?b",
                "a#b",
                "a&b",
                "a=b",
                "a@b",
                "a|b",
                "a*b",
                "a~b",
                "a'b",
                "a\"b",
                "a<b>",
                "a{b}",
                "a[b]",
                "a$b",
                "a!b",
                "a^b",
                "a`b",
                "a%b",
                "a.b",
                "a(b)",
                "ABC",
                "aBc",
                "Team",
                "-abc",
                "_abc",
                "a".repeat(65),
                "b".repeat(100),
                "c".repeat(1000),
                "ａｃｍｅ",
                "аbc",
                "ο",
                "ﬁle",
                "a\u200bb",
                "a\u202eb",
                "e\u0301",
                "a\u00a0b",
                "İ",
                "straße",
                "é",
                "😀",
                "a\u2028b",
                "a\ufeffb",
                "\u0430\u0441\u0435",
                "a\u3000b",
                "ａ",
                "１２３",
                "a\u2044b",
                "a\u2215b",
                "a\uff0fb",
                "a\uff3cb",
                "a\u2024b",
                "C:",
                "con",
                "nul"));
        // every C0 control character and DEL
        for (char c = 0; c < 0x20; c++) {
            ids.add("a" + c + "b");
        }
        ids.add("a\u007fb");
        ids.remove("con"); // a valid id in the grammar (reserved only on Windows, which stores nothing by name here)
        ids.remove("nul");
        return ids;
    }

    static Stream<String> ids() {
        return hostileIds().stream();
    }

    @org.junit.jupiter.api.Test
    void theListIsLongEnough() {
        assertThat(hostileIds()).hasSizeGreaterThanOrEqualTo(100);
    }

    @ParameterizedTest(name = "memory id {index}")
    @MethodSource("ids")
    void asAMemoryId_inThePath(String id) throws Exception {
        assertPathRejected(exactly("/v1/teams/" + TEAM + "/memories/" + encode(id)), "id");
    }

    @ParameterizedTest(name = "team id {index}")
    @MethodSource("ids")
    void asATeamId_inThePath(String id) throws Exception {
        assertPathRejected(exactly("/v1/teams/" + encode(id) + "/memories"), "team");
    }

    /**
     * Sends the path exactly as given: java.net.http does not remove dot segments the way some HTTP client libraries
     * do before sending, so the server sees the attack itself.
     */
    private static HttpResponse<String> exactly(String rawPath) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        new URI(SharedServer.server().baseUrl() + rawPath))
                .header("Authorization", "Bearer " + SharedServer.server().token("alice", TEAM))
                .GET()
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void assertPathRejected(HttpResponse<String> r, String field) {
        assertThat(r.statusCode()).as(r.uri() + " -> " + r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body()).containsAnyOf("\"field\":\"" + field + "\"", "\"field\":\"path\"");
    }

    @ParameterizedTest(name = "ids in a body {index}")
    @MethodSource("ids")
    void asIdsInsideABody(String id) {
        assertRejected(
                as("alice", TEAM)
                        .body(Map.of("content", "x", "tags", List.of(id)))
                        .post("/v1/teams/" + TEAM + "/memories"),
                "tags");
        assertRejected(
                as("alice", TEAM)
                        .body(Map.of("content", "x", "evidence", List.of(id)))
                        .post("/v1/teams/" + TEAM + "/memories"),
                "evidence");
        assertRejected(
                as("alice", TEAM)
                        .body(Map.of("content", "x", "source_session_id", id))
                        .post("/v1/teams/" + TEAM + "/memories"),
                "source_session_id");
    }

    @AfterAll
    static void nothingWasStored() {
        assertThat(as("alice", TEAM)
                        .get("/v1/teams/" + TEAM + "/memories")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("memories"))
                .isEmpty();
    }

    /** Percent-encodes everything outside the unreserved set, so the server sees exactly these characters. */
    private static String encode(String id) {
        if (id.matches(".*%[0-9a-fA-F]{2}.*")) {
            return id; // already an encoding attack: send as is
        }
        return URLEncoder.encode(id, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("*", "%2A")
                .replace("~", "%7E");
    }

    private static void assertRejected(Response r, String field) {
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.asString()).contains(field);
    }
}
