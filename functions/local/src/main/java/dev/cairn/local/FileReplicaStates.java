package dev.cairn.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.sync.TeamReplica;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replica's state, one JSON file per team under {@code <data-dir>/sync-remote/}: written to a temporary file,
 * forced to disk and renamed over the old one, so a crash leaves either the old state or the new one, never half.
 */
final class FileReplicaStates implements TeamReplica.StateStore {

    record ValueFile(String content, String type, List<String> tags, double confidence) {}

    /** {@code proposal} null: a parked delete. */
    record ParkedFile(ValueFile proposal) {}

    /** {@code bases} and {@code parked} are absent from files written before 2026-12-07: read as empty. */
    record StateFile(
            String team,
            long pulled,
            Map<String, ValueFile> known,
            Map<String, Long> bases,
            Map<String, ParkedFile> parked) {}

    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private final Path dir;

    FileReplicaStates(Path dir) {
        this.dir = dir;
    }

    @Override
    public TeamReplica.State load(Id team) {
        Path file = dir.resolve(team.value() + ".json");
        if (!Files.exists(file)) {
            return TeamReplica.State.empty(team);
        }
        try {
            StateFile f = JSON.readValue(file.toFile(), StateFile.class);
            Map<Id, TeamReplica.Value> known = new TreeMap<>();
            f.known().forEach((id, v) -> known.put(new Id(id), value(v)));
            Map<Id, Long> bases = new TreeMap<>();
            if (f.bases() != null) {
                f.bases().forEach((id, b) -> bases.put(new Id(id), b));
            }
            Map<Id, TeamReplica.Parked> parked = new TreeMap<>();
            if (f.parked() != null) {
                f.parked()
                        .forEach((id, p) -> parked.put(
                                new Id(id), new TeamReplica.Parked(p.proposal() == null ? null : value(p.proposal()))));
            }
            return new TeamReplica.State(team, f.pulled(), known, bases, parked);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sync state " + file + ": " + e.getMessage(), e);
        }
    }

    private static TeamReplica.Value value(ValueFile v) {
        return new TeamReplica.Value(
                v.content(),
                MemoryType.fromWire(v.type()),
                v.tags().stream().map(Id::new).toList(),
                v.confidence());
    }

    private static ValueFile file(TeamReplica.Value v) {
        return new ValueFile(
                v.content(), v.type().wire(), v.tags().stream().map(Id::value).toList(), v.confidence());
    }

    @Override
    public void save(TeamReplica.State state) {
        Map<String, ValueFile> known = new TreeMap<>();
        state.known().forEach((id, v) -> known.put(id.value(), file(v)));
        Map<String, Long> bases = new TreeMap<>();
        state.bases().forEach((id, b) -> bases.put(id.value(), b));
        Map<String, ParkedFile> parked = new TreeMap<>();
        state.parked()
                .forEach((id, p) ->
                        parked.put(id.value(), new ParkedFile(p.proposal() == null ? null : file(p.proposal()))));
        Path file = dir.resolve(state.team().value() + ".json");
        Path tmp = dir.resolve(state.team().value() + ".json.tmp");
        try {
            Files.createDirectories(dir);
            Files.write(
                    tmp,
                    JSON.writeValueAsBytes(new StateFile(state.team().value(), state.pulled(), known, bases, parked)));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sync state " + file + ": " + e.getMessage(), e);
        }
    }
}
