package dev.cairn.http;

/** The request carries no token, or one that does not verify. Answered with 401 and a Bearer challenge. */
public class Unauthenticated extends RuntimeException {

    public Unauthenticated(String detail) {
        super(detail);
    }
}
