package dev.cairn.model.error;

import java.util.List;

/** An id (team, user, memory, tag, ...) is outside the id grammar. The raw value is not echoed: it may be hostile. */
public class NamespaceViolation extends InvalidInput {

    public NamespaceViolation(String field, String raw, String problem) {
        super(List.of(new FieldError(field, problem + " (ids match ^[a-z0-9][a-z0-9_-]{0,63}$)")));
    }

    @Override
    public String kind() {
        return "invalid-id";
    }

    @Override
    public String title() {
        return "Invalid id";
    }
}
