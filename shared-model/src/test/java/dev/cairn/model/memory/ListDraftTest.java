package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class ListDraftTest {

    private static final Id TEAM = new Id("acme");
    private static final Id ALICE = new Id("alice");

    @Property
    void cursor_roundTrips(@ForAll @DoubleRange(min = 0, max = 2e12) double key) {
        ListQuery.Cursor c = new ListQuery.Cursor(key, "01abc");
        String encoded = ListDraft.encode(c, ListQuery.Order.IMPORTANCE);
        ListQuery q = new ListDraft(null, null, null, "importance", null, encoded).validate(TEAM, ALICE);
        assertThat(q.after()).isEqualTo(c);
    }

    @Test
    void cursor_ofAnotherOrder_isRejected() {
        String recency = ListDraft.encode(new ListQuery.Cursor(5, "x1"), ListQuery.Order.RECENCY);
        assertThatThrownBy(() -> new ListDraft(null, null, null, "importance", null, recency).validate(TEAM, ALICE))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("cursor");
    }

    @Test
    void limits_areBounded() {
        assertThatThrownBy(() -> new ListDraft(null, null, null, null, 501, null).validate(TEAM, ALICE))
                .hasMessageContaining("limit");
        assertThat(new ListDraft(null, null, null, null, null, null)
                        .validate(TEAM, ALICE)
                        .limit())
                .isEqualTo(50);
    }
}
