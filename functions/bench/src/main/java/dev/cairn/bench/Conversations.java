package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Conversations of the shared datasets ({@code conversations.jsonl.gz}, the common schema of
 * {@code ../shared/datasets/README.md}) as runs of session messages: every turn of a conversation, sessions in order,
 * and the turns of short conversations pooled until a run is {@code length} messages long.
 */
final class Conversations {

    private Conversations() {}

    static List<List<SessionMessage>> runs(Path conversationsGz, int length, int count) throws IOException {
        return runs(conversationsGz, length, count, index -> true);
    }

    /** As {@link #runs(Path, int, int)}, from the conversations whose position in the file passes {@code take}. */
    static List<List<SessionMessage>> runs(
            Path conversationsGz, int length, int count, java.util.function.IntPredicate take) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<List<SessionMessage>> runs = new ArrayList<>();
        List<SessionMessage> current = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(conversationsGz)), StandardCharsets.UTF_8))) {
            String line;
            int index = -1;
            while ((line = in.readLine()) != null && runs.size() < count) {
                if (!take.test(++index)) {
                    continue;
                }
                JsonNode conv = json.readTree(line);
                for (JsonNode session : conv.path("sessions")) {
                    for (JsonNode turn : session.path("turns")) {
                        String content = turn.path("content").asText("").strip();
                        if (content.isEmpty()) {
                            continue;
                        }
                        SessionMessage.Role role =
                                "user".equals(turn.path("role").asText())
                                        ? SessionMessage.Role.USER
                                        : SessionMessage.Role.ASSISTANT;
                        long seq = current.size() + 1;
                        current.add(new SessionMessage(new Id("m" + seq), seq, role, content, Instant.EPOCH));
                        if (current.size() == length) {
                            runs.add(current);
                            current = new ArrayList<>();
                            if (runs.size() == count) {
                                return runs;
                            }
                        }
                    }
                }
            }
        }
        return runs;
    }
}
