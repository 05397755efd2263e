package dev.cairn.mcp;

import dev.cairn.http.MemoryView;
import dev.cairn.http.RecallAnswer;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.ListDraft;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.recall.RecallDraft;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolGuardrails;
import java.util.List;

/**
 * Long-term memory as MCP tools: the same use cases, secret gate, validation and tenant checks as API.md § Memories and
 * § Recall. Descriptions are written for the agent that reads them to decide what to call.
 */
@ToolErrors
public class MemoryTools {

    static final String TEAM = "Team id; optional when the token grants exactly one team.";

    private final MemoryService memories;
    private final RecallService recall;
    private final McpCallers callers;
    private final McpJson json;

    public MemoryTools(MemoryService memories, RecallService recall, McpCallers callers, McpJson json) {
        this.memories = memories;
        this.recall = recall;
        this.callers = callers;
        this.json = json;
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "remember",
            description = "Store one durable fact worth knowing in later sessions: a preference, a convention, a "
                    + "decision, the environment, a fact or an episode. One self-contained statement per call. "
                    + "Never store secrets: content with credentials is refused (or redacted, per policy). Answers "
                    + "the stored memory (its id and version).")
    public String remember(
            @ToolArg(description = "The statement to remember, self-contained (it is read without this conversation).")
                    String content,
            @ToolArg(description = "preference, convention, decision, environment, fact or episode", required = false)
                    String type,
            @ToolArg(description = "user (only you; the default) or team (everyone in the team)", required = false)
                    String scope,
            @ToolArg(description = "Tags (ids: lower case, digits, - and _)", required = false) List<String> tags,
            @ToolArg(description = "0..1, how much it matters (default 0.5)", required = false) Double importance,
            @ToolArg(description = "0..1, how sure you are (default 1.0)", required = false) Double confidence,
            @ToolArg(description = "When it happened or was said, RFC 3339", required = false) String occurred_at,
            @ToolArg(description = "The session it came from", required = false) String source_session_id,
            @ToolArg(
                            description = "Text the memory should also be found by, without being part of it (the "
                                    + "reply a statement got, say); matched by its words only",
                            required = false)
                    String context,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        MemoryService.Saved saved = memories.create(
                caller,
                McpCallers.team(caller, team),
                new MemoryDraft(
                        content,
                        type,
                        scope,
                        tags,
                        importance,
                        confidence,
                        occurred_at,
                        source_session_id,
                        null,
                        context));
        return json.write(MemoryView.of(saved.memory(), saved.redactions(), saved.contextRedactions()));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "recall",
            description = "Find the memories most relevant to a question, best first. Call it before answering "
                    + "anything that may depend on the user's preferences, the team's conventions or earlier "
                    + "decisions. Each result has its score and the parts it is made of (similarity, freshness, "
                    + "confidence).")
    public String recall(
            @ToolArg(description = "What you want to know, in natural language") String query,
            @ToolArg(description = "How many results, 1..100 (default 10)", required = false) Integer top_k,
            @ToolArg(description = "user, team or all (default: yours and the team's)", required = false) String scope,
            @ToolArg(description = "Only these types", required = false) List<String> types,
            @ToolArg(description = "Only memories with all these tags", required = false) List<String> tags,
            @ToolArg(description = "Recall as of this instant (RFC 3339): what was valid then", required = false)
                    String as_of,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        RecallResult result = recall.recall(
                caller,
                McpCallers.team(caller, team),
                new RecallDraft(query, top_k, scope, types, tags, null, null, null, as_of));
        return json.write(RecallAnswer.of(result));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(name = "get_memory", description = "Read one memory by id, with its current version.")
    public String get(
            @ToolArg(description = "The memory's id") String id,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        Memory m = memories.get(caller, McpCallers.team(caller, team), Id.of("id", id));
        return json.write(MemoryView.of(m));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "update_memory",
            description = "Change a memory you read before: pass the version you read (the update is refused when "
                    + "someone changed it since; read it again then). Only the fields given change; state archived "
                    + "retires it without deleting it.")
    public String update(
            @ToolArg(description = "The memory's id") String id,
            @ToolArg(description = "The version you read (get_memory, recall or list_memories show it)") Long version,
            @ToolArg(description = "New statement", required = false) String content,
            @ToolArg(description = "New type", required = false) String type,
            @ToolArg(description = "New tags (replace the old ones)", required = false) List<String> tags,
            @ToolArg(description = "New importance, 0..1", required = false) Double importance,
            @ToolArg(description = "New confidence, 0..1", required = false) Double confidence,
            @ToolArg(description = "When it happened or was said, RFC 3339", required = false) String occurred_at,
            @ToolArg(description = "Ids of the messages it comes from (replace the old ones)", required = false)
                    List<String> evidence,
            @ToolArg(description = "active or archived", required = false) String state,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        if (version == null) {
            throw new InvalidInput("version", "is required: the version you read, so no one else's change is lost");
        }
        MemoryService.Saved saved = memories.patch(
                caller,
                McpCallers.team(caller, team),
                Id.of("id", id),
                version,
                // every field PATCH …/memories/{id} takes (a trial missed occurred_at and evidence here)
                new PatchDraft(content, type, tags, importance, confidence, occurred_at, evidence, state));
        return json.write(MemoryView.of(saved.memory(), saved.redactions()));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "forget",
            description = "Delete a memory for good (its vectors, cold copy and caches too). Use it when the user asks "
                    + "to forget something or a memory is wrong; prefer update_memory when it merely changed.")
    public String forget(
            @ToolArg(description = "The memory's id") String id,
            @ToolArg(description = "Delete only if it is still at this version", required = false) Long version,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        memories.delete(caller, McpCallers.team(caller, team), Id.of("id", id), version);
        return json.write(new Views.Forgotten(id, true));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "list_memories",
            description = "List memories page by page, newest or most important first (no search: use recall to "
                    + "find by meaning). Pass next_cursor back as cursor for the next page.")
    public String list(
            @ToolArg(description = "user or team", required = false) String scope,
            @ToolArg(description = "Only this type", required = false) String type,
            @ToolArg(description = "Only this tag", required = false) String tag,
            @ToolArg(description = "recency (default) or importance", required = false) String order,
            @ToolArg(description = "Page size", required = false) Integer limit,
            @ToolArg(description = "next_cursor of the previous page", required = false) String cursor,
            @ToolArg(description = TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        MemoryService.Listing page = memories.list(
                caller, McpCallers.team(caller, team), new ListDraft(scope, type, tag, order, limit, cursor));
        return json.write(new Views.MemoryPage(
                page.memories().stream().map(MemoryView::of).toList(), page.nextCursor()));
    }
}
