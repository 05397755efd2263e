package dev.cairn.mcp;

import dev.cairn.http.Problem;
import dev.cairn.http.ProblemMappers;
import dev.cairn.model.error.InvalidInput;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkiverse.mcp.server.ToolInputGuardrail;
import io.quarkiverse.mcp.server.ToolManager;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.TreeSet;

/**
 * Refuses a tool call that names an argument the tool does not declare, as the HTTP API refuses an unknown field:
 * the MCP server would otherwise drop it without a word, and an agent that sends {@code context} to
 * {@code update_memory}, or misspells {@code importance}, would believe it changed something. The answer is a tool
 * error whose text is the problem document (400), naming the argument and the ones the tool takes.
 */
@ApplicationScoped
public class DeclaredArgumentsOnly implements ToolInputGuardrail {

    private final McpJson json;

    public DeclaredArgumentsOnly(McpJson json) {
        this.json = json;
    }

    @Override
    public void apply(ToolInputContext context) {
        ToolManager.ToolInfo tool = context.getTool();
        List<String> declared =
                tool.arguments().stream().map(ToolManager.ToolArgument::name).toList();
        TreeSet<String> unknown = new TreeSet<>(context.getArguments().fieldNames());
        unknown.removeAll(declared);
        if (!unknown.isEmpty()) {
            String first = unknown.first();
            InvalidInput e = new InvalidInput(
                    first,
                    "is not an argument of " + tool.name() + (unknown.size() > 1 ? " (nor are " + unknown + ")" : "")
                            + "; it takes " + String.join(", ", declared) + hint(tool.name(), first));
            throw new ToolCallException(json.write(Problem.of(e, ProblemMappers.statusOf(e))));
        }
    }

    /** Where the agent should go instead, for the mistakes a new user made. */
    private static String hint(String tool, String argument) {
        if (tool.equals("update_memory") && argument.equals("context")) {
            return ". A memory's context is set when it is written (remember) and cannot be changed";
        }
        return "";
    }
}
