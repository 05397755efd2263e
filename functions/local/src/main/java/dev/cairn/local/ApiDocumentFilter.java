package dev.cairn.local;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Completes the document SmallRye generates from the resources' types (in the server's snake_case, set by
 * {@code mp.openapi.extensions.smallrye.property-naming-strategy}) with what the types cannot say: the success status
 * of the routes that answer through a {@code Response} (201, 202, 204 instead of the inferred 200) and the schema of
 * their body, the problem+json error responses, and the bearer token every {@code /v1} route requires.
 * {@code OpenApiAgreementIT} checks the result against what the server actually answers in the API tests.
 */
public class ApiDocumentFilter implements OASFilter {

    /** A route whose answer the resource method's return type does not tell. */
    record Answer(String status, String schema) {}

    static final Map<String, Answer> ANSWERS = Map.of(
            "POST /v1/teams/{team}/memories", new Answer("201", "MemoryView"),
            "GET /v1/teams/{team}/memories/{id}", new Answer("200", "MemoryView"),
            "PATCH /v1/teams/{team}/memories/{id}", new Answer("200", "MemoryView"),
            "DELETE /v1/teams/{team}/memories/{id}", new Answer("204", null),
            "PUT /v1/teams/{team}/sessions/{session}", new Answer("201", "SessionCreated"),
            "POST /v1/teams/{team}/sessions/{session}/messages", new Answer("202", "AppendResult"),
            "PUT /v1/teams/{team}/sessions/{session}/context/prefix", new Answer("204", null),
            "POST /v1/teams/{team}/sessions/{session}/usage", new Answer("204", null),
            "PUT /v1/teams/{team}/sessions/{session}/tool-cache", new Answer("201", "Stored"));

    static final String PROBLEM = "Problem";
    static final String SCHEME = "SecurityScheme";

    @Override
    public void filterOpenAPI(OpenAPI api) {
        // Jackson's tree type would be described as a bean of its getters; on the wire it is any JSON value
        if (api.getComponents().getSchemas().containsKey("JsonNode")) {
            api.getComponents().addSchema("JsonNode", OASFactory.createSchema().description("any JSON value"));
        }
        // the server writes absent values as null (records carry every component): say so for every property
        for (Map.Entry<String, Schema> e :
                Map.copyOf(api.getComponents().getSchemas()).entrySet()) {
            if (e.getValue().getProperties() != null) {
                Map.copyOf(e.getValue().getProperties()).forEach((name, p) -> nullable(e.getValue(), name, p));
            }
        }
        api.getComponents().addSchema(PROBLEM, problemSchema());
        if (api.getPaths() == null) {
            return;
        }
        api.getPaths().getPathItems().forEach((path, item) -> {
            for (Map.Entry<PathItem.HttpMethod, Operation> e :
                    item.getOperations().entrySet()) {
                fix(api, e.getKey() + " " + path, path, e.getValue());
            }
        });
    }

    private static void fix(OpenAPI api, String route, String path, Operation op) {
        APIResponses responses = op.getResponses() == null ? OASFactory.createAPIResponses() : op.getResponses();
        Answer answer = ANSWERS.get(route);
        if (answer != null) {
            APIResponse inferred = responses.getAPIResponse("200");
            responses.removeAPIResponse("200");
            APIResponse success = OASFactory.createAPIResponse()
                    .description(
                            inferred == null || inferred.getDescription() == null ? "OK" : inferred.getDescription());
            if (answer.schema() != null && api.getComponents().getSchemas().containsKey(answer.schema())) {
                success.content(json("application/json", "#/components/schemas/" + answer.schema()));
            }
            responses.addAPIResponse(answer.status(), success);
            if (route.equals("PUT /v1/teams/{team}/sessions/{session}")) {
                responses.addAPIResponse(
                        "200",
                        OASFactory.createAPIResponse()
                                .description("already created, the same way, by the caller")
                                .content(success.getContent()));
            }
        }
        if (path.startsWith("/v1/")) {
            Content problem = json("application/problem+json", "#/components/schemas/" + PROBLEM);
            for (String[] s : List.of(
                    new String[] {"400", "invalid request (field-level errors in `errors`)"},
                    new String[] {"401", "missing or invalid bearer token"},
                    new String[] {"403", "the token does not grant the team in the path"},
                    new String[] {"500", "unexpected server error (an error id, never a stack)"},
                    new String[] {"503", "a backing store is unavailable or the disk is full; see Retry-After"})) {
                APIResponse existing = responses.getAPIResponse(s[0]);
                if (existing == null) {
                    responses.addAPIResponse(
                            s[0],
                            OASFactory.createAPIResponse().description(s[1]).content(problem));
                } else if (existing.getContent() == null
                        || existing.getContent().getMediaTypes().isEmpty()) {
                    existing.content(problem); // SmallRye adds a bare 400 where a body is read
                }
            }
            // any other error (404, 409, 412, 413, 422, 428) is a problem document too
            responses.defaultValue(OASFactory.createAPIResponse()
                    .description("an error, as problem+json")
                    .content(problem));
            op.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(SCHEME)));
        }
        op.setResponses(responses);
    }

    private static void nullable(Schema owner, String name, Schema p) {
        if (owner.getRequired() != null && owner.getRequired().contains(name)) {
            return;
        }
        if (p.getRef() != null) {
            owner.addProperty(
                    name,
                    OASFactory.createSchema()
                            .addAnyOf(OASFactory.createSchema().ref(p.getRef()))
                            .addAnyOf(OASFactory.createSchema().addType(Schema.SchemaType.NULL)));
        } else if (p.getType() != null && !p.getType().contains(Schema.SchemaType.NULL)) {
            p.addType(Schema.SchemaType.NULL);
        }
    }

    private static Content json(String mediaType, String ref) {
        MediaType m =
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref(ref));
        return OASFactory.createContent().addMediaType(mediaType, m);
    }

    /** RFC 9457 as API.md uses it: type, title, status, detail, plus errors or findings where relevant. */
    private static Schema problemSchema() {
        Schema string = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        return OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT)
                .addRequired("type")
                .addRequired("title")
                .addRequired("status")
                .addProperty("type", string)
                .addProperty("title", string)
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", string)
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY))
                .addProperty("findings", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY));
    }
}
