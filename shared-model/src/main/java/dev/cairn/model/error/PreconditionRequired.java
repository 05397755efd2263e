package dev.cairn.model.error;

/** A change that must be conditional arrived without the version it was based on. */
public class PreconditionRequired extends CairnException {

    public PreconditionRequired(String detail) {
        super(detail);
    }

    @Override
    public String kind() {
        return "precondition-required";
    }

    @Override
    public String title() {
        return "Precondition required";
    }
}
