package dev.cairn.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class McpEnvelopeGuardTest {

    @Test
    void aClientThatTakesJson_shouldBeServed_asIfItListedBothTypes() {
        for (String accept : new String[] {null, "", "*/*", "application/*", "application/json", "Application/JSON"}) {
            assertThat(McpEnvelopeGuard.accepted(accept)).as(accept).isEqualTo(McpEnvelopeGuard.BOTH);
        }
        assertThat(McpEnvelopeGuard.accepted("application/json, text/event-stream"))
                .isEqualTo("application/json, text/event-stream");
    }

    @Test
    void aClientThatTakesNoJson_shouldBeRefused() {
        for (String accept : new String[] {"text/event-stream", "text/html", "text/*"}) {
            assertThat(McpEnvelopeGuard.accepted(accept)).as(accept).isNull();
        }
    }
}
