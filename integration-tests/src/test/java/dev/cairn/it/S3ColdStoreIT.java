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
}
