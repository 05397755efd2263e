package dev.cairn.mcp;

import dev.cairn.http.MemoryView;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.session.SessionService;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.RequestUri;
import io.quarkiverse.mcp.server.ResourceTemplate;
import io.quarkiverse.mcp.server.TextResourceContents;

/**
 * A memory and a session as MCP resources, for clients that let the user attach one to a conversation. Reading one
 * is the same read as the tools' (and the API's): the team in the URI is checked against the token.
 */
@ToolErrors
public class CairnResources {

    private final MemoryService memories;
    private final SessionService sessions;
    private final McpCallers callers;
    private final McpJson json;

    public CairnResources(MemoryService memories, SessionService sessions, McpCallers callers, McpJson json) {
        this.memories = memories;
        this.sessions = sessions;
        this.callers = callers;
        this.json = json;
    }

    @ResourceTemplate(
            name = "memory",
            uriTemplate = "cairn://teams/{team}/memories/{id}",
            mimeType = "application/json",
            description = "One long-term memory (API.md § Memories)")
    public TextResourceContents memory(String team, String id, RequestUri uri, McpConnection connection) {
        Caller caller = callers.caller(connection);
        return new TextResourceContents(
                uri.value(),
                json.write(MemoryView.of(memories.get(caller, Id.of("team", team), Id.of("id", id)))),
                "application/json");
    }

    @ResourceTemplate(
            name = "session",
            uriTemplate = "cairn://teams/{team}/sessions/{session}",
            mimeType = "application/json",
            description = "A session: rolling summary, recent messages, temporary facts")
    public TextResourceContents session(String team, String session, RequestUri uri, McpConnection connection) {
        Caller caller = callers.caller(connection);
        SessionService.View v = sessions.get(caller, Id.of("team", team), Id.of("session", session));
        return new TextResourceContents(
                uri.value(),
                json.write(new Views.SessionView(
                        v.rollingSummary(),
                        v.recentMessages().stream().map(Views.MessageView::of).toList(),
                        v.tempFacts(),
                        v.summaryVersion(),
                        v.messageCount(),
                        v.ended())),
                "application/json");
    }
}
