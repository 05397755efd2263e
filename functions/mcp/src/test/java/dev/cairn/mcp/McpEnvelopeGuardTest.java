package dev.cairn.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class McpEnvelopeGuardTest {

    @Test
    void aClientThatTakesJson_shouldBeServed_asIfItListedBothTypes() {
        for (String accept :
                new String[] {null, "", "*/*", "application/*", "application/json", "Application/JSON; charset=utf-8"
                }) {
            assertThat(McpEnvelopeGuard.accepted(accept, false)).as(accept).isEqualTo(McpEnvelopeGuard.BOTH);
        }
        assertThat(McpEnvelopeGuard.accepted("application/json, text/event-stream", true))
                .isEqualTo(McpEnvelopeGuard.BOTH);
        assertThat(McpEnvelopeGuard.accepted("*/*", true)).isEqualTo(McpEnvelopeGuard.BOTH);
    }

    @Test
    void aClientThatTakesNoJson_orABatchFromOneThatTakesNoStream_shouldBeRefused() {
        for (String accept :
                new String[] {"text/event-stream", "text/html", "text/*", "application/jsonl", "application/json;q=0"
                }) {
            assertThat(McpEnvelopeGuard.accepted(accept, false)).as(accept).isNull();
        }
        // a batch of requests may be answered as an event stream
        assertThat(McpEnvelopeGuard.accepted("application/json", true)).isNull();
    }
}
