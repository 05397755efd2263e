package dev.cairn.model.memory;

import dev.cairn.model.error.CairnException;

/** What happened to item {@code index} of a batch: the stored memory, or the domain error that refused it. */
public record BatchOutcome(int index, Memory memory, CairnException error) {

    public boolean ok() {
        return error == null;
    }
}
