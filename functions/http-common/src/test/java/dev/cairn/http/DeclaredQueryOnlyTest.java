package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import org.junit.jupiter.api.Test;

class DeclaredQueryOnlyTest {

    @SuppressWarnings("unused")
    static class Routes {
        public void list(
                @PathParam("team") String team, @QueryParam("order") String order, @QueryParam("limit") String l) {}

        public void body(String body) {}
    }

    @Test
    void declaredNames_areTheMethodsQueryParams_inOrder_andNotItsPathParams() throws Exception {
        var list = Routes.class.getMethod("list", String.class, String.class, String.class);
        assertThat(DeclaredQueryOnly.declared(list)).containsExactly("limit", "order");
        assertThat(DeclaredQueryOnly.unknown(DeclaredQueryOnly.declared(list), false))
                .endsWith("takes: limit, order");
    }

    @Test
    void aRouteWithoutQueryParams_saysItTakesNone() throws Exception {
        var body = Routes.class.getMethod("body", String.class);
        assertThat(DeclaredQueryOnly.declared(body)).isEmpty();
        assertThat(DeclaredQueryOnly.unknown(DeclaredQueryOnly.declared(body), true))
                .contains("takes none")
                .contains("JSON body");
        assertThat(DeclaredQueryOnly.unknown(DeclaredQueryOnly.declared(body), false))
                .doesNotContain("body");
    }
}
