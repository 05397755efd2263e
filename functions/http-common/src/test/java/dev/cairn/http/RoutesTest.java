package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoutesTest {

    @Path("/v1/teams/{team}")
    static class Memories {
        @GET
        @Path("memories")
        public String list() {
            return "";
        }

        @POST
        @Path("memories")
        public String write() {
            return "";
        }

        @DELETE
        @Path("memories/{id}")
        public String delete(@PathParam("id") String id) {
            return id;
        }

        @POST
        @Path("memories/{id}:restore")
        public String restore(@PathParam("id") String id) {
            return id;
        }
    }

    @Path("/v1/teams/{team}/sessions/{session}/")
    static class Sessions {
        @POST
        @Path("/end")
        public String end() {
            return "";
        }

        public String notARoute() {
            return "";
        }
    }

    private final List<Routes.Route> routes = Routes.of(List.of(Memories.class, Sessions.class, String.class));

    @Test
    void aRoutesMethods_shouldBeTheUnionOverItsClasses_withHeadBesideGet() {
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories")).containsExactly("GET", "HEAD", "POST");
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/")).containsExactly("GET", "HEAD", "POST");
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/m1")).containsExactly("DELETE");
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/m1:restore")).containsExactly("POST");
        assertThat(Routes.allowed(routes, "/v1/teams/acme/sessions/s1/end")).containsExactly("POST");
    }

    @Test
    void aPathNoRouteDeclares_shouldHaveNoMethods() {
        assertThat(Routes.allowed(routes, "/v1/teams/acme/sessions/s1")).isEmpty();
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/m1/extra")).isEmpty();
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memoriesXrestore")).isEmpty();
        assertThat(Routes.allowed(routes, "/v1/teams/a/b/memories")).isEmpty(); // a parameter is one segment
        // a parameter holds no colon: a mistyped custom method is no route, not memories/{id} with id "m1:restor"
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/m1:restor")).isEmpty();
        assertThat(Routes.allowed(routes, "/v1/teams/acme/memories/m1:archive")).isEmpty();
    }

    @Test
    void aMethodOnlyALessSpecificRouteTakes_shouldBeRefused405_namingThePathsOwnRoute() {
        // DELETE memories/{id} also matches "m1:restore"; the restore route, which takes only POST, names the path
        var refused = MostSpecificRoute.refusal("DELETE", Routes.allowed(routes, "/v1/teams/acme/memories/m1:restore"));
        assertThat(refused.getStatus()).isEqualTo(405);
        assertThat(refused.getHeaderString("Allow")).isEqualTo("POST");
    }

    @Test
    void aMethodThePathsOwnRouteTakes_orAPathNoRouteDeclares_shouldGoOn() {
        assertThat(MostSpecificRoute.refusal("POST", Routes.allowed(routes, "/v1/teams/acme/memories/m1:restore")))
                .isNull();
        assertThat(MostSpecificRoute.refusal("DELETE", Routes.allowed(routes, "/v1/teams/acme/memories/m1")))
                .isNull();
        assertThat(MostSpecificRoute.refusal("DELETE", Routes.allowed(routes, "/v1/teams/acme/sessions/s1")))
                .isNull();
        assertThat(MostSpecificRoute.refusal("HEAD", Routes.allowed(routes, "/v1/teams/acme/sessions/s1/end")))
                .isNull();
    }
}
