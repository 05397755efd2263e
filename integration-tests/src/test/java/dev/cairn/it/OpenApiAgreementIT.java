package dev.cairn.it;

import static dev.cairn.it.SharedServer.anonymous;
import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.restassured.filter.Filter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The served OpenAPI document agrees with the server (issue 17.4): every route is exercised once on its success path
 * and on typical errors, each exchange is recorded, and each is checked against {@code /q/openapi}: the operation
 * exists, the status is documented (a 2xx explicitly; an error at least by the problem+json default), and the request
 * and response bodies validate against the documented schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses). Every
 * documented {@code /v1} operation must have been exercised, so a route added without its document entry, or
 * documented without a route, fails here.
 */
@ExtendWith(SharedServer.class)
class OpenApiAgreementIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String T = "openapi";

    record Exchange(String method, String path, String requestBody, int status, String contentType, String body) {}

    private final List<Exchange> recorded = new ArrayList<>();

    private final Filter recorder = (req, res, ctx) -> {
        Response r = ctx.next(req, res);
        // the client percent-encodes the ':' of custom methods (memories:batch); the server reads it as ':'
        String path = java.net.URI.create(req.getURI()).getRawPath().replaceAll("%3[Aa]", ":");
        Object body = req.getBody();
        recorded.add(new Exchange(
                req.getMethod(),
                path,
                body == null ? null : body.toString(),
                r.statusCode(),
                r.contentType(),
                r.asString()));
        return r;
    };

    private RequestSpecification as(String user, String... teams) {
        return SharedServer.as(user, teams).filter(recorder);
    }

    @Test
    void everyRoute_shouldAnswerWhatTheOpenApiDocumentSays() throws Exception {
        exercise();
        JsonNode doc = JSON.readTree(anonymous()
                .accept("application/json")
                .get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        List<String> problems = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        for (Exchange e : recorded) {
            String template = template(doc, e.path());
            if (template == null) {
                problems.add(e.method() + " " + e.path() + ": no such path in the document");
                continue;
            }
            JsonNode op = doc.path("paths").path(template).path(e.method().toLowerCase());
            if (op.isMissingNode()) {
                problems.add(e.method() + " " + template + ": method not documented");
                continue;
            }
            seen.add(e.method() + " " + template);
            String where = e.method() + " " + template + " → " + e.status();
            if (!op.path("security").isArray() || op.path("security").isEmpty()) {
                problems.add(where + ": no security requirement");
            }
            JsonNode response = op.path("responses").path(String.valueOf(e.status()));
            if (response.isMissingNode()) {
                if (e.status() < 400) {
                    problems.add(
                            where + ": status not documented (documented: " + fieldNames(op.path("responses")) + ")");
                    continue;
                }
                response = op.path("responses").path("default");
                if (response.isMissingNode()) {
                    problems.add(where + ": error status without a documented response");
                    continue;
                }
            }
            if (e.requestBody() != null) {
                JsonNode schema = op.path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema");
                if (schema.isMissingNode()) {
                    problems.add(where + ": request body not documented");
                } else if (e.status() < 400) {
                    validate(doc, schema, e.requestBody(), where + " request", problems);
                }
            }
            if (e.body() == null || e.body().isEmpty()) {
                continue;
            }
            String mediaType =
                    e.contentType() == null ? "" : e.contentType().split(";")[0].trim();
            JsonNode schema = response.path("content").path(mediaType).path("schema");
            if (schema.isMissingNode()) {
                problems.add(where + ": " + mediaType + " body not documented (documented: "
                        + fieldNames(response.path("content")) + ")");
                continue;
            }
            validate(doc, schema, e.body(), where + " response", problems);
        }
        Set<String> documented = new TreeSet<>();
        doc.path("paths").fields().forEachRemaining(p -> {
            if (p.getKey().startsWith("/v1/")) {
                p.getValue().fieldNames().forEachRemaining(m -> documented.add(m.toUpperCase() + " " + p.getKey()));
            }
        });
        documented.removeAll(seen);
        assertThat(problems)
                .as("disagreements between /q/openapi and the server")
                .isEmpty();
        assertThat(documented)
                .as("documented operations this test did not exercise")
                .isEmpty();
        assertThat(doc.path("components").path("securitySchemes").size()).isPositive();
    }

    /** One call of every route, on its success path, plus the common errors. */
    private void exercise() {
        String m = "/v1/teams/" + T + "/memories";
        String id = as("olga", T)
                .body(Map.of("content", "The Orion API gateway runs on port 8443", "scope", "team"))
                .post(m)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as("olga", T)
                .body(Map.of("memories", List.of(Map.of("content", "Staging uses PostgreSQL 16"), Map.of())))
                .post(m + ":batch")
                .then()
                .statusCode(200);
        as("olga", T).get(m + "/" + id).then().statusCode(200);
        as("olga", T)
                .header("If-Match", "1")
                .body(Map.of("importance", 0.9))
                .patch(m + "/" + id)
                .then()
                .statusCode(200);
        as("olga", T).get(m).then().statusCode(200);
        as("olga", T)
                .body(Map.of("query", "which port does the gateway use?", "top_k", 3))
                .post("/v1/teams/" + T + "/recall")
                .then()
                .statusCode(200);
        as("olga", T).post("/v1/teams/" + T + "/decay:run").then().statusCode(200);
        as("olga", T).post(m + "/" + id + ":restore").then().statusCode(400); // not archived: a problem answer
        as("olga", T).header("If-Match", "2").delete(m + "/" + id).then().statusCode(204);

        String s = "/v1/teams/" + T + "/sessions/spec";
        as("olga", T).body(Map.of("visibility", "user")).put(s).then().statusCode(201);
        as("olga", T)
                .body(Map.of("role", "user", "content", "Let us plan the Orion release"))
                .post(s + "/messages")
                .then()
                .statusCode(202);
        as("olga", T).get(s).then().statusCode(200);
        as("olga", T)
                .body(Map.of("system", "You are a release assistant.", "model", "claude-sonnet-4-5"))
                .put(s + "/context/prefix")
                .then()
                .statusCode(204);
        int turn = as("olga", T)
                .get(s + "/context")
                .then()
                .statusCode(200)
                .extract()
                .path("turn");
        as("olga", T).queryParam("turn", turn).get(s + "/context").then().statusCode(200);
        as("olga", T)
                .body(Map.of("model", "claude-sonnet-4-5", "input_tokens", 1200, "output_tokens", 300))
                .post(s + "/usage")
                .then()
                .statusCode(204);
        as("olga", T).get(s + "/usage").then().statusCode(200);
        as("olga", T)
                .queryParam("bucket", "day")
                .get(s + "/usage/series")
                .then()
                .statusCode(200);
        as("olga", T)
                .queryParam("bucket", "week")
                .get(s + "/usage/series")
                .then()
                .statusCode(400);
        as("olga", T)
                .body(Map.of("tool", "read_file", "params", Map.of("path", "README.md"), "result", "# Orion"))
                .put(s + "/tool-cache")
                .then()
                .statusCode(201);
        as("olga", T)
                .body(Map.of("tool", "read_file", "params", Map.of("path", "README.md")))
                .post(s + "/tool-cache:lookup")
                .then()
                .statusCode(200);
        as("olga", T).get(s + "/tool-cache/stats").then().statusCode(200);
        as("olga", T).delete(s + "/tool-cache").then().statusCode(200);
        as("olga", T).get(s + "/extract-preview").then().statusCode(200);
        as("olga", T).post(s + "/end").then().statusCode(200);

        as("olga", T)
                .body(Map.of("content", "token ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI"))
                .post("/v1/scan")
                .then()
                .statusCode(200);
        as("olga", T)
                .body(Map.of(
                        "client_id",
                        "laptop",
                        "base_version",
                        0,
                        "idempotency_key",
                        "spec-1",
                        "delta",
                        List.of(Map.of("op", "upsert", "fact_id", "gateway-port", "content", "8443"))))
                .post("/v1/teams/" + T + "/sync")
                .then()
                .statusCode(200);
        as("olga", T)
                .queryParam("since", 0)
                .get("/v1/teams/" + T + "/changes")
                .then()
                .statusCode(200);
        as("olga", T).get("/v1/teams/" + T + "/conflicts").then().statusCode(200);
        as("olga", T)
                .body(Map.of("resolution", "keep_current"))
                .post("/v1/teams/" + T + "/conflicts/c404:resolve")
                .then()
                .statusCode(404);
        as("olga", T).post("/v1/teams/" + T + "/sync:rebuild").then().statusCode(200);

        // the common errors, each a problem document
        as("olga", T)
                .body(Map.of("topK", 1, "query", "x"))
                .post("/v1/teams/" + T + "/recall")
                .then()
                .statusCode(400);
        as("olga", "elsewhere").get(m).then().statusCode(403);
        as("olga", T).get(m + "/01unknown").then().statusCode(404);
        SharedServer.anonymous().filter(recorder).get(m).then().statusCode(401);
    }

    private static String template(JsonNode doc, String path) {
        for (Iterator<String> it = doc.path("paths").fieldNames(); it.hasNext(); ) {
            String t = it.next();
            String regex = Pattern.quote(t).replaceAll("\\{[^}]+}", "\\\\E[^/:]+\\\\Q");
            if (path.matches(regex)) {
                return t;
            }
        }
        return null;
    }

    private static void validate(JsonNode doc, JsonNode schema, String body, String where, List<String> problems) {
        try {
            ObjectNode root = JSON.createObjectNode();
            root.set("components", doc.path("components"));
            schema.fields().forEachRemaining(f -> root.set(f.getKey(), f.getValue()));
            Set<ValidationMessage> errors = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(root)
                    .validate(JSON.readTree(body));
            for (ValidationMessage v : errors) {
                problems.add(where + ": " + v.getMessage());
            }
        } catch (Exception e) {
            problems.add(where + ": cannot validate: " + e);
        }
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
