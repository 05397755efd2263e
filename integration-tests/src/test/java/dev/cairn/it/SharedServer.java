package dev.cairn.it;

import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one local server for the whole test run (not per class) and stops it when the run ends. Test classes use
 * {@code @ExtendWith(SharedServer.class)} and {@link #server()}; every test works in its own team so tests stay
 * independent while sharing the process.
 */
public final class SharedServer implements BeforeAllCallback {

    private static volatile LocalServer server;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (SharedServer.class) {
            if (server == null) {
                Path data = Files.createTempDirectory(LocalServer.workDir(), "shared-");
                LocalServer s = new LocalServer(data).start();
                s.awaitHealth("/q/health/ready");
                context.getRoot()
                        .getStore(ExtensionContext.Namespace.GLOBAL)
                        .put("cairn-shared-server", (ExtensionContext.Store.CloseableResource) s::close);
                server = s;
            }
        }
    }

    public static LocalServer server() {
        return server;
    }

    /** A request as user {@code user} of {@code teams}, JSON in and out. */
    public static RequestSpecification as(String user, String... teams) {
        return RestAssured.given(new RequestSpecBuilder()
                .setBaseUri(server.baseUrl())
                .addHeader("Authorization", "Bearer " + server.token(user, teams))
                .setContentType(ContentType.JSON)
                .build());
    }

    /** The contents of the memories {@code user} sees in {@code team} (the first page of {@code GET …/memories}). */
    public static java.util.List<String> contentsSeenBy(String user, String team) {
        return as(user, team)
                .get("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content", String.class);
    }

    public static RequestSpecification anonymous() {
        return RestAssured.given(new RequestSpecBuilder()
                .setBaseUri(server.baseUrl())
                .setContentType(ContentType.JSON)
                .build());
    }
}
