package dev.cairn.model.decay;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A memory as one string for cold copies without a JSON library (the embedded cold store): length-prefixed fields
 * ({@code <length>:<text>}, {@code -} for absent), every field of the record, so a restore is exact. A field added later goes at the end, so older copies still decode.
 */
public final class MemoryCodec {

    private MemoryCodec() {}

    public static String encode(Memory m) {
        StringBuilder b = new StringBuilder("v1;");
        for (String f : new String[] {
            m.id().value(),
            m.team().value(),
            m.user() == null ? null : m.user().value(),
            m.scope().wire(),
            m.type().wire(),
            m.content(),
            ids(m.tags()),
            Double.toString(m.importance()),
            Double.toString(m.confidence()),
            time(m.occurredAt()),
            time(m.createdAt()),
            time(m.lastAccessedAt()),
            Long.toString(m.accessCount()),
            m.sourceSessionId() == null ? null : m.sourceSessionId().value(),
            ids(m.evidence()),
            Long.toString(m.version()),
            m.state().wire(),
            m.supersededBy() == null ? null : m.supersededBy().value(),
            time(m.validTo()),
            m.context()
        }) {
            if (f == null) {
                b.append('-');
            } else {
                b.append(f.length()).append(':').append(f);
            }
        }
        return b.toString();
    }

    public static Memory decode(String text) {
        if (!text.startsWith("v1;")) {
            throw new IllegalArgumentException("not a cold copy of a memory");
        }
        List<String> f = new ArrayList<>();
        int i = 3;
        while (i < text.length()) {
            if (text.charAt(i) == '-') {
                f.add(null);
                i++;
                continue;
            }
            int colon = text.indexOf(':', i);
            int len = Integer.parseInt(text.substring(i, colon));
            f.add(text.substring(colon + 1, colon + 1 + len));
            i = colon + 1 + len;
        }
        return new Memory(
                new Id(f.get(0)),
                new Id(f.get(1)),
                f.get(2) == null ? null : new Id(f.get(2)),
                Scope.fromWire(f.get(3)),
                MemoryType.fromWire(f.get(4)),
                f.get(5),
                idList(f.get(6)),
                Double.parseDouble(f.get(7)),
                Double.parseDouble(f.get(8)),
                instant(f.get(9)),
                instant(f.get(10)),
                instant(f.get(11)),
                Long.parseLong(f.get(12)),
                f.get(13) == null ? null : new Id(f.get(13)),
                idList(f.get(14)),
                Long.parseLong(f.get(15)),
                MemoryState.fromWire(f.get(16)),
                f.get(17) == null ? null : new Id(f.get(17)),
                instant(f.get(18)),
                f.size() > 19 ? f.get(19) : null); // copies written before the context field have 19 fields
    }

    private static String ids(List<Id> ids) {
        return String.join(",", ids.stream().map(Id::value).toList());
    }

    private static List<Id> idList(String s) {
        return s == null || s.isEmpty()
                ? List.of()
                : Arrays.stream(s.split(",")).map(Id::new).toList();
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }

    private static Instant instant(String s) {
        return s == null ? null : Instant.parse(s);
    }
}
