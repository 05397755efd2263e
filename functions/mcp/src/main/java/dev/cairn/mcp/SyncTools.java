package dev.cairn.mcp;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.SyncService;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolGuardrails;
import java.util.List;

/** Team sync, read side, as MCP tools (API.md § Team sync): where the team's memory stands and what conflicts. */
@ToolErrors
public class SyncTools {

    private final SyncService sync;
    private final McpCallers callers;
    private final McpJson json;

    public SyncTools(SyncService sync, McpCallers callers, McpJson json) {
        this.sync = sync;
        this.callers = callers;
        this.json = json;
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "sync_status",
            description = "Where the team's shared memory stands: its current version (the team head), the last "
                    + "change, and how many sync conflicts wait for someone to resolve them.")
    public String status(
            @ToolArg(description = MemoryTools.TEAM, required = false) String team, McpConnection connection) {
        Caller caller = callers.caller(connection);
        Id teamId = McpCallers.team(caller, team);
        SyncService.Changes head = sync.changes(caller, teamId, null, 1);
        Commit last = head.version() == 0
                ? null
                : last(sync.changes(caller, teamId, head.version() - 1, 1).changes());
        List<ConflictRecord> conflicts = sync.conflicts(caller, teamId);
        long open = conflicts.stream().filter(c -> "open".equals(c.status())).count();
        return json.write(new Views.SyncStatus(
                teamId.value(),
                head.version(),
                (int) open,
                last == null ? null : last.version(),
                last == null ? null : last.committedAt()));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "sync_conflicts",
            description = "The team's sync conflicts: for each, the fact, the version it was based on, the current "
                    + "content and the proposed one. Resolve them with the HTTP API or a team member.")
    public String conflicts(
            @ToolArg(description = MemoryTools.TEAM, required = false) String team, McpConnection connection) {
        Caller caller = callers.caller(connection);
        return json.write(new Views.Conflicts(sync.conflicts(caller, McpCallers.team(caller, team)).stream()
                .map(Views.ConflictView::of)
                .toList()));
    }

    private static Commit last(List<Commit> commits) {
        return commits.isEmpty() ? null : commits.get(commits.size() - 1);
    }
}
