package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the API's JSON reader refuses: duplicate fields, bytes that are not UTF-8, lone surrogates. */
class StrictJsonTest {

    private final ObjectMapper json = StrictJson.strict(new ObjectMapper());

    record Body(String scope, String content) {}

    private Object read(byte[] body, Class<?> type) throws Exception {
        // an InputStream, as the HTTP layer hands it over
        return json.readValue(new ByteArrayInputStream(body), type);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDuplicateField_shouldBeRefused_atTopLevelAndNested() {
        assertThatThrownBy(() -> read(utf8("{\"scope\":\"team\",\"scope\":\"user\"}"), Body.class))
                .isInstanceOf(JsonParseException.class)
                .hasMessageContaining("Duplicate field 'scope'");
        assertThatThrownBy(() -> read(utf8("{\"params\":{\"path\":\"a\",\"path\":\"b\"}}"), JsonNode.class))
                .isInstanceOf(JsonParseException.class)
                .hasMessageContaining("Duplicate field 'path'");
    }

    @Test
    void anOverlongSequence_orInvalidUtf8_shouldBeRefused() {
        byte[] overlong = {
            '{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', 'a', (byte) 0xC0, (byte) 0xAF, 'b', '"', '}'
        };
        assertThatThrownBy(() -> read(overlong, Body.class))
                .isInstanceOf(StrictText.NotText.class)
                .hasMessageContaining("not valid UTF-8")
                .hasMessageContaining("byte 13");
        byte[] encodedSurrogate = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        assertThatThrownBy(() -> read(encodedSurrogate, String.class)).isInstanceOf(StrictText.NotText.class);
        byte[] truncated = {'"', (byte) 0xE2, (byte) 0x82, '"'};
        assertThatThrownBy(() -> read(truncated, String.class)).isInstanceOf(StrictText.NotText.class);
    }

    @Test
    void aLoneSurrogateEscape_shouldBeRefused_butAPairAndEscapedBackslashesPass() throws Exception {
        for (String lone : new String[] {
            "{\"content\":\"\\ud800\"}",
            "{\"content\":\"x\\udc00y\"}",
            "{\"content\":\"\\uD83D\\u0041\"}",
            "{\"content\":\"\\uD83D\"}"
        }) {
            assertThatThrownBy(() -> read(utf8(lone), Body.class))
                    .as(lone)
                    .isInstanceOf(StrictText.NotText.class)
                    .hasMessageContaining("lone UTF-16 surrogate");
        }
        assertThat(((Body) read(utf8("{\"content\":\"\\uD83D\\uDE00 \\\\ud800 é 😀\"}"), Body.class)).content())
                .isEqualTo("😀 \\ud800 é 😀");
        assertThat(read(utf8("{\"a\":1}"), Map.class)).isEqualTo(Map.of("a", 1));
    }
}
