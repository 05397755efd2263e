package dev.cairn.embedded;

import dev.cairn.model.decay.MemoryCodec;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.ColdStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * {@link ColdStore} on files: {@code <root>/<team>/<id>.gz}, gzip of {@link MemoryCodec}'s text. Names come only from
 * validated ids, and every path is resolved and checked to stay under the root. Writes go to a temporary file that is
 * then moved into place, so a crash never leaves half a copy.
 */
public final class FileColdStore implements ColdStore {

    private final Path root;

    public FileColdStore(Path root) {
        try {
            this.root = Files.createDirectories(root).toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the cold store at " + root, e);
        }
    }

    private Path file(Id team, Id id) {
        Path p = root.resolve(team.value()).resolve(id.value() + ".gz").normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("a cold copy must stay inside the cold store");
        }
        return p;
    }

    @Override
    public void put(Memory memory) {
        Path target = file(memory.team(), memory.id());
        try {
            Files.createDirectories(target.getParent());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
                gz.write(MemoryCodec.encode(memory).getBytes(StandardCharsets.UTF_8));
            }
            Path tmp = Files.createTempFile(target.getParent(), ".put-", ".tmp");
            Files.write(tmp, bytes.toByteArray());
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cold copy of " + memory.id(), e);
        }
    }

    @Override
    public Optional<Memory> get(Id team, Id id) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file(team, id)))) {
            return Optional.of(MemoryCodec.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cold copy of " + id, e);
        }
    }

    @Override
    public List<Id> list(Id team, int limit) {
        Path dir = root.resolve(team.value());
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Id> ids = new ArrayList<>();
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".gz"))
                    .sorted()
                    .limit(limit)
                    .forEach(n -> ids.add(new Id(n.substring(0, n.length() - 3))));
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Optional<java.time.Instant> storedAt(Id team, Id id) {
        try {
            return Optional.of(Files.getLastModifiedTime(file(team, id)).toInstant());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void delete(Id team, Id id) {
        try {
            Files.deleteIfExists(file(team, id));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the cold copy of " + id, e);
        }
    }
}
