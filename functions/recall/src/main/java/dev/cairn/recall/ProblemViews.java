package dev.cairn.recall;

import dev.cairn.http.Problem;
import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.secret.SecretRejected;

/** A domain error inside a 200 answer (one rejected item of a batch), in the same shape as a problem document. */
final class ProblemViews {

    private ProblemViews() {}

    static Problem of(CairnException e) {
        int status = e instanceof ContentTooLarge ? 413 : 400;
        return Problem.of(e, e instanceof SecretRejected ? 422 : status);
    }
}
