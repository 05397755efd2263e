package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A commit's ops as one string for the stores: length-prefixed fields ({@code <length>:<text>}), so any content —
 * new lines, separators, any Unicode — round-trips without escaping rules. Absent values are written as {@code -}.
 * Both store adapters use it, so a log exported from one reads in the other.
 */
public final class OpsCodec {

    private OpsCodec() {}

    public static String encode(List<SyncOp> ops) {
        StringBuilder b = new StringBuilder();
        for (SyncOp op : ops) {
            field(b, op.kind() == SyncOp.Kind.UPSERT ? "u" : "d");
            field(b, op.factId().value());
            field(b, Long.toString(op.version()));
            field(b, op.content());
            field(b, op.type() == null ? null : op.type().wire());
            field(
                    b,
                    op.tags() == null
                            ? null
                            : String.join(",", op.tags().stream().map(Id::value).toList()));
            field(b, op.confidence() == null ? null : Double.toString(op.confidence()));
        }
        return b.toString();
    }

    public static List<SyncOp> decode(String text) {
        List<String> fields = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) == '-') {
                fields.add(null);
                i++;
                continue;
            }
            int colon = text.indexOf(':', i);
            int len = Integer.parseInt(text.substring(i, colon));
            fields.add(text.substring(colon + 1, colon + 1 + len));
            i = colon + 1 + len;
        }
        List<SyncOp> ops = new ArrayList<>();
        for (int f = 0; f + 7 <= fields.size(); f += 7) {
            String tags = fields.get(f + 5);
            ops.add(new SyncOp(
                    fields.get(f).equals("u") ? SyncOp.Kind.UPSERT : SyncOp.Kind.DELETE,
                    new Id(fields.get(f + 1)),
                    Long.parseLong(fields.get(f + 2)),
                    fields.get(f + 3),
                    fields.get(f + 4) == null ? null : MemoryType.fromWire(fields.get(f + 4)),
                    tags == null
                            ? null
                            : tags.isEmpty()
                                    ? List.of()
                                    : Arrays.stream(tags.split(","))
                                            .map(Id::new)
                                            .toList(),
                    fields.get(f + 6) == null ? null : Double.parseDouble(fields.get(f + 6))));
        }
        return ops;
    }

    private static void field(StringBuilder b, String value) {
        if (value == null) {
            b.append('-');
        } else {
            b.append(value.length()).append(':').append(value);
        }
    }
}
