package dev.cairn.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The JSON-RPC envelope of an MCP message, checked before the MCP library reads it, because the library (quarkus-mcp
 * 1.10.1) does not check it itself and fails in ways a client cannot read or recover from. Found by sending it what a
 * hurried client sends (2026-12-07):
 *
 * <ul>
 *   <li>{@code tools/call}, {@code resources/read}, {@code prompts/get} and {@code completion/complete} without
 *       {@code params}, and a {@code params} that is not an object: a {@code NullPointerException} or
 *       {@code ClassCastException} on the event loop, and <b>no answer at all</b> (the client waits until it gives up;
 *       over stdio the session is stuck on that id);
 *   <li>{@code tools/call} without {@code arguments}, which the MCP schema makes optional (the Python SDK leaves it
 *       out of a call with none): "Internal error" instead of the call;
 *   <li>{@code initialize} with incomplete params, an empty batch, a bare number: HTTP 500 with an error id;
 *   <li>a request with an unknown method: answered, then a {@code NullPointerException} in the library's metrics,
 *       logged as an error for every such call.
 * </ul>
 *
 * <p>A new user's trial of the first version found more (2026-12-07): over stdio a line that is not JSON (or an empty
 * one) was answered {@code -32700} and then <b>stdin was never read again</b>, and the process outlived its client
 * holding the data directory's locks; an argument sent as {@code null} (as Pydantic and OpenAI strict-mode clients send
 * an optional field they leave out) was "Internal error"; {@code resources/subscribe}, which this server does not offer,
 * was never answered; an unknown notification got an error reply, which a notification must never get.
 *
 * <p>So each message is checked against the MCP schema (2025-06-18) for what the library relies on, and a bad one is
 * answered with the JSON-RPC error the specification names ({@code -32600} invalid request, {@code -32601} method not
 * found, {@code -32602} invalid params), whose message says what to send instead. Nothing of a refused message runs: in
 * a batch with one bad message, no message of the batch runs, and every request in it gets an answer, so no id is left
 * waiting. A {@code tools/call} without {@code arguments} goes on with empty arguments, so the tool's own checks name
 * what is missing. A request whose method MCP does not define is refused here; within the methods it does define,
 * what this class does not check goes on unchanged: the library's own answers to it are fine.
 */
public final class McpEnvelope {

    /** JSON-RPC 2.0 error codes (jsonrpc.org/specification § 5.1). */
    static final int PARSE_ERROR = -32700;

    static final int INVALID_REQUEST = -32600;

    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;

    /** The request methods of the MCP schema (2025-06-18) that a client sends to a server. */
    static final List<String> METHODS = List.of(
            "initialize",
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/templates/list",
            "resources/read",
            "resources/unsubscribe",
            "prompts/list",
            "prompts/get",
            "completion/complete",
            "logging/setLevel",
            "q/close"); // the library's own: ends its session

    /** Per method, its required params members and their JSON types. */
    private static final Map<String, List<Member>> REQUIRED = Map.of(
            "initialize",
                    List.of(
                            new Member("protocolVersion", "string"),
                            new Member("capabilities", "object"),
                            new Member("clientInfo", "object"),
                            new Member("clientInfo.name", "string"),
                            new Member("clientInfo.version", "string")),
            "tools/call", List.of(new Member("name", "string")),
            "resources/read", List.of(new Member("uri", "string")),
            "resources/unsubscribe", List.of(new Member("uri", "string")),
            "prompts/get", List.of(new Member("name", "string")),
            "completion/complete",
                    List.of(
                            new Member("ref", "object"),
                            new Member("ref.type", "string"),
                            new Member("argument", "object"),
                            new Member("argument.name", "string"),
                            new Member("argument.value", "string")),
            "logging/setLevel", List.of(new Member("level", "string")));

    /**
     * Strict where the library is (text after the message is an error to it, so it must be here too, or the library
     * would get a line it then stops reading after), and exact with numbers, which a completed message is written
     * back with.
     */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** At most two edits apart, or -1. */
    private static final LevenshteinDistance NEAR = new LevenshteinDistance(2);

