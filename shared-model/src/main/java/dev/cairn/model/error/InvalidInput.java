package dev.cairn.model.error;

import java.util.List;
import java.util.stream.Collectors;

/** The request is well-formed JSON but one or more fields break the contract. Nothing was changed. */
public class InvalidInput extends CairnException {

    private final List<FieldError> errors;

    public InvalidInput(List<FieldError> errors) {
        super(errors.stream().map(e -> e.field() + " " + e.message()).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public InvalidInput(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    public List<FieldError> errors() {
        return errors;
    }

    /**
     * The same errors with each field named under {@code prefix} ({@code content} → {@code memories[3].content}): an
     * item of a batch is validated alone, but its client maps the field back to the request it sent.
     */
    public InvalidInput under(String prefix) {
        return new InvalidInput(errors.stream()
                .map(e -> new FieldError(prefix + "." + e.field(), e.message()))
                .toList());
    }

    @Override
    public String kind() {
        return "invalid-request";
    }

    @Override
    public String title() {
        return "Invalid request";
    }
}
