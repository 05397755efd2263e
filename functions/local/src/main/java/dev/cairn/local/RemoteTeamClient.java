package dev.cairn.local;

import dev.cairn.client.CairnClient;
import dev.cairn.client.Sync;
import dev.cairn.client.SyncConflictException;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.SyncConflict;
import dev.cairn.model.sync.SyncOp;
import dev.cairn.model.sync.SyncService;
import dev.cairn.model.sync.TeamReplica;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@link TeamReplica.Remote} over HTTP: the client library's sync calls, translated to and from the domain's types. */
final class RemoteTeamClient implements TeamReplica.Remote {

    private final CairnClient client;

    RemoteTeamClient(CairnClient client) {
        this.client = client;
    }

    @Override
    public SyncService.Applied push(Id team, SyncService.SyncDraft delta) {
        try {
            Sync.Result r = client.sync(
                    team.value(),
                    new Sync.Request(
                            delta.clientId(),
                            delta.baseVersion(),
                            delta.idempotencyKey(),
                            delta.delta().stream()
                                    .map(o -> new Sync.Op(
                                            o.op(),
                                            o.factId(),
                                            o.version(),
                                            o.content(),
                                            o.type(),
                                            o.tags(),
                                            o.confidence()))
                                    .toList()));
            return new SyncService.Applied(
                    SyncService.Outcome.valueOf(r.status().toUpperCase(Locale.ROOT)),
                    r.version(),
                    r.rebasedFrom(),
                    r.queued() == null
                            ? List.of()
                            : r.queued().stream().map(Id::new).toList());
        } catch (SyncConflictException e) {
            throw new SyncConflict(
                    e.currentVersion(),
                    e.conflicts().stream()
                            .map(c -> new SyncConflict.Conflict(null, op(c.proposed()), c.baseVersion()))
                            .toList());
        }
    }

    @Override
    public SyncService.Changes pull(Id team, long since, int limit) {
        Sync.Changes c = client.changes(team.value(), since, limit);
        return new SyncService.Changes(
                c.version(),
                c.changes().stream()
                        .map(ch -> new Commit(
                                team,
                                ch.version(),
                                new Id(ch.clientId()),
                                "",
                                null,
                                ch.committedAt() == null ? null : Instant.parse(ch.committedAt()),
                                ch.ops().stream().map(RemoteTeamClient::op).toList()))
                        .toList(),
                c.nextSince());
    }

    @Override
    public Set<Id> openConflicts(Id team, Id clientId) {
        Set<Id> open = new HashSet<>();
        // filtered by the team server; checked here too, for a team server older than the filter
        for (Sync.QueuedConflict c : client.conflicts(team.value(), "open", clientId.value())) {
            if (c.open() && clientId.value().equals(c.clientId())) {
                open.add(new Id(c.factId()));
            }
        }
        return open;
    }

    private static SyncOp op(Sync.Op o) {
        return new SyncOp(
                "delete".equals(o.op()) ? SyncOp.Kind.DELETE : SyncOp.Kind.UPSERT,
                new Id(o.factId()),
                o.version() == null ? 0 : o.version(),
                o.content(),
                o.type() == null ? null : MemoryType.fromWire(o.type()),
                o.tags() == null ? null : o.tags().stream().map(Id::new).toList(),
                o.confidence());
    }
}
