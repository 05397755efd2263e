package dev.cairn.model.error;

/**
 * A known domain error. Each subtype is mapped once, at the HTTP edge, to a problem+json answer; anything that is not
 * a {@code CairnException} is a bug or an outage and must propagate.
 */
public abstract class CairnException extends RuntimeException {

    protected CairnException(String detail) {
        super(detail);
    }

    /** A short, stable, kebab-case name used as the problem {@code type} suffix. */
    public abstract String kind();

    /** The human-readable problem title. */
    public abstract String title();

    public String detail() {
        return getMessage();
    }
}
