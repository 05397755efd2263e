package dev.cairn.aws.s3;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.ColdStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ColdStore} on S3: one gzip-compressed JSON object per memory under
 * {@code teams/<team>/memories/<id>.json.gz}. The key is built from validated ids only, so it can hold no
 * {@code ..}, separator or encoded trick; the bucket's lifecycle rules (CDK) move the objects to colder storage.
 */
public final class S3ColdStore implements ColdStore {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // newer writers may add fields

    private final S3Client s3;
    private final String bucket;

    public S3ColdStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    static String prefix(Id team) {
        return "teams/" + team.value() + "/memories/";
    }

    static String key(Id team, Id id) {
        return prefix(team) + id.value() + ".json.gz";
    }

    @Override
    public void put(Memory memory) {
        byte[] body = gzip(Copy.of(memory));
        S3Calls.guarded(() -> s3.putObject(
                b -> b.bucket(bucket)
                        .key(key(memory.team(), memory.id()))
                        .contentType("application/json")
                        .contentEncoding("gzip"),
                RequestBody.fromBytes(body)));
    }

    @Override
    public Optional<Memory> get(Id team, Id id) {
        return S3Calls.guarded(() -> {
            try {
                byte[] body = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key(team, id)))
                        .asByteArray();
                return Optional.of(gunzip(body).toMemory());
            } catch (NoSuchKeyException e) {
                return Optional.empty();
            }
        });
    }

    @Override
    public List<Id> list(Id team, int limit) {
        List<Id> out = new ArrayList<>();
        String token = null;
        do {
            String next = token;
            int want = Math.min(1000, limit - out.size());
            ListObjectsV2Response r = S3Calls.guarded(() -> s3.listObjectsV2(
                    b -> b.bucket(bucket).prefix(prefix(team)).maxKeys(want).continuationToken(next)));
            for (S3Object o : r.contents()) {
                String name = o.key().substring(prefix(team).length());
                if (name.endsWith(".json.gz") && Id.isValid(name.substring(0, name.length() - 8))) {
                    out.add(new Id(name.substring(0, name.length() - 8)));
                }
            }
            token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
        } while (token != null && out.size() < limit);
        return out;
    }

    @Override
    public Optional<java.time.Instant> storedAt(Id team, Id id) {
        return S3Calls.guarded(() -> {
            try {
                return Optional.of(
                        s3.headObject(b -> b.bucket(bucket).key(key(team, id))).lastModified());
            } catch (NoSuchKeyException e) {
                return Optional.empty();
            } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                if (e.statusCode() == 404) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    /**
     * Removes the copy and every older version of it. The bucket is versioned (CDK), so a plain delete would only
     * hide the text behind a delete marker and leave each version it had: each version and marker of the key is
     * deleted by its version id, which removes it for good ({@code s3:ListBucketVersions} to find them,
     * {@code s3:DeleteObjectVersion} to drop them). The listing is by prefix, so only the exact key's entries count.
     */
    @Override
    public void delete(Id team, Id id) {
        String key = key(team, id);
        S3Calls.guarded(() -> {
            String keyMarker = null;
            String versionMarker = null;
            do {
                String k = keyMarker;
                String v = versionMarker;
                ListObjectVersionsResponse r = s3.listObjectVersions(
                        b -> b.bucket(bucket).prefix(key).keyMarker(k).versionIdMarker(v));
                List<String> versions = new ArrayList<>();
                r.versions().stream().filter(o -> key.equals(o.key())).forEach(o -> versions.add(o.versionId()));
                r.deleteMarkers().stream().filter(o -> key.equals(o.key())).forEach(o -> versions.add(o.versionId()));
                for (String version : versions) {
                    s3.deleteObject(b -> b.bucket(bucket).key(key).versionId(version));
                }
                boolean more = Boolean.TRUE.equals(r.isTruncated());
                keyMarker = more ? r.nextKeyMarker() : null;
                versionMarker = more ? r.nextVersionIdMarker() : null;
            } while (keyMarker != null);
            return null;
        });
    }

    private static byte[] gzip(Copy copy) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            JSON.writeValue(gz, copy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Copy gunzip(byte[] body) {
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return JSON.readValue(gz, Copy.class);
        } catch (IOException e) {
            throw new UncheckedIOException("a cold copy is not readable gzip JSON", e);
        }
    }

    /** The stored shape: plain strings and numbers, so the format does not depend on domain classes. */
    record Copy(
            String id,
            String team,
            String user,
            String scope,
            String type,
            String content,
            List<String> tags,
            double importance,
            double confidence,
            Instant occurredAt,
            Instant createdAt,
            Instant lastAccessedAt,
            long accessCount,
            String sourceSessionId,
            List<String> evidence,
            long version,
            String state,
            String supersededBy,
            Instant validTo,
            String context) {

        static Copy of(Memory m) {
            return new Copy(
                    m.id().value(),
                    m.team().value(),
                    m.user() == null ? null : m.user().value(),
                    m.scope().wire(),
                    m.type().wire(),
                    m.content(),
                    m.tags().stream().map(Id::value).toList(),
                    m.importance(),
                    m.confidence(),
                    m.occurredAt(),
                    m.createdAt(),
                    m.lastAccessedAt(),
                    m.accessCount(),
                    m.sourceSessionId() == null ? null : m.sourceSessionId().value(),
                    m.evidence().stream().map(Id::value).toList(),
                    m.version(),
                    m.state().wire(),
                    m.supersededBy() == null ? null : m.supersededBy().value(),
                    m.validTo(),
                    m.context());
        }

        Memory toMemory() {
            return new Memory(
                    new Id(id),
                    new Id(team),
                    user == null ? null : new Id(user),
                    Scope.fromWire(scope),
                    MemoryType.fromWire(type),
                    content,
                    tags.stream().map(Id::new).toList(),
                    importance,
                    confidence,
                    occurredAt,
                    createdAt,
                    lastAccessedAt,
                    accessCount,
                    sourceSessionId == null ? null : new Id(sourceSessionId),
                    evidence.stream().map(Id::new).toList(),
                    version,
                    MemoryState.fromWire(state),
                    supersededBy == null ? null : new Id(supersededBy),
                    validTo,
                    context); // null in copies written before the field existed
        }
    }
}
