package dev.cairn.mcp;

import dev.cairn.http.Problem;
import dev.cairn.http.ProblemMappers;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.validation.Checks;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkiverse.mcp.server.ToolInputGuardrail;
import io.quarkiverse.mcp.server.ToolManager;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a tool call whose arguments the tool cannot take, as the HTTP API refuses a bad body, with a tool error
 * whose text is the problem document (400) naming each argument:
 *
 * <ul>
 *   <li>an argument the tool does not declare: the MCP server would otherwise drop it without a word, and an agent
 *       that sends {@code context} to {@code update_memory}, or misspells {@code importance}, would believe it changed
 *       something;
 *   <li>a required argument missing, or one of the wrong JSON type ({@code "importance": "high"}): the MCP library
 *       refuses those too, after this guardrail, but in a plain sentence of its own rather than the problem document
 *       every other refusal is, so an agent would need two ways to read an error.
 * </ul>
 */
@ApplicationScoped
public class DeclaredArgumentsOnly implements ToolInputGuardrail {

    private static final Set<Type> WHOLE_NUMBERS =
            Set.of(Integer.class, int.class, Long.class, long.class, Short.class, short.class, Byte.class, byte.class);
    private static final Set<Type> NUMBERS = Set.of(Double.class, double.class, Float.class, float.class, Number.class);

    private final McpJson json;

    public DeclaredArgumentsOnly(McpJson json) {
        this.json = json;
    }

    @Override
    public void apply(ToolInputContext context) {
        ToolManager.ToolInfo tool = context.getTool();
        check(tool.name(), tool.arguments(), context.getArguments()).ifPresent(e -> {
            throw new ToolCallException(json.write(Problem.of(e, ProblemMappers.statusOf(e))));
        });
    }

    /** What is wrong with {@code arguments} for a tool declaring {@code declared}; empty when nothing is. */
    static Optional<InvalidInput> check(String tool, List<ToolManager.ToolArgument> declared, JsonObject arguments) {
        List<String> names =
                declared.stream().map(ToolManager.ToolArgument::name).toList();
        TreeSet<String> unknown = new TreeSet<>(arguments.fieldNames());
        unknown.removeAll(names);
        // every problem in one answer: an unknown argument beside a missing or mistyped one is named with them
        Checks c = new Checks();
        for (String name : unknown) {
            List<String> near = McpEnvelope.near(name, names);
            c.fail(
                    name,
                    "is not an argument of " + tool
                            + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)")
                            + "; it takes " + String.join(", ", names) + hint(tool, name));
        }
        for (ToolManager.ToolArgument a : declared) {
            Object value = arguments.getValue(a.name());
            String expected = jsonType(a.type());
            if (value == null) {
                if (a.required()) {
                    c.fail(a.name(), "is required (" + article(expected) + ")");
                }
            } else if (!matches(expected, value)) {
                c.fail(
                        a.name(),
                        "must be " + article(expected) + ", not " + article(jsonTypeOf(value))
                                + (expected.equals("integer") && value instanceof Number ? " with a fraction" : ""));
            }
        }
        try {
            c.throwIfAny();
            return Optional.empty();
        } catch (InvalidInput e) {
            return Optional.of(e);
        }
    }

    /** The JSON type a parameter of this Java type takes, as the MCP library decides it (objects for the rest). */
    static String jsonType(Type t) {
        if (t == Boolean.class || t == boolean.class) {
            return "boolean";
        }
        if (t == String.class || (t instanceof Class<?> k && k.isEnum())) {
            return "string";
        }
        if (WHOLE_NUMBERS.contains(t)) {
            return "integer";
        }
        if (NUMBERS.contains(t)) {
            return "number";
        }
        if ((t instanceof ParameterizedType p && p.getRawType() == List.class)
                || (t instanceof Class<?> k && k.isArray())) {
            return "array";
        }
        return "object";
    }

    private static boolean matches(String expected, Object value) {
        return switch (expected) {
            case "boolean" -> value instanceof Boolean;
            case "string" -> value instanceof String;
            case "integer" -> value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue());
            case "number" -> value instanceof Number;
            case "array" -> value instanceof JsonArray || value instanceof List<?>;
            default -> value instanceof JsonObject || value instanceof Map<?, ?>;
        };
    }

    private static String jsonTypeOf(Object value) {
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Number) {
            return "number";
        }
        if (value instanceof JsonArray || value instanceof List<?>) {
            return "array";
        }
        return "object";
    }

    private static String article(String jsonType) {
        return switch (jsonType) {
            case "integer" -> "a whole number";
            case "array" -> "an array";
            case "object" -> "an object";
            default -> "a " + jsonType;
        };
    }

    /** Where the agent should go instead, for the mistakes a new user made. */
    private static String hint(String tool, String argument) {
        if (tool.equals("update_memory") && argument.equals("context")) {
            return ". A memory's context is set when it is written (remember) and cannot be changed";
        }
        return "";
    }
}
