package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RawPathGuardTest {

    @Test
    void dotSegmentsEncodedSeparatorsEmptySegmentsAndMatrixParameters_shouldBeRefused_literalOrEncoded() {
        for (String uri : new String[] {
            "/v1/teams/acme/memories/..",
            "/v1/teams/./memories",
            "/v1/teams/%2e%2e/x",
            "/v1/teams/acme/memories/%2E%2e?x=1",
            "/v1/teams/a%2Fb/memories",
            "/v1/teams/a%5cb/memories",
            "//v1/teams/acme/memories",
            "/v1//teams/acme/memories",
            "/v1/teams/acme;x=1/memories",
            "/v1/teams/acme/memories;x=1",
            "/v1/teams/acme/memories%3Bx=1",
            "/v1;x=1/teams/acme/memories"
        }) {
            assertThat(RawPathGuard.problemOf(uri))
                    .as(uri)
                    .contains("\"status\":400")
                    .contains("\"field\":\"path\"");
        }
    }

    @Test
    void ordinaryPaths_andPathsOutsideTheApi_shouldPass() {
        for (String uri : new String[] {
            "/v1/teams/acme/memories/01abc",
            "/v1/teams/acme/memories:batch",
            "/v1/teams/acme/memories?cursor=a..b",
            "/q/health",
            "/v1/scan",
            "/other/../x"
        }) {
            assertThat(RawPathGuard.problemOf(uri)).as(uri).isNull();
        }
    }
}
