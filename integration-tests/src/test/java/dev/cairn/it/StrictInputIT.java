package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static dev.cairn.it.SharedServer.server;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a strict client found accepted (issue 17.7, 17.10, 17.12): duplicate JSON fields, lone surrogates, overlong
 * UTF-8, and paths the HTTP layer would normalise. Each is a 400 problem+json that changes nothing. Requests go over a
 * raw socket where an HTTP client would tidy them (the bytes and the request target are sent exactly as written).
 */
@ExtendWith(SharedServer.class)
class StrictInputIT {

    private static final String TEAM = "strictinput";

    /** One HTTP/1.1 exchange with exactly these bytes; returns the status line's code and the body. */
    private static String[] raw(String method, String target, byte[] body) throws Exception {
        URI base = URI.create(server().baseUrl());
        String token = server().token("erin", TEAM);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream req = new ByteArrayOutputStream();
            req.writeBytes(
                    (method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAuthorization: Bearer "
                                    + token + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            req.writeBytes(body);
            out.write(req.toByteArray());
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String status = response.substring(9, 12);
            String head = response.substring(0, response.indexOf("\r\n\r\n"));
            String entity = response.substring(head.length() + 4);
            return new String[] {
                status, head.toLowerCase().contains("transfer-encoding: chunked") ? dechunk(entity) : entity, response
            };
        }
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, eol).trim(), 16);
            if (size == 0) {
                return body.toString();
            }
            // sizes count bytes; the bodies here are what the server wrote, re-encoded to count them
            byte[] rest = chunked.substring(eol + 2).getBytes(StandardCharsets.UTF_8);
            String chunk = new String(rest, 0, size, StandardCharsets.UTF_8);
            body.append(chunk);
            at = eol + 2 + chunk.length() + 2;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int memoriesStored() {
        return as("erin", TEAM)
                .get("/v1/teams/" + TEAM + "/memories")
                .then()
                .statusCode(200)
                .extract()
                .path("memories.size()");
    }

    @Test
    void aDuplicateField_shouldBe400_andStoreNothing() throws Exception {
        String[] r = raw(
                "POST",
                "/v1/teams/" + TEAM + "/memories",
                utf8("{\"content\":\"Deploys run at noon\",\"scope\":\"team\",\"scope\":\"user\"}"));
        assertThat(r[0]).as(r[2]).isEqualTo("400");
        assertThat(r[2]).contains("application/problem+json").contains("'scope' appears more than once");
        String[] nested = raw(
                "POST",
                "/v1/teams/" + TEAM + "/sessions/s1/tool-cache:lookup",
                utf8("{\"tool\":\"read_file\",\"params\":{\"path\":\"a\",\"path\":\"b\"}}"));
        assertThat(nested[0]).as(nested[2]).isEqualTo("400");
        assertThat(memoriesStored()).isZero();
    }

    @Test
    void aLoneSurrogate_orOverlongUtf8_shouldBe400_andStoreNothing() throws Exception {
        String[] lone = raw("POST", "/v1/teams/" + TEAM + "/memories", utf8("{\"content\":\"half \\ud800 a pair\"}"));
        assertThat(lone[0]).as(lone[2]).isEqualTo("400");
        assertThat(lone[1]).contains("lone UTF-16 surrogate");
        byte[] overlong = {
            '{',
            '"',
            'c',
            'o',
            'n',
            't',
            'e',
            'n',
            't',
            '"',
            ':',
            '"',
            '.',
            '.',
            (byte) 0xC0,
            (byte) 0xAF,
            'e',
            't',
            'c',
            '"',
            '}'
        };
        String[] r = raw("POST", "/v1/teams/" + TEAM + "/memories", overlong);
        assertThat(r[0]).as(r[2]).isEqualTo("400");
        assertThat(r[1]).contains("not valid UTF-8");
        String[] message = raw(
                "POST",
                "/v1/teams/" + TEAM + "/sessions/s2/messages",
                utf8("{\"role\":\"user\",\"content\":\"\\udc00\"}"));
        assertThat(message[0]).as(message[2]).isEqualTo("400");
        assertThat(memoriesStored()).isZero();
        as("erin", TEAM).get("/v1/teams/" + TEAM + "/sessions/s2").then().body("message_count", equalTo(0));
    }

