package dev.cairn.mcp;

import dev.cairn.http.SessionEndAnswer;
import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.session.SessionService;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolGuardrails;

/** The session (mid-term) tier as MCP tools: the use cases behind API.md § Sessions. */
@ToolErrors
public class SessionTools {

    static final String SESSION = "Session id you choose for this conversation (lower case, digits, - and _), the "
            + "same for every call of the conversation.";

    private final SessionService sessions;
    private final ContextAssembler contexts;
    private final McpCallers callers;
    private final McpJson json;

    public SessionTools(SessionService sessions, ContextAssembler contexts, McpCallers callers, McpJson json) {
        this.sessions = sessions;
        this.contexts = contexts;
        this.callers = callers;
        this.json = json;
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "session_append",
            description = "Add one message of this conversation to its session buffer. Old messages are folded "
                    + "into a rolling summary; a message saying \"remember that ...\" is stored as a memory at once "
                    + "(its id is in remembered).")
    public String append(
            @ToolArg(description = SESSION) String session,
            @ToolArg(description = "user, assistant or tool") String role,
            @ToolArg(description = "The message text") String content,
            @ToolArg(description = MemoryTools.TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        SessionService.Appended a = sessions.append(
                caller,
                McpCallers.team(caller, team),
                Id.of("session", session),
                new SessionService.MessageDraft(role, content, null));
        return json.write(new Views.Appended(
                a.messageId().value(),
                a.messageCount(),
                a.summaryVersion(),
                a.remembered().stream().map(o -> o.memory().id().value()).toList()));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "session_context",
            description = "The assembled context for the next model call of this session: blocks (system, tools, "
                    + "memories, summary, messages) with token counts, and the prompt-cache plan (where the cache "
                    + "breakpoints go, the stable prefix size, the TTL).")
    public String context(
            @ToolArg(description = SESSION) String session,
            @ToolArg(description = "What the next turn is about: picks the memories to include", required = false)
                    String query,
            @ToolArg(description = "Token budget of the whole context", required = false) Integer max_tokens,
            @ToolArg(
                            description = "false: a preview (e.g. a budget probe) that leaves this turn's stored "
                                    + "snapshot as it was; default true",
                            required = false)
                    Boolean snapshot,
            @ToolArg(description = MemoryTools.TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        return json.write(Views.ContextView.of(contexts.assemble(
                caller,
                McpCallers.team(caller, team),
                Id.of("session", session),
                query,
                max_tokens,
                snapshot == null || snapshot)));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "session_end",
            description = "End the session: durable facts are extracted from it into long-term memory (typed, with "
                    + "confidence and evidence); one-off or temporary statements and secrets are skipped. Answers "
                    + "what was extracted and what was skipped, with the reason.")
    public String end(
            @ToolArg(description = SESSION) String session,
            @ToolArg(description = MemoryTools.TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        SessionService.Ended ended = sessions.end(caller, McpCallers.team(caller, team), Id.of("session", session));
        return json.write(SessionEndAnswer.of(ended)); // the HTTP answer's shape, field for field
    }
}
