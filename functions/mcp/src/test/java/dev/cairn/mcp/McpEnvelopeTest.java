package dev.cairn.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class McpEnvelopeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static JsonNode refusal(String body) throws Exception {
        McpEnvelope.Verdict v = McpEnvelope.check(body);
        assertThat(v).as(body).isInstanceOf(McpEnvelope.Refuse.class);
        return JSON.readTree(((McpEnvelope.Refuse) v).answer());
    }

    private static McpEnvelope.Pass passed(String body) {
        McpEnvelope.Verdict v = McpEnvelope.check(body);
        assertThat(v).as(body).isInstanceOf(McpEnvelope.Pass.class);
        return (McpEnvelope.Pass) v;
    }

    @Test
    void aToolCallWithoutParams_shouldBeAnsweredInvalidParams_namingTheToolName() throws Exception {
        JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}");

        assertThat(answer.get("id").asInt()).isEqualTo(3);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(answer.at("/error/message").asText()).contains("params.name").contains("tools/list");
    }

    private static final java.util.Set<String> TOOLS =
            java.util.Set.of("recall", "remember", "update_memory", "forget");

    @Test
    void aMisspeltTool_shouldBeAnsweredInvalidParams_suggestingTheNearNames_andListingEveryTool() throws Exception {
        for (String[] sent : new String[][] {
            {"recal", "did you mean recall?"},
            {"Recall", "did you mean recall?"},
            {"update-memory", "did you mean update_memory?"},
            {"rememberr", "did you mean remember?"},
            {"mcp__cairn__recall", "did you mean recall?"},
            {"mcp__my_memory__update-memory", "did you mean update_memory?"}
        }) {
            McpEnvelope.Verdict v = McpEnvelope.check(
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"" + sent[0]
                            + "\",\"arguments\":{}}}",
                    TOOLS);

            assertThat(v).as(sent[0]).isInstanceOf(McpEnvelope.Refuse.class);
            JsonNode answer = JSON.readTree(((McpEnvelope.Refuse) v).answer());
            assertThat(answer.get("id").asInt()).isEqualTo(4);
            assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
            assertThat(answer.at("/error/message").asText())
                    .contains("no tool '" + sent[0] + "'")
                    .contains(sent[1])
                    .contains("Its tools: forget, recall, remember, update_memory");
        }
    }

    @Test
    void aToolFarFromEveryName_shouldBeRefusedWithTheListAlone() throws Exception {
        McpEnvelope.Verdict v = McpEnvelope.check(
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"search_memories\"}}",
                TOOLS);

        String message = JSON.readTree(((McpEnvelope.Refuse) v).answer())
                .at("/error/message")
                .asText();
        assertThat(message).doesNotContain("did you mean").contains("Its tools: forget, recall");
    }

    @Test
    void aKnownTool_orNoToolList_shouldPass() {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                + "\"arguments\":{\"query\":\"q\"}}}";
        String unknown = call.replace("\"recall\"", "\"recal\"");

        assertThat(McpEnvelope.check(call, TOOLS)).isInstanceOf(McpEnvelope.Pass.class);
        // without the server's names (an adapter that has none) the library answers an unknown tool itself
        assertThat(McpEnvelope.check(unknown)).isInstanceOf(McpEnvelope.Pass.class);
    }

    @Test
    void aBatchWithAMisspeltTool_shouldRunNothing() throws Exception {
        McpEnvelope.Verdict v = McpEnvelope.check(
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
                        + "\"arguments\":{\"content\":\"x\"}}},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"forgett\"}}]",
                TOOLS);

        assertThat(v).isInstanceOf(McpEnvelope.Refuse.class);
        JsonNode answers = JSON.readTree(((McpEnvelope.Refuse) v).answer());
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0).at("/error/message").asText()).contains("Not run");
        assertThat(answers.get(1).at("/error/message").asText()).contains("did you mean forget?");
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}";

    @Test
    void aRequestWithoutASession_shouldBeRefusedNamingTheHeader_butInitializeGoesOn() throws Exception {
        JsonNode refused = JSON.readTree(
                McpEnvelope.sessionProblem("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}", false)
                        .orElseThrow());

        assertThat(refused.get("id").asInt()).isEqualTo(7);
        assertThat(refused.at("/error/message").asText())
                .contains("no Mcp-Session-Id header")
                .contains("initialize");
        assertThat(McpEnvelope.sessionProblem(INITIALIZE, false)).isEmpty();
        // a notification has no id to answer: the refusal carries null
        assertThat(JSON.readTree(McpEnvelope.sessionProblem(
                                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", false)
                                .orElseThrow())
                        .get("id")
                        .isNull())
                .isTrue();
    }

    @Test
    void initializeInsideASession_shouldBeRefusedSayingHowToStartAnother_andOtherRequestsGoOn() throws Exception {
        JsonNode refused =
                JSON.readTree(McpEnvelope.sessionProblem(INITIALIZE, true).orElseThrow());

        assertThat(refused.get("id").asInt()).isEqualTo(1);
        assertThat(refused.at("/error/message").asText()).contains("already initialized");
        assertThat(McpEnvelope.sessionProblem("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", true))
                .isEmpty();
    }

    @Test
    void initializeInABatch_shouldBeToldToGoAlone() throws Exception {
        JsonNode refused = JSON.readTree(McpEnvelope.sessionProblem(
                        "[" + INITIALIZE + ",{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]", false)
                .orElseThrow());

        assertThat(refused).hasSize(1);
        assertThat(refused.get(0).at("/error/message").asText()).contains("initialize goes alone");
    }

    @Test
    void aBodyThatHoldsNoMessage_shouldBeLeftToTheEnvelopeCheck() {
        assertThat(McpEnvelope.sessionProblem("42", false)).isEmpty();
        assertThat(McpEnvelope.sessionProblem("[1,2]", false)).isEmpty();
        assertThat(McpEnvelope.sessionProblem("not json", false)).isEmpty();
    }

    @Test
    void aBatchWithoutASession_shouldAnswerEachRequestInIt() throws Exception {
        JsonNode refused = JSON.readTree(McpEnvelope.sessionProblem(
                        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":"
                                + "\"notifications/initialized\"},{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/list\"}]",
                        false)
                .orElseThrow());

        assertThat(refused).hasSize(2);
        assertThat(refused.get(0).get("id").asInt()).isEqualTo(1);
        assertThat(refused.get(1).get("id").asText()).isEqualTo("b");
    }

    @Test
    void paramsThatAreNoObject_shouldBeAnsweredInvalidParams_forAnyMethod() throws Exception {
        for (String params : List.of("\"x\"", "[]", "5", "true")) {
            JsonNode answer =
                    refusal("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\",\"params\":" + params + "}");

            assertThat(answer.get("id").asText()).isEqualTo("a");
            assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
            assertThat(answer.at("/error/message").asText()).contains("must be an object");
        }
    }

    @Test
    void eachMethodsRequiredParam_shouldBeNamed_whenMissingOrOfTheWrongType() throws Exception {
        String[][] cases = {
            {"resources/read", "{}", "params.uri"},
            {"resources/unsubscribe", "{\"uri\":5}", "params.uri"},
            {"prompts/get", "{}", "params.name"},
            {"completion/complete", "{\"ref\":{}}", "params.ref.type"},
            {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\"},\"argument\":{}}", "params.argument.name"},
            {
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\"},\"argument\":{\"name\":\"a\",\"value\":\"b\"}}",
                "params.ref.name"
            },
            {
                "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}",
                "params.clientInfo.name"
            },
            {"tools/call", "{\"name\":\"recall\",\"_meta\":5}", "params._meta"},
            {"logging/setLevel", "{}", "params.level"},
            {"initialize", "{}", "params.protocolVersion"},
            {"initialize", "{\"protocolVersion\":5,\"capabilities\":{},\"clientInfo\":{}}", "params.protocolVersion"},
            {"tools/call", "{\"name\":\"recall\",\"arguments\":\"x\"}", "params.arguments"},
        };
        for (String[] c : cases) {
            JsonNode answer =
                    refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + c[0] + "\",\"params\":" + c[1] + "}");

            assertThat(answer.at("/error/code").asInt()).as(c[0]).isEqualTo(-32602);
            assertThat(answer.at("/error/message").asText()).as(c[0]).contains(c[2]);
        }
    }

    @Test
    void aToolCallWithoutArguments_shouldGoOn_withEmptyArguments() throws Exception {
        McpEnvelope.Pass pass = passed(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"sync_status\"}}");

        assertThat(pass.changed()).isTrue();
        assertThat(JSON.readTree(pass.body()).at("/params/arguments").isObject())
                .isTrue();
        assertThat(JSON.readTree(pass.body()).at("/params/arguments").isEmpty()).isTrue();
        assertThat(JSON.readTree(pass.body()).get("id").asInt()).isEqualTo(7);
    }

    @Test
    void aWellFormedMessage_shouldGoOnByteForByte() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\","
                + "\"arguments\":{\"query\":\"x\"}}}";

        McpEnvelope.Pass pass = passed(body);

        assertThat(pass.changed()).isFalse();
        assertThat(pass.body()).isSameAs(body);
    }

    @Test
    void anUnknownRequestMethod_shouldBeMethodNotFound_listingTheMethods() throws Exception {
        JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"foo/bar\"}");

        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(answer.at("/error/message").asText()).contains("foo/bar").contains("tools/call");
    }

    @Test
    void theClientsNotificationsAndResponses_shouldGoOn_andOtherNotificationsGoNoFurther() {
        assertThat(passed("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                        .changed())
                .isFalse();
        assertThat(passed("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}").changed())
                .isFalse();
        // a notification is never answered, not even with an error
        assertThat(McpEnvelope.check("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}"))
                .isInstanceOf(McpEnvelope.Ignore.class);
        McpEnvelope.Pass batch = passed("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
        assertThat(batch.body()).isEqualTo("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    }

    @Test
    void textThatIsNoJson_orNothing_shouldBeAParseError_answeredWithoutId() throws Exception {
        for (String body : List.of("not json at all", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"", "")) {
            McpEnvelope.Verdict v = McpEnvelope.check(body);

            assertThat(v).as(body).isInstanceOf(McpEnvelope.Refuse.class);
            assertThat(((McpEnvelope.Refuse) v).toRequest()).isFalse();
            JsonNode answer = JSON.readTree(((McpEnvelope.Refuse) v).answer());
            assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
            assertThat(answer.get("id").isNull()).isTrue();
        }
    }

    @Test
    void anArgumentSentAsNull_shouldBeReadAsNotSent() throws Exception {
        McpEnvelope.Pass pass = passed("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"recall\",\"arguments\":{\"query\":\"db?\",\"top_k\":null,\"team\":null}}}");

        assertThat(pass.changed()).isTrue();
        assertThat(JSON.readTree(pass.body()).at("/params/arguments")).isEqualTo(JSON.readTree("{\"query\":\"db?\"}"));
    }

    @Test
    void twoMessagesOnOneLine_aMixedBatch_andAMalformedNotification_shouldNeverReachTheLibrary() throws Exception {
        // the library refuses text after a message, then stops reading stdin: answered here instead
        JsonNode trailing = JSON.readTree(((McpEnvelope.Refuse)
                        McpEnvelope.check(
                                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"} {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}"))
                .answer());
        assertThat(trailing.at("/error/code").asInt()).isEqualTo(-32700);
        // the library reads a batch as all responses or all requests, by its first message
        JsonNode mixed = refusal("[{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]");
        assertThat(mixed).hasSize(1);
        assertThat(mixed.get(0).get("id").asInt()).isEqualTo(3);
        assertThat(mixed.get(0).at("/error/message").asText()).contains("mixes responses with requests");
        // a notification is never answered, even a malformed one
        assertThat(McpEnvelope.check("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":[1]}"))
                .isInstanceOf(McpEnvelope.Ignore.class);
    }

    @Test
    void aCompletedMessage_shouldKeepItsNumbersExactly() throws Exception {
        McpEnvelope.Pass pass = passed("{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"remember\",\"arguments\":{\"importance\":0.30000000000000004,"
                + "\"x\":1e400,\"tags\":null}}}");

        assertThat(pass.body())
                .contains("12345678901234567890")
                .contains("0.30000000000000004")
                .doesNotContain("Infinity")
                .doesNotContain("tags");
    }

    @Test
    void aSubscription_shouldBeMethodNotFound_sayingThisServerOffersNone() throws Exception {
        JsonNode answer =
                refusal("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"x\"}}");

        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(answer.at("/error/message").asText()).contains("no resource subscriptions");
    }

    @Test
    void aMessageWithNeitherMethodNorResult_shouldBeAnInvalidRequest_answeredWithItsId() throws Exception {
        JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":8}");

        assertThat(answer.get("id").asInt()).isEqualTo(8);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
    }

    @Test
    void anIdThatIsNeitherStringNorNumber_shouldBeAnInvalidRequest_answeredWithoutId() throws Exception {
        for (String id : List.of("{\"a\":1}", "[1]", "true", "null")) {
            McpEnvelope.Verdict v = McpEnvelope.check("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");

            assertThat(v).isInstanceOf(McpEnvelope.Refuse.class);
            assertThat(((McpEnvelope.Refuse) v).toRequest()).isFalse();
            JsonNode answer = JSON.readTree(((McpEnvelope.Refuse) v).answer());
            assertThat(answer.get("id").isNull()).isTrue();
            assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        }
    }

    @Test
    void aBodyThatIsNoMessage_shouldBeAnInvalidRequest_notARequestAnswer() throws Exception {
        for (String body : List.of("5", "\"ping\"", "[]", "null")) {
            McpEnvelope.Verdict v = McpEnvelope.check(body);

            assertThat(v).as(body).isInstanceOf(McpEnvelope.Refuse.class);
            assertThat(((McpEnvelope.Refuse) v).toRequest()).isFalse();
            assertThat(JSON.readTree(((McpEnvelope.Refuse) v).answer())
                            .at("/error/code")
                            .asInt())
                    .isEqualTo(-32600);
        }
    }

    @Test
    void aBatchWithOneBadMessage_shouldRunNone_andAnswerEveryRequestInIt() throws Exception {
        JsonNode answer = refusal("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}]");

        assertThat(answer.isArray()).isTrue();
        assertThat(answer).hasSize(2);
        assertThat(answer.get(0).get("id").asInt()).isEqualTo(1);
        assertThat(answer.get(0).at("/error/message").asText()).contains("message 3");
        assertThat(answer.get(1).get("id").asInt()).isEqualTo(2);
        assertThat(answer.get(1).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void aGoodBatch_shouldGoOn_withEachToolCallCompleted() throws Exception {
        McpEnvelope.Pass pass = passed("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"sync_status\"}}]");

        assertThat(pass.changed()).isTrue();
        assertThat(JSON.readTree(pass.body()).get(1).at("/params/arguments").isObject())
                .isTrue();
    }

    @Test
    void theStdioGuard_shouldAnswerABadLineItself_andHandOnTheOthers() throws Exception {
        String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                + "\n"
                + "not json\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"sync_status\"}}\n";
        ByteArrayOutputStream answered = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(answered, true, StandardCharsets.UTF_8);

        String handedOn;
        try (McpStdioGuard guard =
                new McpStdioGuard(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out)) {
            handedOn = new String(guard.readAllBytes(), StandardCharsets.UTF_8);
        }

        List<String> lines = handedOn.lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(JSON.readTree(lines.get(0)).get("id").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(lines.get(1)).at("/params/arguments").isObject())
                .isTrue();
        // the blank line goes nowhere, the two bad ones are answered here, and reading goes on past all three
        List<String> answers = answered.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(answers).hasSize(2);
        assertThat(JSON.readTree(answers.get(0)).at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(JSON.readTree(answers.get(1)).get("id").asInt()).isEqualTo(2);
        assertThat(JSON.readTree(answers.get(1)).at("/error/code").asInt()).isEqualTo(-32602);
    }

    /**
     * Whatever arrives, the check answers (never throws); a refusal answers exactly the messages that expect an answer
     * (an id, and not a response), each once, with its id; what goes on is what arrived, but for the notifications no
     * one handles dropped and the arguments of a tool call completed; only notifications are dropped unanswered.
     */
    @Property(tries = 500)
    void anyMessageOrBatch_shouldBeHandedOnOrAnsweredForEveryRequestId(@ForAll("bodies") JsonNode body)
            throws Exception {
        McpEnvelope.Verdict v = McpEnvelope.check(JSON.writeValueAsString(body));

        List<JsonNode> requestIds = new ArrayList<>();
        for (JsonNode m : body.isArray() ? body : List.of(body)) {
            if (m.isObject()
                    && (m.path("id").isTextual() || m.path("id").isNumber())
                    && (m.has("method") || !(m.has("result") || m.has("error")))) {
                requestIds.add(m.get("id"));
            }
        }
        if (v instanceof McpEnvelope.Refuse refuse) {
            JsonNode answer = JSON.readTree(refuse.answer());
            List<JsonNode> answered = new ArrayList<>();
            for (JsonNode a : answer.isArray() ? answer : List.of(answer)) {
                assertThat(a.get("jsonrpc").asText()).isEqualTo("2.0");
                assertThat(a.at("/error/code").asInt()).isIn(-32700, -32600, -32601, -32602);
                assertThat(a.at("/error/message").asText()).isNotBlank();
                if (!a.get("id").isNull()) {
                    answered.add(a.get("id"));
                }
            }
            assertThat(answered).containsExactlyInAnyOrderElementsOf(requestIds);
            assertThat(refuse.toRequest()).isEqualTo(!answered.isEmpty());
        } else if (v instanceof McpEnvelope.Pass pass) {
            assertThat(JSON.readTree(pass.body())).isEqualTo(toHandOn(body));
        } else {
            assertThat(requestIds).isEmpty();
            assertThat(toHandOn(body)).isIn(NODES.arrayNode(), null);
        }
    }

    /** What should go on of {@code body}: the notifications no one handles dropped, tool-call arguments completed. */
    private static JsonNode toHandOn(JsonNode body) {
        ArrayNode kept = NODES.arrayNode();
        for (JsonNode element : body.isArray() ? body : List.of(body)) {
            JsonNode m = element.deepCopy();
            boolean badParams = m.has("params")
                    && !m.get("params").isNull()
                    && !m.get("params").isObject();
            if (m.has("method")
                    && !m.has("id")
                    && (!McpEnvelope.NOTIFICATIONS.contains(m.get("method").asText()) || badParams)) {
                continue; // a notification no one handles, or a malformed one: dropped, never answered
            }
            if ("tools/call".equals(m.path("method").asText(null)) && m.get("params") instanceof ObjectNode params) {
                if (params.get("arguments") == null || params.get("arguments").isNull()) {
                    params.set("arguments", NODES.objectNode());
                }
                List<String> nulls = new ArrayList<>();
                params.get("arguments").fields().forEachRemaining(e -> {
                    if (e.getValue().isNull()) {
                        nulls.add(e.getKey());
                    }
                });
                ((ObjectNode) params.get("arguments")).remove(nulls);
            }
            kept.add(m);
        }
        return body.isArray() ? kept : kept.isEmpty() ? null : kept.get(0);
    }

    @Provide
    Arbitrary<JsonNode> bodies() {
        Arbitrary<JsonNode> message = message();
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, message),
                net.jqwik.api.Tuple.of(2, message.list().ofMaxSize(4).map(list -> {
                    ArrayNode batch = NODES.arrayNode();
                    list.forEach(batch::add);
                    return batch;
                })),
                net.jqwik.api.Tuple.of(1, scalar()));
    }

    private static Arbitrary<JsonNode> scalar() {
        return Arbitraries.of(
                NODES.nullNode(),
                NODES.numberNode(5),
                NODES.numberNode(2.5),
                NODES.textNode("x"),
                NODES.booleanNode(true),
                NODES.arrayNode(),
                NODES.objectNode());
    }

    private static Arbitrary<JsonNode> message() {
        Arbitrary<String> methods = Arbitraries.of(
                "initialize",
                "ping",
                "tools/list",
                "tools/call",
                "resources/read",
                "resources/subscribe",
                "prompts/get",
                "completion/complete",
                "logging/setLevel",
                "notifications/initialized",
                "foo/bar");
        Arbitrary<JsonNode> members = Arbitraries.of(
                        "name",
                        "uri",
                        "arguments",
                        "ref",
                        "argument",
                        "level",
                        "protocolVersion",
                        "capabilities",
                        "clientInfo",
                        "cursor")
                .set()
                .ofMaxSize(4)
                .flatMap(names -> scalar().list().ofSize(names.size()).map(values -> {
                    ObjectNode params = NODES.objectNode();
                    int i = 0;
                    for (String n : names) {
                        params.set(n, values.get(i++));
                    }
                    return params;
                }));
        Arbitrary<JsonNode> params = Arbitraries.oneOf(members, scalar());
        Arbitrary<JsonNode> ids =
                Arbitraries.oneOf(Arbitraries.integers().between(0, 3).map(NODES::numberNode), scalar());
        return Combinators.combine(methods, params, ids, Arbitraries.integers().between(0, 7))
                .as((method, p, id, shape) -> {
                    ObjectNode m = NODES.objectNode();
                    m.put("jsonrpc", "2.0");
                    if ((shape & 1) == 0) {
                        m.put("method", method);
                    } else if ((shape & 4) == 0) {
                        m.set("result", NODES.objectNode());
                    }
                    if ((shape & 2) == 0) {
                        m.set("id", id);
                    }
                    if (shape < 6) {
                        m.set("params", p);
                    }
                    return m;
                });
    }
}
