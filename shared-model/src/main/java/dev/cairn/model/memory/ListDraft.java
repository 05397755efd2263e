package dev.cairn.model.memory;

import dev.cairn.model.id.Id;
import dev.cairn.model.validation.Checks;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Raw query parameters of a list call, validated by {@link #validate}. */
public record ListDraft(String scope, String type, String tag, String order, Integer limit, String cursor) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;

    public ListQuery validate(Id team, Id viewer) {
        Checks c = new Checks();
        Scope s = null;
        if (scope != null && !scope.equals("all")) {
            s = c.oneOf("scope", scope, Scope::fromWire, "user, team, all");
        }
        MemoryType t = c.oneOf("type", type, MemoryType::fromWire, MemoryType.ALLOWED);
        Id tagId = c.id("tag", tag, false);
        ListQuery.Order o = order == null
                ? ListQuery.Order.RECENCY
                : c.oneOf("order", order, ListDraft::parseOrder, "recency, importance");
        Integer l = c.range("limit", limit, 1, MAX_LIMIT);
        ListQuery.Cursor after = null;
        if (cursor != null) {
            after = decode(cursor, o);
            if (after == null) {
                c.fail("cursor", "is not a cursor returned by this list (with the same order)");
            }
        }
        c.throwIfAny();
        return new ListQuery(team, viewer, s, t, tagId, o, l == null ? DEFAULT_LIMIT : l, after);
    }

    private static ListQuery.Order parseOrder(String raw) {
        return switch (raw) {
            case "recency" -> ListQuery.Order.RECENCY;
            case "importance" -> ListQuery.Order.IMPORTANCE;
            default -> null;
        };
    }

    /** Cursors are opaque to clients: base64url of "order:sortKey:id". */
    public static String encode(ListQuery.Cursor cursor, ListQuery.Order order) {
        String raw = order.name().charAt(0) + ":" + cursor.sortKey() + ":" + cursor.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    static ListQuery.Cursor decode(String cursor, ListQuery.Order order) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = raw.split(":", 3);
            if (parts.length != 3
                    || parts[0].length() != 1
                    || parts[0].charAt(0) != order.name().charAt(0)
                    || !Id.isValid(parts[2])) {
                return null;
            }
            return new ListQuery.Cursor(Double.parseDouble(parts[1]), parts[2]);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
