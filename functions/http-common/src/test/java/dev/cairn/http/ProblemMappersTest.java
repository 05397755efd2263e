package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.error.TeamAccessDenied;
import dev.cairn.model.error.VersionConflict;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProblemMappersTest {

    private final ProblemMappers mappers = new ProblemMappers();

    @Test
    void domainErrors_shouldMapToTheirStatus_asProblemJson() {
        assertThat(mappers.domain(new InvalidInput("top_k", "must be positive")).getStatus())
                .isEqualTo(400);
        assertThat(mappers.domain(new TeamAccessDenied("beta")).getStatus()).isEqualTo(403);
        assertThat(mappers.domain(new NotFound("memory m1")).getStatus()).isEqualTo(404);
        assertThat(mappers.domain(new VersionConflict("memory m1", 1, 2)).getStatus())
                .isEqualTo(412);
        Response tooLarge = mappers.domain(new ContentTooLarge("content", 40_000, 32_768));
        assertThat(tooLarge.getStatus()).isEqualTo(413);
        assertThat(tooLarge.getMediaType().toString()).isEqualTo("application/problem+json");
        assertThat(((Problem) tooLarge.getEntity()).detail()).contains("32768");
    }

    @Test
    void aBodyOfTheWrongKind_shouldSayWhatKindTheBodyMustBe_inPlainWords() throws Exception {
        record Body(String content) {}
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.exc.MismatchedInputException e =
                org.assertj.core.api.Assertions.catchThrowableOfType(
                        () -> json.readValue("[1, 2]", Body.class),
                        com.fasterxml.jackson.databind.exc.MismatchedInputException.class);

        Response r = mappers.wrongType(e);

        assertThat(r.getStatus()).isEqualTo(400);
        assertThat(((Problem) r.getEntity()).detail()).isEqualTo("the request body must be JSON: an object");
    }

    @Test
    void anOutage_shouldBe503_withRetryAfter() {
        Response r = mappers.domain(new StoreUnavailable(
                "the record store", Duration.ofSeconds(5), new RuntimeException("connection refused")));
        assertThat(r.getStatus()).isEqualTo(503);
        assertThat(r.getHeaderString("Retry-After")).isEqualTo("5");
        assertThat(((Problem) r.getEntity()).detail()).contains("retry in 5 s").doesNotContain("refused");
    }

    @Test
    void anUnexpectedError_shouldBeA500ProblemJson_namingAnErrorIdButNoStack() {
        Response r = mappers.unexpected(new IllegalStateException("this IndexWriter is closed at secret.Place"));
        assertThat(r.getStatus()).isEqualTo(500);
        assertThat(r.getMediaType().toString()).isEqualTo("application/problem+json");
        Problem p = (Problem) r.getEntity();
        assertThat(p.detail()).containsPattern("error id [0-9a-f-]{36}").doesNotContain("IndexWriter");
    }

    @Test
    void aFullDisk_shouldBeA503WithRetryAfter_whetherTheOsOrSqliteSaysSo() {
        for (RuntimeException full : new RuntimeException[] {
            new java.io.UncheckedIOException(new java.io.IOException("No space left on device")),
            new IllegalStateException(
                    "writing failed", new java.sql.SQLException("[SQLITE_FULL] database or disk is full", null, 13))
        }) {
            Response r = mappers.unexpected(full);
            assertThat(r.getStatus()).isEqualTo(503);
            assertThat(r.getHeaderString("Retry-After")).isEqualTo("30");
            assertThat(r.getMediaType().toString()).isEqualTo("application/problem+json");
        }
    }
}