    private McpEnvelope() {}

    /** The notifications a client sends to a server (MCP 2025-06-18); others are acknowledged and dropped. */
    static final List<String> NOTIFICATIONS =
            List.of("notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed");

    /** What to do with a message: hand it on (maybe completed), answer it here, or acknowledge it and drop it. */
    public sealed interface Verdict permits Pass, Refuse, Ignore {}

    /** Hand {@code body} on to the library; {@code changed} when it differs from what was received. */
    public record Pass(String body, boolean changed) implements Verdict {}

    /**
     * Answer {@code answer} and run nothing. {@code toRequest}: it answers a request with an id (HTTP 200 over
     * Streamable HTTP); otherwise the input could not be accepted at all (HTTP 400, the answer without an id).
     */
    public record Refuse(String answer, boolean toRequest) implements Verdict {}

    /**
     * Notifications no one here handles: a notification gets no answer (JSON-RPC 2.0 § 4.1), so it is acknowledged
     * (HTTP 202) and goes no further.
     */
    public record Ignore() implements Verdict {}

    private record Member(String name, String type) {}

    /** The verdict on one received body: a JSON-RPC message or a batch of them; tool names are not checked. */
    public static Verdict check(String body) {
        return check(body, Set.of());
    }

    /**
     * The verdict on one received body, with the server's tool names: a {@code tools/call} of another name is refused
     * here with the names it could have meant (the library answers only "Invalid tool name"). Empty: not checked.
     */
    public static Verdict check(String body, Set<String> tools) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            // the library answers -32700 too, but over stdio it then stops reading; and JSON-RPC has no id to answer
            return new Refuse(
                    write(error(
                            NullNode.instance,
                            PARSE_ERROR,
                            "Parse error: the message is not JSON (" + e.getOriginalMessage()
                                    + "); send one JSON-RPC object per message")),
                    false);
        }
        if (root == null || root.isMissingNode()) {
            return new Refuse(write(error(NullNode.instance, PARSE_ERROR, "Parse error: the message is empty")), false);
        }
        if (root.isArray()) {
            return checkBatch((ArrayNode) root, body, tools);
        }
        if (!root.isObject()) {
            return new Refuse(
                    write(error(
                            NullNode.instance,
                            INVALID_REQUEST,
                            "Invalid Request: a JSON-RPC message is an object with jsonrpc \"2.0\" and a method, not "
                                    + article(typeOf(root)))),
                    false);
        }
        ObjectNode message = (ObjectNode) root;
        if (dropped(message)) {
            return new Ignore();
        }
        Optional<ObjectNode> refusal = problem(message, tools);
        if (refusal.isPresent()) {
            return new Refuse(write(refusal.get()), !refusal.get().get("id").isNull());
        }
        return completed(message) ? new Pass(write(message), true) : new Pass(body, false);
    }

    private static Verdict checkBatch(ArrayNode batch, String body, Set<String> tools) {
        if (batch.isEmpty()) {
            return new Refuse(
                    write(error(
                            NullNode.instance, INVALID_REQUEST, "Invalid Request: an empty batch holds no message")),
                    false);
        }
        int responses = 0;
        int requests = 0;
        for (JsonNode element : batch) {
            responses += element.isObject() && isResponse((ObjectNode) element) ? 1 : 0;
            requests += element.isObject() && element.has("method") && element.has("id") ? 1 : 0;
        }
        if (responses > 0 && requests > 0) {
            // the library reads a batch as responses or as requests by its first message, and so either never
            // answered the requests in it or answered the responses "Unsupported method"
            ArrayNode answers = NODES.arrayNode();
            for (JsonNode element : batch) {
                if (element.isObject() && !isResponse((ObjectNode) element) && validId(element.get("id"))) {
                    answers.add(error(
                            element.get("id"),
                            INVALID_REQUEST,
                            "Invalid Request: this batch mixes responses with requests; send them in separate"
                                    + " messages"));
                }
            }
            return answers.isEmpty()
                    ? new Refuse(
                            write(error(
                                    NullNode.instance,
                                    INVALID_REQUEST,
                                    "Invalid Request: this batch mixes responses with requests; send them in"
                                            + " separate messages")),
                            false)
                    : new Refuse(write(answers), true);
        }
        List<Optional<ObjectNode>> problems = new ArrayList<>();
        int firstBad = -1;
        for (int i = 0; i < batch.size(); i++) {
            JsonNode element = batch.get(i);
            Optional<ObjectNode> p = element.isObject()
                    ? (dropped((ObjectNode) element)
                            ? Optional.<ObjectNode>empty()
                            : problem((ObjectNode) element, tools))
                    : Optional.of(error(
                            NullNode.instance,
                            INVALID_REQUEST,
                            "Invalid Request: message " + (i + 1) + " of the batch is " + article(typeOf(element))
                                    + ", not a JSON-RPC object"));
            problems.add(p);
            if (p.isPresent() && firstBad < 0) {
                firstBad = i;
            }
        }
        if (firstBad < 0) {
            boolean changed = false;
            ArrayNode kept = NODES.arrayNode();
            for (JsonNode element : batch) {
                if (dropped((ObjectNode) element)) {
                    changed = true;
                } else {
                    changed |= completed((ObjectNode) element);
                    kept.add(element);
                }
            }
            if (kept.isEmpty()) {
                return new Ignore();
            }
            return changed ? new Pass(write(kept), true) : new Pass(body, false);
        }
        // nothing of a batch with a bad message runs, and every request in it hears why
        ArrayNode answers = NODES.arrayNode();
        boolean toRequest = false;
        for (int i = 0; i < batch.size(); i++) {
            JsonNode element = batch.get(i);
            boolean request = element.isObject() && isRequest((ObjectNode) element) && validId(element.get("id"));
            if (problems.get(i).isPresent()) {
                answers.add(problems.get(i).get());
                toRequest |= !problems.get(i).get().get("id").isNull();
            } else if (request) {
                answers.add(error(
                        element.get("id"),
                        INVALID_REQUEST,
                        "Not run: message " + (firstBad + 1)
                                + " of this batch is invalid, so no message of it was run; fix it and send the batch"
                                + " again"));
            }
            toRequest |= request;
        }
        return new Refuse(write(answers), toRequest);
    }

    /** What is wrong with one message, as the error to answer; empty when the library may have it. */
    private static Optional<ObjectNode> problem(ObjectNode message, Set<String> tools) {
        JsonNode method = message.get("method");
        if (method == null) {
            if (message.has("id") && (message.has("result") || message.has("error"))) {
                return Optional.empty(); // a response to a request of the server's
            }
            return Optional.of(error(
                    validId(message.get("id")) ? message.get("id") : NullNode.instance,
                    INVALID_REQUEST,
                    "Invalid Request: a message needs a method (a request or a notification), or an id with a result"
                            + " or an error (a response)"));
        }
        boolean hasId = message.has("id");
        JsonNode id = message.get("id");
        if (hasId && !validId(id)) {
            return Optional.of(error(
                    NullNode.instance,
                    INVALID_REQUEST,
                    "Invalid Request: id must be a string or a number, not " + article(typeOf(id))));
        }
        JsonNode answerId = hasId ? id : NullNode.instance;
        if (!method.isTextual()) {
            return Optional.of(error(
                    answerId,
                    INVALID_REQUEST,
                    "Invalid Request: method must be a string, not " + article(typeOf(method))));
        }
        String name = method.asText();
        if (hasId && name.equals("resources/subscribe")) {
            return Optional.of(error(
                    answerId,
                    METHOD_NOT_FOUND,
                    "Method not found: resources/subscribe; this server offers no resource subscriptions (its"
                            + " capabilities.resources has no subscribe): read the resource again when you need it"));
        }
        if (hasId && !METHODS.contains(name)) {
            return Optional.of(error(
                    answerId,
                    METHOD_NOT_FOUND,
                    "Method not found: " + name + "; this server answers " + String.join(", ", METHODS)));
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            return Optional.of(error(
                    answerId,
                    INVALID_PARAMS,
                    "Invalid params: params of " + name + " must be an object, not " + article(typeOf(params))));
        }
        List<Member> required = REQUIRED.getOrDefault(name, List.of());
        for (Member m : required) {
            JsonNode value = params == null ? null : params.at("/" + m.name().replace('.', '/'));
            if (value != null && value.isMissingNode()) {
                value = null;
            }
            if (value == null || value.isNull()) {
                return Optional.of(error(
                        answerId,
                        INVALID_PARAMS,
                        "Invalid params: " + name + " needs params." + m.name() + " (" + article(m.type()) + ")"
                                + hint(name, m.name())));
            }
            if (!typeOf(value).equals(m.type())) {
                return Optional.of(error(
                        answerId,
                        INVALID_PARAMS,
                        "Invalid params: params." + m.name() + " of " + name + " must be " + article(m.type())
                                + ", not " + article(typeOf(value))));
            }
        }
        JsonNode meta = params == null ? null : params.get("_meta");
        if (meta != null && !meta.isNull() && !meta.isObject()) {
            return Optional.of(error(
                    answerId,
                    INVALID_PARAMS,
                    "Invalid params: params._meta of " + name + " must be an object, not " + article(typeOf(meta))));
        }
        if (name.equals("completion/complete")) {
            String ref = params.at("/ref/type").asText();
            String member = ref.equals("ref/resource") ? "uri" : "name";
            if (!params.at("/ref/" + member).isTextual()) {
                return Optional.of(error(
                        answerId,
                        INVALID_PARAMS,
                        "Invalid params: completion/complete with ref.type " + ref + " needs params.ref." + member
                                + " (a string)"));
            }
        }
        if (name.equals("tools/call")
                && !tools.isEmpty()
                && !tools.contains(params.get("name").asText())) {
            return Optional.of(error(
                    answerId, INVALID_PARAMS, unknownTool(params.get("name").asText(), tools)));
        }
        if (name.equals("tools/call") || name.equals("prompts/get")) {
            JsonNode arguments = params.get("arguments");
            if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
                return Optional.of(error(
                        answerId,
                        INVALID_PARAMS,
                        "Invalid params: params.arguments of " + name + " must be an object of argument names to"
                                + " values, not " + article(typeOf(arguments))));
            }
        }
        return Optional.empty();
    }

    /**
     * The refusal of a checked body that does not fit the session it came in, or empty. A server that keeps sessions
     * takes only {@code initialize} without an {@code Mcp-Session-Id} (the transport says to answer anything else HTTP
     * 400; the library answered 200 "The first message from the client must be initialize", which names no header),
     * and never {@code initialize} inside a session (the library: "Unsupported method: initialize").
     */
    public static Optional<String> sessionProblem(String body, boolean inSession) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return Optional.empty(); // refused by check() already
        }
        List<JsonNode> messages = new ArrayList<>();
        if (root != null && root.isArray()) {
            root.forEach(messages::add);
        } else if (root != null) {
            messages.add(root);
        }
        boolean misplaced = false;
        boolean initializing = false;
        for (JsonNode m : messages) {
            if (!m.isObject()) {
                return Optional.empty(); // not a message at all: check() says so
            }
            boolean initialize = "initialize".equals(m.path("method").asText(null));
            initializing |= initialize;
            misplaced |= inSession == initialize;
        }
        if (!misplaced) {
            return Optional.empty();
        }
        String message;
        if (inSession) {
            message = "Bad Request: this MCP session is already initialized; to start a new session, send initialize"
                    + " without the Mcp-Session-Id header";
        } else if (initializing) {
            message = "Bad Request: initialize goes alone, not in a batch: send it first, then send the Mcp-Session-Id"
                    + " header of its answer with every later message";
        } else {
            message = "Bad Request: no Mcp-Session-Id header. This server keeps sessions: send initialize first"
                    + " (without the header), then send the Mcp-Session-Id header of its answer with every later"
                    + " message";
        }
        ArrayNode answers = NODES.arrayNode();
        for (JsonNode m : messages) {
            if (m.isObject() && isRequest((ObjectNode) m) && validId(m.get("id"))) {
                answers.add(error(m.get("id"), INVALID_REQUEST, message));
            }
        }
        if (root.isArray() && !answers.isEmpty()) {
            return Optional.of(write(answers));
        }
        return Optional.of(
                write(answers.isEmpty() ? error(NullNode.instance, INVALID_REQUEST, message) : answers.get(0)));
    }

    /**
     * The refusal of a tool name this server does not have: the names within two edits of it (a typo, a case slip, a
     * hyphen for an underscore) first, then every name, so that a model can correct its call without a tools/list.
     */
    static String unknownTool(String name, Set<String> tools) {
        List<String> all = tools.stream().sorted().toList();
        // a client's own prefix (Claude Code shows tools as mcp__<server>__<tool>) is not part of the name; no tool
        // of this server has a double underscore, so the last one ends the prefix
        String bare = name.startsWith("mcp__") && name.lastIndexOf("__") > 3
                ? name.substring(name.lastIndexOf("__") + 2)
                : name;
        List<String> near = near(bare.replace('-', '_'), all);
        return "Invalid params: this server has no tool '" + name + "'"
                + (near.isEmpty() ? "." : "; did you mean " + String.join(" or ", near) + "?")
                + " Its tools: " + String.join(", ", all);
    }

    /** The names within two edits of {@code written}, case aside, in the order given: what a misspelling could mean. */
    static List<String> near(String written, java.util.Collection<String> names) {
        String lower = written.toLowerCase(java.util.Locale.ROOT);
        return names.stream().filter(n -> NEAR.apply(n, lower) >= 0).toList();
    }

    /**
     * A notification that goes no further: one this server has no use for, or a malformed one. JSON-RPC never answers
     * a notification, not even with an error (§ 4.1), so it is acknowledged and dropped.
     */
    private static boolean dropped(ObjectNode message) {
        JsonNode method = message.get("method");
        if (method == null || message.has("id")) {
            return false;
        }
        return !NOTIFICATIONS.contains(method.asText())
                || problem(message, Set.of()).isPresent();
    }

    private static boolean isResponse(ObjectNode message) {
        return !message.has("method") && message.has("id") && (message.has("result") || message.has("error"));
    }

    /**
     * Fills in what the schema makes optional and the library needs, and reads an argument sent as {@code null} as one
     * not sent (so a required one is named as missing); whether it changed the message.
     */
    private static boolean completed(ObjectNode message) {
        JsonNode method = message.get("method");
        if (method == null || !"tools/call".equals(method.asText())) {
            return false;
        }
        ObjectNode params = (ObjectNode) message.get("params");
        JsonNode arguments = params.get("arguments");
        if (arguments == null || arguments.isNull()) {
            params.set("arguments", NODES.objectNode());
            return true;
        }
        List<String> nulls = new ArrayList<>();
        arguments.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                nulls.add(e.getKey());
            }
        });
        ((ObjectNode) arguments).remove(nulls);
        return !nulls.isEmpty();
    }

    private static String hint(String method, String member) {
        return switch (method + " " + member) {
            case "tools/call name" -> ": the tool's name, as tools/list gives it; its arguments go in params.arguments";
            case "resources/read uri" -> ": e.g. cairn://teams/{team}/memories/{id}";
            default -> "";
        };
    }

    private static boolean isRequest(ObjectNode message) {
        return message.has("method") && message.has("id");
    }

    /** MCP: a request id is a string or a number, never null. */
    private static boolean validId(JsonNode id) {
        return id != null && (id.isTextual() || id.isNumber());
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode answer = NODES.objectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id);
        ObjectNode error = answer.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return answer;
    }

    private static String typeOf(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT, POJO -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case NULL, MISSING -> "null";
            case BINARY -> "string";
        };
    }

    private static String article(String type) {
        return switch (type) {
            case "object", "array" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON-RPC answer could not be written", e);
        }
    }
}