    @Test
    void aSurrogatePair_shouldBeStoredAsTheCharacterItSpells() throws Exception {
        String[] r = raw(
                "POST",
                "/v1/teams/" + TEAM + "/memories",
                utf8("{\"content\":\"Release mascot: \\ud83e\\udd89\",\"scope\":\"team\"}"));
        assertThat(r[0]).as(r[2]).isEqualTo("201");
        assertThat(io.restassured.path.json.JsonPath.from(r[1]).getString("content"))
                .isEqualTo("Release mascot: 🦉");
        as("erin", TEAM)
                .delete("/v1/teams/" + TEAM + "/memories/"
                        + io.restassured.path.json.JsonPath.from(r[1]).getString("id"))
                .then()
                .statusCode(204);
    }

    @Test
    void emptySegmentsAndMatrixParameters_shouldBe400_likeDotSegments() throws Exception {
        for (String target : List.of(
                "//v1/teams/" + TEAM + "/memories",
                "/v1//teams/" + TEAM + "/memories",
                "/v1/teams/" + TEAM + ";x=1/memories",
                "/v1/teams/" + TEAM + "/memories;x=1",
                "/v1/teams/" + TEAM + "/memories%3Bx=1")) {
            String[] r = raw("POST", target, utf8("{\"content\":\"normalised away\"}"));
            assertThat(r[0]).as(target + "\n" + r[2]).isEqualTo("400");
            assertThat(r[2]).contains("application/problem+json");
        }
        assertThat(memoriesStored()).isZero();
    }

    @Test
    void aWrongMethodOnARoute_shouldBe405WithAllow_whicheverRoute_andAPathNoRouteHasA404() {
        String team = "/v1/teams/" + TEAM;
        record Case(String method, String path, String allow) {}
        for (Case c : List.of(
                new Case("DELETE", team + "/memories", "GET, HEAD, POST"),
                new Case("PUT", team + "/memories/m-1", "DELETE, GET, HEAD, PATCH"),
                new Case("GET", team + "/recall", "POST"), // was a 404: its class had a longer path than its siblings
                new Case("GET", team + "/sessions/s-1/end", "POST"), // was a 404 too
                new Case("PUT", team + "/sessions/s-1/extract-preview", "GET, HEAD"),
                new Case("GET", "/v1/scan", "POST"),
                // was a 400 "invalid id": DELETE memories/{id} also matches "m-1:restore"
                new Case("DELETE", team + "/memories/m-1:restore", "POST"),
                new Case("GET", team + "/memories/m-1:restore", "POST"),
                new Case("PATCH", team + "/memories/m-1:restore", "POST"))) {
            as("erin", TEAM)
                    .request(c.method(), c.path())
                    .then()
                    .statusCode(405)
                    .contentType("application/problem+json")
                    .header("Allow", equalTo(c.allow()))
                    .body(
                            "detail",
                            equalTo(c.method() + " is not a method of this route; it takes " + c.allow()
                                    + " (see GET /q/openapi)"));
        }
        for (String path : List.of(team + "/sessions", team + "/nothing", "/v1/teams")) {
            as("erin", TEAM)
                    .delete(path)
                    .then()
                    .statusCode(404)
                    .contentType("application/problem+json")
                    .header("Allow", org.hamcrest.Matchers.nullValue());
        }
        // a mistyped custom method: no route, rather than a 405 advising methods of memories/{id}
        for (String path : List.of(team + "/memories/m-1:restor", team + "/memories/m-1:archive")) {
            as("erin", TEAM)
                    .post(path)
                    .then()
                    .statusCode(404)
                    .contentType("application/problem+json")
                    .header("Allow", org.hamcrest.Matchers.nullValue());
        }
        assertThat(memoriesStored()).isZero();
    }

    @Test
    void aBodyDeclaredOverTheServersLimit_shouldGetA413Problem_sayingTheLimit() throws Exception {
        URI base = URI.create(server().baseUrl());
        String token = server().token("erin", TEAM);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            // the length alone decides: the 30 MB are never sent, and the answer comes before them
            socket.getOutputStream()
                    .write(("POST /v1/teams/" + TEAM + "/memories:batch HTTP/1.1\r\nHost: " + base.getHost()
                                    + "\r\nAuthorization: Bearer " + token
                                    + "\r\nContent-Type: application/json\r\nContent-Length: 30000000\r\n\r\n"
                                    + "{\"memories\":[")
                            .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 413");
            assertThat(response.toLowerCase()).contains("content-type: application/problem+json");
            assertThat(response).contains("30000000 bytes").contains("at most");
        }
    }
}
