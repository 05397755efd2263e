package dev.cairn.model.memory;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.secret.Finding;
import java.util.List;

/**
 * What happened to item {@code index} of a batch: the stored memory (with what was redacted from it), or the domain
 * error that refused it.
 */
public record BatchOutcome(
        int index, Memory memory, List<Finding> redactions, List<Finding> contextRedactions, CairnException error) {

    public BatchOutcome(int index, Memory memory, List<Finding> redactions, CairnException error) {
        this(index, memory, redactions, List.of(), error);
    }

    public boolean ok() {
        return error == null;
    }
}
