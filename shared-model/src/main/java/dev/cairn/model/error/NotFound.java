package dev.cairn.model.error;

/** The addressed record does not exist, or is not visible to the caller (the two are not told apart on purpose). */
public class NotFound extends CairnException {

    public NotFound(String what) {
        super(what + " was not found");
    }

    @Override
    public String kind() {
        return "not-found";
    }

    @Override
    public String title() {
        return "Not found";
    }
}
