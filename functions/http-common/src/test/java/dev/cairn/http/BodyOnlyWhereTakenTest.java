package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import org.junit.jupiter.api.Test;

class BodyOnlyWhereTakenTest {

    @SuppressWarnings("unused")
    static class Routes {
        public void end(@PathParam("team") String team, @HeaderParam("Authorization") String auth) {}

        public void create(@PathParam("team") String team, String body) {}

        public void list(@QueryParam("limit") String limit) {}
    }

    @Test
    void aRouteTakesABody_exactlyWhenOneParameterIsUnannotated() throws Exception {
        assertThat(BodyOnlyWhereTaken.takesBody(Routes.class.getMethod("end", String.class, String.class)))
                .isFalse();
        assertThat(BodyOnlyWhereTaken.takesBody(Routes.class.getMethod("create", String.class, String.class)))
                .isTrue();
        assertThat(BodyOnlyWhereTaken.takesBody(Routes.class.getMethod("list", String.class)))
                .isFalse();
    }

    @Test
    void blankAndEmptyObjectBodies_areAccepted_sinceClientsSendThemWithEveryPost() {
        assertThat(BodyOnlyWhereTaken.refusal("")).isNull();
        assertThat(BodyOnlyWhereTaken.refusal(" \n")).isNull();
        assertThat(BodyOnlyWhereTaken.refusal("{ }")).isNull();
    }

    @Test
    void aBodyWithFields_isRefused_namingTheFieldsThatWouldBeIgnored() {
        assertThat(BodyOnlyWhereTaken.refusal("{\"dry_run\": true, \"reason\": \"x\"}"))
                .contains("takes no request body")
                .contains("dry_run, reason");
        assertThat(BodyOnlyWhereTaken.refusal("not json")).contains("takes no request body");
        assertThat(BodyOnlyWhereTaken.refusal("[1]")).contains("takes no request body");
    }
}
