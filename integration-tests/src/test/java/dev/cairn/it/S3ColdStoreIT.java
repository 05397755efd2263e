package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.s3.S3ColdStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.testkit.Memories;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;

/** The cold tier against S3's API, served by S3Mock (a real server in its own process). */
@ExtendWith(S3Mock.class)
class S3ColdStoreIT {

    private static final String BUCKET = "cairn-cold";
    private static S3Client s3;
    private static S3ColdStore cold;

    @BeforeAll
    static void bucket() {
        s3 = S3Mock.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        cold = new S3ColdStore(s3, BUCKET);
    }

    private static Memory memory(String team, String id, String content) {
        return Memories.memory()
                .id(id)
                .team(team)
                .user("alice")
                .type(MemoryType.PREFERENCE)
                .content(content)
                .tags("ui")
                .importance(0.3)
                .confidence(0.8)
                .occurredAt(Instant.parse("2026-01-02T03:04:05Z"))
                .createdAt(Instant.parse("2026-01-02T03:04:06Z"))
                .accessed(7, Instant.parse("2026-02-01T00:00:00Z"))
                .sourceSession("s1")
                .evidence("msg-9")
                .version(4)
                .state(MemoryState.ARCHIVED)
                .build();
    }

    @Test
    void put_thenGet_shouldRoundTripEveryField_asGzipJsonUnderAnIdOnlyKey() throws IOException {
        Memory m = memory("acme", "m1", "Alice prefers the dark theme — 深色主题");
        Instant before = Instant.now().minusSeconds(5);
        cold.put(m);
        assertThat(cold.get(new Id("acme"), new Id("m1"))).contains(m);
        // when it went cold: what the decay job measures expiry from
        assertThat(cold.storedAt(new Id("acme"), new Id("m1")))
                .hasValueSatisfying(t -> assertThat(t).isAfter(before));
        assertThat(cold.storedAt(new Id("acme"), new Id("never"))).isEmpty();

        byte[] raw = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("teams/acme/memories/m1.json.gz"))
                .asByteArray();
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(raw))) {
            assertThat(new String(gz.readAllBytes(), StandardCharsets.UTF_8)).contains("\"content\":\"Alice prefers");
        }
    }

    @Test
    void teams_shouldNotSeeEachOthersCopies_andDeleteShouldBeIdempotent() {
        cold.put(memory("team-a", "x1", "a's"));
        cold.put(memory("team-a", "x2", "a's too"));
        cold.put(memory("team-b", "x1", "b's"));
        assertThat(cold.list(new Id("team-a"), 10)).extracting(Id::value).containsExactly("x1", "x2");
        assertThat(cold.get(new Id("team-b"), new Id("x1")).orElseThrow().content())
                .isEqualTo("b's");

        cold.delete(new Id("team-a"), new Id("x1"));
        cold.delete(new Id("team-a"), new Id("x1"));
        assertThat(cold.get(new Id("team-a"), new Id("x1"))).isEmpty();
        assertThat(cold.get(new Id("team-b"), new Id("x1"))).isPresent();
        assertThat(cold.list(new Id("team-a"), 10)).extracting(Id::value).containsExactly("x2");
    }

    @Test
    void list_shouldPageThroughManyCopies() {
        for (int i = 0; i < 25; i++) {
            cold.put(memory("many", String.format("k%03d", i), "copy " + i));
        }
        assertThat(cold.list(new Id("many"), 100)).hasSize(25);
        assertThat(cold.list(new Id("many"), 10)).hasSize(10);
    }

    @Test
    void delete_inAVersionedBucket_shouldRemoveEveryVersionOfTheCopy_andNoOtherKey() {
        String versioned = "cairn-cold-versioned";
        s3.createBucket(b -> b.bucket(versioned));
        s3.putBucketVersioning(b -> b.bucket(versioned).versioningConfiguration(v -> v.status("Enabled")));
        S3ColdStore store = new S3ColdStore(s3, versioned);
        // three versions of one copy (archived, restored, archived again) and a neighbour whose id extends it
        store.put(memory("acme", "v1", "first words"));
        store.put(memory("acme", "v1", "second words"));
        store.put(memory("acme", "v1", "third words"));
        store.put(memory("acme", "v10", "the neighbour"));
        assertThat(versionsOf(versioned, "teams/acme/memories/v1.json.gz")).hasSize(3);

        store.delete(new Id("acme"), new Id("v1"));

        // no version and no delete marker left: the old texts cannot be read back from S3 by any version id
        assertThat(versionsOf(versioned, "teams/acme/memories/v1.json.gz")).isEmpty();
        assertThat(store.get(new Id("acme"), new Id("v1"))).isEmpty();
        assertThat(store.get(new Id("acme"), new Id("v10")).orElseThrow().content())
                .isEqualTo("the neighbour");
        store.delete(new Id("acme"), new Id("v1")); // idempotent
        assertThat(versionsOf(versioned, "teams/acme/memories/v1.json.gz")).isEmpty();
    }

    /** Every version and delete marker S3 holds for exactly {@code key}. */
    private static java.util.List<String> versionsOf(String bucket, String key) {
        var r = s3.listObjectVersions(b -> b.bucket(bucket).prefix(key));
        java.util.List<String> out = new java.util.ArrayList<>();
        r.versions().stream().filter(v -> v.key().equals(key)).forEach(v -> out.add("version " + v.versionId()));
        r.deleteMarkers().stream().filter(v -> v.key().equals(key)).forEach(v -> out.add("marker " + v.versionId()));
        return out;
    }
}
